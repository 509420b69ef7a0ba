"""A job that failed for good: its head's check must not stay queued or in progress."""
from __future__ import annotations

import logging

from github import GithubException
from github.GithubException import RateLimitExceededExceedsMaxWait

from bot.handlers.events import Work, classify
from bot.handlers.pull_request import fail_closed
from bot.handlers.target import review_target
from bot.ambient.jobs import Job
from bot.queue.runner import Interrupted

log = logging.getLogger("schema_review.queue")

GITHUB_ANSWERED = "GitHub answered {status} after several tries"
RATE_LIMITED = "GitHub's rate limit did not lift in time"
NO_CONNECTION = "GitHub could not be reached"


def describe(error: BaseException) -> str:
    """A short reason for the check title; never the response body (it may echo request data)."""
    if isinstance(error, RateLimitExceededExceedsMaxWait):
        return RATE_LIMITED
    if isinstance(error, GithubException):
        return GITHUB_ANSWERED.format(status=error.status)
    if isinstance(error, (ConnectionError, OSError)) or "Connection" in type(error).__name__:
        return NO_CONNECTION
    return type(error).__name__


def give_up(job: Job, error: BaseException, *, github) -> None:
    """Complete the head's check unless it already carries a verdict (or the handler's note):
    `failure` either way (fail closed), for GitHub errors and for a job that kept killing its
    worker alike; an unreviewed commit never passes."""
    if classify(job.event, job.payload).work is not Work.REVIEW:
        return
    target = review_target(job.event, job.payload)
    if target is None:
        return
    try:
        repo = github.repo(target.installation_id, target.repository)
        run = repo.find_check_run(target.head_sha)
        if run is not None and run.status == "completed":
            return
        before = None
        if run is None:
            run, before = repo.start_check_run(target.head_sha)
        reason = error.reason if isinstance(error, Interrupted) else describe(error)
        fail_closed(repo, run, before, reason=reason)
    except Exception:  # GitHub is still down: the log is all that is left
        log.exception("could not complete the check",
                      extra={"delivery": job.delivery_id, "repository": job.repository})
