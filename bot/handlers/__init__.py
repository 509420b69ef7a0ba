"""Route a job to its handler by event; each handler is thin and calls named functions."""
from __future__ import annotations

from ..events import Work, classify
from ..jobs import Job
from .action import handle_action
from .comment import CommandContext, handle_command
from .pull_request import handle_review

HANDLERS = {Work.REVIEW: handle_review, Work.ACTION: handle_action}


def handle_job(job: Job, *, github, commands: CommandContext | None = None) -> None:
    work = classify(job.event, job.payload).work
    if work is Work.COMMAND:
        return handle_command(job, github=github, context=commands or CommandContext())
    handler = HANDLERS.get(work)
    if handler is not None:
        handler(job, github=github)
