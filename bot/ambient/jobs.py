"""A job (one accepted delivery), cooperative cancellation, and an in-memory dispatcher for tests."""
from __future__ import annotations

import contextlib
import contextvars
import enum
import logging
from dataclasses import dataclass
from typing import Callable, Iterator

log = logging.getLogger("schema_review.jobs")


@dataclass(frozen=True)
class Job:
    delivery_id: str
    event: str
    payload: dict

    @property
    def repository(self) -> str:
        repository = self.payload.get("repository")
        name = repository.get("full_name") if isinstance(repository, dict) else None
        return name if isinstance(name, str) and name else "?"


class Admission(str, enum.Enum):
    """What a dispatcher did with a submitted job."""
    ACCEPTED = "accepted"
    DUPLICATE = "duplicate"  # the same X-GitHub-Delivery was already received


class Superseded(Exception):
    """A newer push arrived for the same pull request: this job's work is no longer wanted."""


# The running job's "is this still wanted?" question; GitHub operations ask it before each call.
_still_wanted: contextvars.ContextVar[Callable[[], bool] | None] = contextvars.ContextVar(
    "schema_review_still_wanted", default=None)


@contextlib.contextmanager
def cancellable(still_wanted: Callable[[], bool]) -> Iterator[None]:
    token = _still_wanted.set(still_wanted)
    try:
        yield
    finally:
        _still_wanted.reset(token)


# False while the queue still has retries left for the running job (unset: no queue, no retry).
_last_attempt: contextvars.ContextVar[bool] = contextvars.ContextVar("schema_review_last_attempt", default=True)
# True while the running job's handler runs for the first time (unset: not known, say False).
_first_attempt: contextvars.ContextVar[bool] = contextvars.ContextVar("schema_review_first_attempt", default=False)


@contextlib.contextmanager
def attempt(*, last: bool, first: bool = False) -> Iterator[None]:
    tokens = _last_attempt.set(last), _first_attempt.set(first)
    try:
        yield
    finally:
        _last_attempt.reset(tokens[0])
        _first_attempt.reset(tokens[1])


def is_first_attempt() -> bool:
    """No earlier attempt of the running job got as far as its handler (so left nothing
    behind on GitHub, such as a check run in progress)."""
    return _first_attempt.get()


def is_final(error: BaseException) -> bool:
    """True when the job will not run again after `error`: time to leave a verdict saying so."""
    from github.GithubException import RateLimitExceededExceedsMaxWait
    if isinstance(error, RateLimitExceededExceedsMaxWait):
        return False  # the queue runs it again once the limit lifts, retries or not
    return isinstance(error, Superseded) or _last_attempt.get()


def checkpoint() -> None:
    """Raise Superseded when the job running on this thread has been overtaken by a newer push."""
    still_wanted = _still_wanted.get()
    if still_wanted is not None and not still_wanted():
        raise Superseded("a newer push superseded this review")
