"""When and how long to wait before asking GitHub again: 5xx, lost connections, rate limits."""
from __future__ import annotations

import json
import time
from typing import Mapping

from github import GithubException
from github.GithubException import RateLimitExceededExceedsMaxWait
from github.Requester import Requester
from urllib3.exceptions import MaxRetryError, ResponseError
from urllib3.util.retry import Retry

from bot.ambient.metrics import GITHUB_RETRIES

# POST creates things (reviews, comments, check runs): after a 5xx or a lost answer it may have
# happened anyway, so only idempotent methods (and GraphQL) are retried here; the job-level
# retry, which looks before it creates, covers POST. A rate-limited POST was refused: retried.
IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"})
SERVER_ERRORS = frozenset({500, 502, 503, 504})
RATE_LIMIT_STATUSES = frozenset({403, 429})
# GitHub's advice when a secondary limit names no time: "wait for at least one minute".
SECONDARY_DEFAULT_WAIT = 60.0


def rate_limit_wait(status: int, headers: Mapping[str, str], message: str, *, now: float) -> float | None:
    """Seconds GitHub asks us to wait, or None when the answer is not a rate limit at all.

    GitHub's documented order: Retry-After; else, when x-ratelimit-remaining is 0, until
    x-ratelimit-reset; else at least a minute.
    """
    lower = {k.lower(): v for k, v in headers.items()}
    limited = (status == 429 or "retry-after" in lower or lower.get("x-ratelimit-remaining") == "0"
               or Requester.isRateLimitError(message or ""))
    if status not in RATE_LIMIT_STATUSES or not limited:
        return None
    retry_after = lower.get("retry-after", "").strip()
    if retry_after.isdigit():
        return float(retry_after)
    reset = lower.get("x-ratelimit-reset", "").strip()
    if lower.get("x-ratelimit-remaining") == "0" and reset.isdigit():
        return max(float(reset) - now, 0.0) + 1.0  # the reset second itself may still be limited
    return SECONDARY_DEFAULT_WAIT


def _is_graphql(url: str | None) -> bool:
    # GraphQL travels as POST; this App's queries read, and its one mutation (minimize) is idempotent.
    return bool(url) and url.split("?", 1)[0].rstrip("/").endswith("graphql")


class GitHubBackoff(Retry):
    """urllib3 retry policy: backoff on 5xx and connection errors, GitHub's own waits on limits.

    A wait longer than `max_wait` is not slept on a worker thread: it raises
    RateLimitExceededExceedsMaxWait, and the queue schedules the job again after `wait`.
    """

    def __init__(self, *, max_wait: float = 90.0, clock=time.time, **kwargs):
        self.max_wait, self.clock = max_wait, clock
        self.rate_wait: float | None = None
        kwargs.setdefault("status_forcelist", sorted(SERVER_ERRORS | RATE_LIMIT_STATUSES))
        kwargs.setdefault("allowed_methods", IDEMPOTENT)
        kwargs.setdefault("raise_on_status", False)  # the last answer reaches PyGithub as is
        super().__init__(**kwargs)

    def new(self, **kw):
        kw.setdefault("max_wait", self.max_wait)
        kw.setdefault("clock", self.clock)
        return super().new(**kw)

    def is_retry(self, method: str, status_code: int, has_retry_after: bool = False) -> bool:
        # POST passes here; increment() lets only GraphQL POSTs (queries) through on a 5xx.
        return status_code in (SERVER_ERRORS | RATE_LIMIT_STATUSES) and bool(self.total)

    def _is_method_retryable(self, method: str) -> bool:
        return method.upper() in IDEMPOTENT or method.upper() == "POST"

    def increment(self, method=None, url=None, response=None, error=None, _pool=None, _stacktrace=None):
        if response is not None and response.status in RATE_LIMIT_STATUSES:
            return self._rate_limited(method, url, response, error, _pool, _stacktrace)
        if (method or "").upper() not in IDEMPOTENT and not _is_graphql(url) and \
                (response is not None or (error is not None and self._is_read_error(error))):
            # It may have been created already: the answer goes back as is, the job decides.
            raise MaxRetryError(_pool, url, error or ResponseError(f"{method} not retried"))
        GITHUB_RETRIES.inc(reason=f"status {response.status}" if response is not None else "connection")
        return super().increment(method, url, response, error, _pool, _stacktrace)

    def _rate_limited(self, method, url, response, error, pool, stacktrace):
        content = response.data or b""  # read here, so it must travel in any exception we raise
        try:
            data = json.loads(content)
        except ValueError:
            data = {"message": content.decode("utf-8", "replace")}
        message = data.get("message", "") if isinstance(data, dict) else ""
        wait = rate_limit_wait(response.status, dict(response.headers), message, now=self.clock())
        if wait is None:  # a permission 403: GitHub will say the same again
            raise Requester.createException(response.status, dict(response.headers), data)
        if wait > self.max_wait:
            raise RateLimitExceededExceedsMaxWait(response.status, data, dict(response.headers), wait=wait)
        try:
            retry = super().increment(method, url, response, error, pool, stacktrace)
        except MaxRetryError:
            raise Requester.createException(response.status, dict(response.headers), data) from None
        GITHUB_RETRIES.inc(reason="rate limit")
        retry.rate_wait = wait
        return retry

    def sleep(self, response=None) -> None:
        if self.rate_wait is not None:
            time.sleep(self.rate_wait)
            return
        super().sleep(response)


__all__ = ["GitHubBackoff", "rate_limit_wait", "GithubException", "RateLimitExceededExceedsMaxWait"]
