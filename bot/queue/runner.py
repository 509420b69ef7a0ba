"""Run one journaled delivery: skip if superseded, one at a time per PR, retry, give up cleanly."""
from __future__ import annotations

import logging
import time
from typing import Callable

from github.GithubException import RateLimitExceededExceedsMaxWait
from huey.exceptions import RetryTask

from bot.ambient.jobs import Job, Superseded, attempt, cancellable
from bot.ambient.metrics import JOB_DURATION
from bot.queue.leases import Leases, owner_id
from bot.queue.ledger import Ledger, State
from bot.queue.subject import subject_of

log = logging.getLogger("schema_review.queue")

# Seconds before a job waiting for its pull request's lock looks again.
LOCK_RETRY_SECONDS = 1
INTERRUPTED = "its worker stopped {count} times while running it (a time or memory limit)"


class Interrupted(Exception):
    """The job's worker died under it too often: it is concluded instead of run again."""

    def __init__(self, count: int):
        super().__init__(INTERRUPTED.format(count=count))
        self.reason = INTERRUPTED.format(count=count)


class Runner:
    def __init__(self, ledger: Ledger, leases: Leases, handle: Callable[[Job], None], *,
                 give_up: Callable[[Job, BaseException], None] | None = None,
                 max_interruptions: int = 2):
        self._ledger, self._leases, self._handle = ledger, leases, handle
        self._max_interruptions = max_interruptions
        self._give_up = give_up or (lambda job, error: None)

    def run(self, guid: str, *, retries_left: int) -> None:
        entry = self._ledger.get(guid)
        if entry is None or entry["state"] == State.DONE.value:
            return  # finished by an earlier copy of this task (a recovered duplicate)
        if entry["state"] == State.RUNNING.value and self._leases.alive(entry["owner"]) \
                and entry["owner"] != owner_id():
            return  # a live worker elsewhere has it
        job: Job = entry["job"]
        subject = subject_of(job)
        context = {"delivery": guid, "repository": job.repository, "event": job.event}
        first = not entry["attempts"]  # an interrupted attempt had counted itself already
        if self._ledger.superseded(subject) and first:
            # Never started: nothing of it is on GitHub. A job that ran before may have left its
            # check in progress: its handler runs, meets Superseded at once and cancels that.
            return self._finish(guid, "superseded", context, 0.0)
        if entry.get("interrupted", 0) >= self._max_interruptions:
            log.error("job interrupted too often; concluded", extra={**context, "interrupted": entry["interrupted"]})
            self._give_up(job, Interrupted(entry["interrupted"]))
            return self._finish(guid, "failed", context, 0.0)
        if first and not entry.get("settled") and (wait := self._ledger.settling(subject)) > 0:
            # A burst of pushes: the next one may replace this head. Once: a later look could
            # only re-arm it by another host's clock or a late delivery, never by a new push.
            try:
                self._ledger.update(guid, settled=True)
            except Exception:  # noqa: BLE001 - the store failed: review now, never drop the job
                log.warning("could not record a burst's wait; reviewing at once", exc_info=True, extra=context)
            else:
                raise RetryTask(delay=wait)
        if not self._leases.acquire(subject.lock, guid):
            raise RetryTask(delay=LOCK_RETRY_SECONDS)  # another job on this PR runs; not a failure
        started, wall = time.monotonic(), time.time()
        try:
            if self._ledger.covered(subject, admitted=entry.get("admitted", entry["at"])):
                return self._finish(guid, "coalesced", context, started)
            self._ledger.update(guid, state=State.RUNNING.value, owner=owner_id(),
                                attempts=entry["attempts"] + 1)
            with cancellable(lambda: not self._ledger.superseded(subject)), \
                    attempt(last=retries_left <= 0, first=first):
                self._handle(job)
        except Superseded:
            self._finish(guid, "superseded", context, started)
        except RateLimitExceededExceedsMaxWait as error:
            # Waiting for a reset is not a failed attempt: come back when GitHub says.
            self._ledger.update(guid, state=State.QUEUED.value, owner=None)
            log.warning("rate limited; job rescheduled", extra={**context, "wait": round(error.wait)})
            raise RetryTask(delay=error.wait) from None
        except Exception as error:
            if retries_left <= 0:
                log.exception("job failed for good", extra=context)
                self._give_up(job, error)
                self._finish(guid, "failed", context, started)
                return
            log.warning("job failed; will retry", exc_info=True, extra={**context, "retries": retries_left})
            self._ledger.update(guid, state=State.QUEUED.value, owner=None)
            JOB_DURATION.observe(time.monotonic() - started, outcome="retry")
            raise
        else:
            self._ledger.reviewed(subject, started=wall)
            self._finish(guid, "done", context, started)
        finally:
            self._leases.release(subject.lock, guid)

    def _finish(self, guid: str, outcome: str, context: dict, started: float) -> None:
        self._ledger.finish(guid, outcome)
        elapsed = time.monotonic() - started if started else 0.0
        JOB_DURATION.observe(elapsed, outcome=outcome)
        log.info("job finished", extra={**context, "outcome": outcome, "duration_ms": round(elapsed * 1000)})
