"""Route a job to its handler by event; each handler is thin and calls named functions."""
from __future__ import annotations

from ..events import Work, classify
from ..jobs import Job
from .pull_request import handle_review


def handle_job(job: Job, *, github) -> None:
    decision = classify(job.event, job.payload)
    if decision.work is Work.REVIEW:
        handle_review(job, github=github)
