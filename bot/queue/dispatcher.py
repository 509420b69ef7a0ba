"""The durable queue: SQLite on local disk or Redis; `python -m bot.worker` runs its jobs."""
from __future__ import annotations

import os
import uuid
from typing import Callable

from huey import RedisHuey, SqliteHuey
from huey.consumer import Consumer
from huey.storage import SqliteStorage

from bot.ambient.jobs import Admission, Job
from bot.queue.runtime import Runtime
from bot.queue.leases import Leases
from bot.queue.ledger import Ledger
from bot.queue.maintenance import Upkeep
from bot.queue.runner import Runner

QUEUE_NAME = "schema-review"
# An idle SQLite worker polls at most this often (Redis workers block on the list instead).
MAX_POLL_SECONDS = 0.25


class _Storage(SqliteStorage):
    def _create_connection(self):
        conn = super()._create_connection()
        # WAL with synchronous=NORMAL: a commit survives a crashed or killed process (the cases a
        # restart must resume from) without an fsync per webhook; a power cut may lose the last few.
        conn.execute("pragma synchronous=1")
        return conn


def make_huey(runtime: Runtime):
    if runtime.redis_url:
        return RedisHuey(QUEUE_NAME, url=runtime.redis_url, results=False)
    folder = os.path.dirname(os.path.abspath(runtime.queue_path))
    os.makedirs(folder, exist_ok=True)
    return SqliteHuey(QUEUE_NAME, filename=runtime.queue_path, results=False, storage_class=_Storage)


class QueueDispatcher:
    """`submit(job)` records the delivery and enqueues it; workers run it through `handle`."""

    def __init__(self, runtime: Runtime, handle: Callable[[Job], None], *,
                 give_up: Callable[[Job, BaseException], None] | None = None,
                 recover_deliveries: Callable[[], object] | None = None, huey=None):
        self.runtime = runtime
        self.huey = huey or make_huey(runtime)
        self.ledger = Ledger(self.huey, quiet=runtime.burst_quiet)
        self.leases = Leases(self.huey, heartbeat=runtime.heartbeat)
        self.runner = Runner(self.ledger, self.leases, handle, give_up=give_up,
                             max_interruptions=runtime.job_interruptions)
        self._recover_deliveries = recover_deliveries

        @self.huey.task(name="run_delivery", retries=runtime.job_retries, retry_delay=runtime.job_retry_delay,
                        retry_backoff=2, context=True)
        def run_delivery(guid: str, task=None) -> None:
            self.runner.run(guid, retries_left=task.retries if task is not None else 0)

        self._task = run_delivery

    # --- the web side -----------------------------------------------------------------------
    def submit(self, job: Job) -> Admission:
        if not job.delivery_id:  # not from GitHub's hookshot; still worth doing, just not dedupable
            job = Job(f"local-{uuid.uuid4()}", job.event, job.payload)
        # The delivery's record and its job are written together: a failure leaves neither, so
        # GitHub's redelivery is not taken for a duplicate.
        task = self.huey.serialize_task(self._task.s(job.delivery_id))
        return Admission.ACCEPTED if self.ledger.admit(job, task=task) else Admission.DUPLICATE

    def enqueue(self, guid: str) -> None:
        self._task(guid)

    def ready(self) -> bool:
        self.huey.pending_count()  # raises when the queue's storage is unreachable
        return True

    def depth(self) -> int:
        return self.huey.pending_count() + self.huey.scheduled_count()

    # --- the worker side --------------------------------------------------------------------
    def consumer(self) -> Consumer:
        return Consumer(self.huey, workers=self.runtime.workers, worker_type="thread", periodic=False,
                        initial_delay=0.02, backoff=1.5, max_delay=MAX_POLL_SECONDS, scheduler_interval=1,
                        check_worker_health=True, graceful_signal="TERM")

    def upkeep(self) -> Upkeep:
        return Upkeep(ledger=self.ledger, leases=self.leases, huey=self.huey, enqueue=self.enqueue,
                      heartbeat=self.runtime.heartbeat, recovery_interval=self.runtime.recovery_interval,
                      recover_deliveries=self._recover_deliveries)
