"""`check` under a time and memory budget, in a pool of sandboxed worker processes."""
from __future__ import annotations

import json
import os
import select
import signal
import threading
import time
from pathlib import Path
from typing import Sequence

from . import limits, sandbox, wire
from .model import Format, Mode, Options, Report, SchemaError, Source

# The child imports this package from where it is installed (`-I` keeps the current directory
# and PYTHONPATH off sys.path); the root is a path of this installation, not repository text.
BOOTSTRAP = "import sys; sys.path.insert(0, sys.argv[1]); from rules.worker import main; main()"
ROOT = str(Path(__file__).resolve().parent.parent)
IDLE_WORKERS = 8  # kept per process; more run at once when more threads review
# Comparisons are batch work: at a lower priority, the process answering GitHub's webhooks gets
# a core first when both want one (an ack waits milliseconds, a review a little longer).
NICENESS = 10

OVER_TIME = "could not be reviewed within {seconds:g} s"
OVER_MEMORY = "could not be reviewed within {limit} MiB of memory"
STOPPED = "could not be reviewed: the rule engine stopped ({why})"
BAD_ANSWER = "an answer that is not the engine's"


class OverBudget(Exception):
    """The comparison did not finish within its budget (or its worker died); `problem` says how."""

    def __init__(self, problem: str):
        super().__init__(problem)
        self.problem = problem


class _Worker:
    def __init__(self, *, memory_bytes: int):
        self.child = sandbox.start(
            sandbox.python(BOOTSTRAP, ROOT), pipes=True,
            # No NPROC limit: it starts protoc (which the runner then forbids to start anything).
            limits=sandbox.Limits(wall_seconds=None, cpu_seconds=None, memory_bytes=memory_bytes,
                                  file_bytes=limits.PROTOC_OUTPUT_BYTES, processes=None,
                                  niceness=NICENESS))
        self._out = self.child.process.stdout.fileno()
        self._pending = bytearray()

    def call(self, payload: bytes, *, deadline: float) -> dict | None:
        """The answer, or None when the deadline passed first (the worker is then unusable)."""
        self.child.allow_cpu(max(deadline - time.monotonic(), 0) + 1)
        self.child.process.stdin.write(payload)
        self.child.process.stdin.flush()
        while b"\n" not in self._pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self._out], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self._out, 1 << 20)
            if not chunk:
                raise EOFError
            self._pending += chunk
            if len(self._pending) > limits.MAX_ANSWER_BYTES:
                raise EOFError
        line, _, rest = bytes(self._pending).partition(b"\n")
        self._pending = bytearray(rest)
        return json.loads(line)

    def death(self) -> str:
        """Why the child ended (it is reaped here)."""
        self.child.close()
        code = self.child.process.returncode
        if code == -signal.SIGXCPU:
            return "cpu"
        return f"exit {code}" if code is not None and code >= 0 else f"signal {-(code or 0)}"


class Pool:
    """Reuses warm workers; a worker that overstays is killed and replaced, never waited for."""

    def __init__(self, *, seconds: float = limits.FILE_BUDGET_SECONDS,
                 memory_bytes: int = limits.FILE_BUDGET_MEMORY_BYTES):
        self.seconds, self.memory_bytes = seconds, memory_bytes
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()

    def check(self, old: Source, new: Source, *, format: Format | None = None,
              mode: Mode = Mode.BACKWARD, against: Sequence[Source] = (),
              options: Options = Options(), deadline: float | None = None,
              examples: bool = False) -> Report:
        """rules.check in a worker; raises SchemaError as it does, OverBudget past the deadline."""
        deadline = time.monotonic() + self.seconds if deadline is None else deadline
        payload = json.dumps(wire.request(old, new, format=format, mode=mode, against=against,
                                          options_=options, examples=examples)).encode() + b"\n"
        worker = self._take()
        try:
            answer = worker.call(payload, deadline=deadline)
        except (OSError, EOFError, ValueError):
            why = worker.death()
            if why == "cpu":
                raise OverBudget(OVER_TIME.format(seconds=self.seconds)) from None
            raise OverBudget(STOPPED.format(why=why)) from None
        if answer is None:
            worker.child.close()
            raise OverBudget(OVER_TIME.format(seconds=self.seconds))
        self._give_back(worker)
        return self._result(answer)

    def _result(self, answer) -> Report:
        if not isinstance(answer, dict):
            raise OverBudget(STOPPED.format(why=BAD_ANSWER))
        try:
            if "report" in answer:
                return wire.to_report(answer["report"])
            if "error" in answer:
                raise wire.to_error(answer["error"])
        except wire.Malformed:
            raise OverBudget(STOPPED.format(why=BAD_ANSWER)) from None
        if answer.get("crash") == "memory":
            raise OverBudget(OVER_MEMORY.format(limit=self.memory_bytes >> 20))
        raise OverBudget(STOPPED.format(why=str(answer.get("crash"))[:200]))

    def _take(self) -> _Worker:
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.child.process.poll() is None:
                    return worker
                worker.child.close()
        return _Worker(memory_bytes=self.memory_bytes)

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            if len(self._idle) < IDLE_WORKERS:
                self._idle.append(worker)
                return
        worker.child.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.child.close()


_pools: dict[int, Pool] = {}
_settings: dict[str, float] = {}
_guard = threading.Lock()


def configure(*, seconds: float) -> None:
    """The budget of every comparison this process runs from now on (the App's setting)."""
    with _guard:
        _settings["seconds"] = seconds
        pool = _pools.pop(os.getpid(), None)
    if pool is not None:
        pool.close()


def shared() -> Pool:
    """This process's pool (a forked child builds its own: pipes do not survive a fork)."""
    with _guard:
        pool = _pools.get(os.getpid())
        if pool is None:
            pool = _pools[os.getpid()] = Pool(
                seconds=_settings.get("seconds", limits.FILE_BUDGET_SECONDS))
        return pool


def check(old: Source, new: Source, **options) -> Report:
    """rules.check, budgeted, in this process's shared pool."""
    return shared().check(old, new, **options)


__all__ = ["OverBudget", "Pool", "check", "configure", "shared", "SchemaError"]
