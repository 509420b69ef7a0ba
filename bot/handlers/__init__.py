"""Route a job to its handler by event; each handler is thin and calls named functions, in order:
gather, review, render, publish. May import gather, overrides, review, render, github, lifecycle,
config and ambient, never queue or web."""
from __future__ import annotations

from bot.handlers.events import Work, classify
from bot.ambient.jobs import Job
from bot.handlers.action import handle_action
from bot.handlers.comment import CommandContext, handle_command
from bot.handlers.migrated import handle_migrated
from bot.handlers.pull_request import handle_review
from bot.handlers.tracking import handle_merged

HANDLERS = {Work.ACTION: handle_action, Work.MERGED: handle_merged,
            Work.MIGRATED: handle_migrated}


def handle_job(job: Job, *, github, commands: CommandContext | None = None) -> None:
    work = classify(job.event, job.payload).work
    if work is Work.COMMAND:
        return handle_command(job, github=github, context=commands or CommandContext())
    if work is Work.REVIEW:  # overrides count only while their authors are uninvolved: the push log says
        return handle_review(job, github=github, pushes=(commands or CommandContext()).pushes)
    handler = HANDLERS.get(work)
    if handler is not None:
        handler(job, github=github)
