"""Which worker owns what: heartbeats, liveness of an owner, and per-pull-request locks."""
from __future__ import annotations

import os
import socket
import time

# Missed heartbeats after which a worker on another machine counts as dead.
MISSED_BEATS = 6


def owner_id() -> str:
    """This process, as other workers see it (after a fork the pid, and so the id, changes)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def _pid_alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            # A killed worker whose parent has not reaped it yet is a zombie: dead all the same.
            return handle.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True


class Leases:
    def __init__(self, huey, *, heartbeat: float, clock=time.time):
        self._huey, self._heartbeat, self._clock = huey, heartbeat, clock

    def beat(self) -> None:
        self._huey.put(f"worker:{owner_id()}", self._clock())

    def alive(self, owner: str | None) -> bool:
        if not owner:
            return False
        if owner == owner_id():
            return True
        host, _, pid = owner.rpartition(":")
        if host == socket.gethostname() and pid.isdigit() and not _pid_alive(int(pid)):
            return False  # on this machine the process table is the truth, no need to wait
        seen = self._huey.get(f"worker:{owner}", peek=True)
        return seen is not None and self._clock() - seen < self._heartbeat * MISSED_BEATS

    def acquire(self, name: str, holder: str) -> bool:
        """Take the lock `name` for job `holder`; a lock whose owner died is taken over."""
        key, mine = f"lock:{name}", {"owner": owner_id(), "holder": holder}
        if self._huey.put_if_empty(key, mine):
            return True
        held = self._huey.get(key, peek=True)
        if held == mine:
            return True
        if held is None or not self.alive(held.get("owner")):
            self._huey.delete(key)
            return self._huey.put_if_empty(key, mine)
        return False

    def release(self, name: str, holder: str) -> None:
        key = f"lock:{name}"
        held = self._huey.get(key, peek=True)
        if held is not None and held.get("holder") == holder:
            self._huey.delete(key)
