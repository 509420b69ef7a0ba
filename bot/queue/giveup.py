"""A job that failed for good: its head's check must not stay queued or in progress."""
from __future__ import annotations

import logging

from github import GithubException
from github.GithubException import RateLimitExceededExceedsMaxWait

from ..events import Work, classify
from ..handlers.pull_request import COULD_NOT_FINISH, COULD_NOT_FINISH_SUMMARY
from ..handlers.target import review_target
from ..jobs import Job
from .runner import Interrupted

log = logging.getLogger("schema_review.queue")

GITHUB_ANSWERED = "GitHub answered {status} after several tries"
RATE_LIMITED = "GitHub's rate limit did not lift in time"
NO_CONNECTION = "GitHub could not be reached"
COULD_NOT_REVIEW = "schema-review could not review this commit: {reason}"
COULD_NOT_REVIEW_SUMMARY = ("The review of this commit was started several times and never "
                            "finished, so the gate fails closed. Push again or comment "
                            "`/schema-review recheck` to retry; a maintainer can override.")


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
    neutral after GitHub errors, failure for a job that kept killing its worker (fail closed)."""
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
        run = run or repo.start_check_run(target.head_sha)
        if isinstance(error, Interrupted):
            repo.complete_check_run(run, conclusion="failure",
                                    title=COULD_NOT_REVIEW.format(reason=error.reason)[:255],
                                    summary=COULD_NOT_REVIEW_SUMMARY, text=None, annotations=[])
            return
        repo.complete_check_run(run, conclusion="neutral",
                                title=COULD_NOT_FINISH.format(reason=describe(error))[:255],
                                summary=COULD_NOT_FINISH_SUMMARY, text=None, annotations=[])
    except Exception:  # GitHub is still down: the log is all that is left
        log.exception("could not mark the check neutral",
                      extra={"delivery": job.delivery_id, "repository": job.repository})
