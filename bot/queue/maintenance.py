"""Background upkeep of a worker process: heartbeats, orphaned jobs, old entries, lost deliveries."""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from bot.queue.leases import Leases, owner_id
from bot.queue.ledger import Ledger, State

log = logging.getLogger("schema_review.queue")

# A queued entry this old whose task is in neither queue nor schedule lost its task (a crash
# between recording and enqueueing): it is enqueued again.
STALE_QUEUED_SECONDS = 300
CLEANUP_SECONDS = 3600


def recover_orphans(ledger: Ledger, leases: Leases, huey, enqueue: Callable[[str], None], *,
                    now: float) -> list[str]:
    """Enqueue again the jobs whose worker died mid-way; returns their delivery ids."""
    recovered, waiting = [], None
    for guid, entry in list(ledger.entries()):
        state = entry["state"]
        if state == State.RUNNING.value and not leases.alive(entry["owner"]):
            # Several workers may sweep at once: only the one that claims the orphan requeues it.
            claim = f"claim:{guid}:{entry['owner']}:{entry['attempts']}"
            if not huey.put_if_empty(claim, now):
                continue
        elif state == State.QUEUED.value and now - entry["at"] > STALE_QUEUED_SECONDS:
            waiting = waiting if waiting is not None else _waiting(huey)
            if guid in waiting:
                continue
        else:
            continue
        if state == State.RUNNING.value:
            # Counted: a job that kills its worker every time (out of memory, a timeout) must
            # not be re-queued forever; the runner concludes it after a few of these.
            ledger.update(guid, state=State.QUEUED.value, owner=None,
                          interrupted=entry.get("interrupted", 0) + 1)
        else:
            ledger.update(guid, state=State.QUEUED.value, owner=None)
        enqueue(guid)
        recovered.append(guid)
    if recovered:
        log.warning("re-enqueued jobs of dead workers", extra={"count": len(recovered)})
    return recovered


def _waiting(huey) -> set[str]:
    tasks = list(huey.pending()) + list(huey.scheduled())
    return {task.args[0] for task in tasks if task.args}


class Upkeep(threading.Thread):
    """Beats every `heartbeat` seconds; sweeps orphans every few beats; lost deliveries at start
    and every `recovery_interval` seconds (0: only at start)."""

    def __init__(self, *, ledger: Ledger, leases: Leases, huey, enqueue, heartbeat: float,
                 recovery_interval: float, recover_deliveries: Callable[[], object] | None):
        super().__init__(name="schema-review-upkeep", daemon=True)
        self._ledger, self._leases, self._huey, self._enqueue = ledger, leases, huey, enqueue
        self._heartbeat, self._interval = heartbeat, recovery_interval
        self._recover_deliveries = recover_deliveries
        self.stopped = threading.Event()

    def run(self) -> None:
        beats, last_recovery, last_cleanup = 0, None, time.monotonic()
        while not self.stopped.is_set():
            now = time.monotonic()
            self._safely(self._leases.beat)
            if beats % 3 == 0:
                self._safely(lambda: recover_orphans(self._ledger, self._leases, self._huey,
                                                     self._enqueue, now=time.time()))
            if self._recover_deliveries and (last_recovery is None or (
                    self._interval and now - last_recovery >= self._interval)):
                last_recovery = now
                self._safely(self._recover_deliveries)
            if now - last_cleanup >= CLEANUP_SECONDS:
                last_cleanup = now
                self._safely(self._ledger.expire)
            beats += 1
            self.stopped.wait(self._heartbeat)

    def stop(self) -> None:
        self.stopped.set()

    @staticmethod
    def _safely(step) -> None:
        try:
            step()
        except Exception:  # the queue or GitHub is unreachable for now: try on the next beat
            log.exception("upkeep step failed", extra={"owner": owner_id()})
