"""Running accepted deliveries off the request thread, so GitHub gets its answer at once."""
from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

log = logging.getLogger("schema_review.jobs")


@dataclass(frozen=True)
class Job:
    delivery_id: str
    event: str
    payload: dict

    @property
    def repository(self) -> str:
        return ((self.payload.get("repository") or {}).get("full_name")) or "?"


class ThreadDispatcher:
    """Runs jobs on a small thread pool; a job that raises is logged and the pool lives on."""

    def __init__(self, handle: Callable[[Job], None], *, workers: int = 4):
        self._handle = handle
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="schema-review")

    def submit(self, job: Job) -> Future:
        return self._pool.submit(self._run, job)

    def _run(self, job: Job) -> None:
        try:
            self._handle(job)
        except Exception:  # contained: one bad job must not take the worker down
            log.exception("job failed", extra={"delivery": job.delivery_id, "repository": job.repository})

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True)
