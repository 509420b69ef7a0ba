"""Route a job to its handler by event; each handler is thin and calls named functions."""
from __future__ import annotations

from ..events import Work, classify
from ..jobs import Job
from .action import handle_action
from .comment import handle_command
from .pull_request import handle_review

HANDLERS = {Work.REVIEW: handle_review, Work.COMMAND: handle_command, Work.ACTION: handle_action}


def handle_job(job: Job, *, github) -> None:
    handler = HANDLERS.get(classify(job.event, job.payload).work)
    if handler is not None:
        handler(job, github=github)
