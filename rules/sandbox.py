"""The one way to start a child process on untrusted content: fixed argv, minimal env, hard limits.

A trust border (SECURITY.md, "The borders"): every child process of the engine and the App starts here.
"""
from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from typing import Sequence

# Everything the child's environment holds. Nothing is copied from os.environ: the App's secrets
# (webhook secret, private key, tokens) live there, and a child that parses hostile input must
# never be able to read or echo them.
ENVIRONMENT = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
UNLIMITED = resource.RLIM_INFINITY


@dataclass(frozen=True, kw_only=True)
class Limits:
    """Hard limits of one child. None leaves a limit as the parent has it."""

    wall_seconds: float | None = 20.0  # killed (with its process group) after this; None: caller's job
    cpu_seconds: int | None = 20  # RLIMIT_CPU: SIGXCPU, then SIGKILL a second later
    memory_bytes: int | None = 1 << 30  # RLIMIT_AS
    file_bytes: int | None = 64 << 20  # RLIMIT_FSIZE: no file it writes (its output too) grows past this
    processes: int | None = 0  # RLIMIT_NPROC: 0 forbids fork/exec of anything (ignored for root)
    output_bytes: int = 64 << 10  # of its stderr, what the caller gets to see
    niceness: int = 0  # added to the child's nice value: batch work that yields the CPU to others


@dataclass(frozen=True)
class Outcome:
    code: int  # exit status; negative: killed by that signal
    timed_out: bool
    output: bytes  # the first Limits.output_bytes of what it wrote to stderr

    @property
    def cpu_exceeded(self) -> bool:
        return self.code == -signal.SIGXCPU

    @property
    def file_too_large(self) -> bool:
        return self.code == -signal.SIGXFSZ


def python(code: str, *args: str, site: bool = True) -> list[str]:
    """argv of this interpreter in isolated mode (no PYTHON* variables, user site or cwd on
    sys.path) running `code`; sys.argv[0] is "-c" in the child.

    The child imports from this process's sys.path (the operator's installation, never
    repository text), passed as an argument the prelude takes off again: `-I` would otherwise
    lose what PYTHONPATH or a `.pth` added, and the child could not find the engine.
    site=False also skips the `site` module (-S), ~5-10 ms of start-up: enough for a child
    that imports only regular installs (protoc), not for one that needs what a `.pth` runs."""
    paths = os.pathsep.join(path for path in sys.path if path)
    prelude = f"import sys; sys.path[:0] = sys.argv.pop(1).split({os.pathsep!r})\n"
    return [sys.executable, "-I", *(() if site else ("-S",)), "-c", prelude + code, paths, *args]


def _capped(kind: int, soft: int, hard: int) -> tuple[int, int]:
    """Limits never above what this process has (lowering is allowed, raising is not)."""
    _, ceiling = resource.getrlimit(kind)
    if ceiling != UNLIMITED:
        soft, hard = min(soft, ceiling), min(hard, ceiling)
    return soft, hard


def _limiter(limits: Limits):
    """The preexec function: only setrlimit (and nice) calls, everything computed before the fork."""
    plan, niceness = [], limits.niceness
    if limits.cpu_seconds is not None:
        plan.append((resource.RLIMIT_CPU,
                     _capped(resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1)))
    for kind, value in ((resource.RLIMIT_AS, limits.memory_bytes),
                        (resource.RLIMIT_FSIZE, limits.file_bytes),
                        (resource.RLIMIT_NPROC, limits.processes),
                        (resource.RLIMIT_CORE, 0)):
        if value is not None:
            plan.append((kind, _capped(kind, value, value)))

    def apply() -> None:
        for kind, pair in plan:
            resource.setrlimit(kind, pair)
        if niceness:
            os.nice(niceness)
    return apply


class Child:
    """A started child in its own session (so killing it kills everything it started)."""

    def __init__(self, argv: Sequence[str], *, cwd: str | None, limits: Limits, pipes: bool):
        self.limits = limits
        self._output = tempfile.TemporaryFile(prefix="schema-review-child-")
        self._timed_out = threading.Event()
        self._closed = False
        self.process = subprocess.Popen(
            list(argv), cwd=cwd, env=dict(ENVIRONMENT), close_fds=True, start_new_session=True,
            stdin=subprocess.PIPE if pipes else subprocess.DEVNULL,
            stdout=subprocess.PIPE if pipes else subprocess.DEVNULL, stderr=self._output,
            preexec_fn=_limiter(limits))
        self._timer = None
        if limits.wall_seconds is not None:
            # A timer kills a run that overstays; waiting itself then blocks in waitpid instead
            # of polling (Popen.wait(timeout) sleeps in steps, up to 50 ms per run).
            self._timer = threading.Timer(limits.wall_seconds, self._expire)
            self._timer.daemon = True
            self._timer.start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def _expire(self) -> None:
        self._timed_out.set()
        self.kill()

    def kill(self) -> None:
        """SIGKILL the child's whole process group (it may have started others)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def cpu_used(self) -> float:
        """CPU seconds (user + system) the child has used so far."""
        try:
            with open(f"/proc/{self.process.pid}/stat", encoding="ascii") as handle:
                fields = handle.read().rpartition(")")[2].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return 0.0

    def allow_cpu(self, seconds: float) -> None:
        """From outside: let a long-lived child use `seconds` more CPU, then SIGXCPU."""
        soft = int(self.cpu_used() + seconds) + 1
        try:
            resource.prlimit(self.process.pid, resource.RLIMIT_CPU, (soft, UNLIMITED))
        except (ProcessLookupError, PermissionError, ValueError):
            pass  # it is gone, or the hard limit was lowered: the wall clock still applies

    def wait(self) -> Outcome:
        """Wait (at most the wall-clock limit) and return the outcome; the child is reaped."""
        code = self.process.wait()
        if self._timer is not None:
            self._timer.cancel()
        self.kill()  # anything it left running in its group goes too
        return Outcome(code=code, timed_out=self._timed_out.is_set(), output=self.output())

    def output(self) -> bytes:
        self._output.seek(0)
        return self._output.read(self.limits.output_bytes)

    def close(self) -> None:
        """Kill (if still running), reap, and drop the captured output."""
        if self._closed:
            return
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        self.kill()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        self.process.wait()
        self._output.close()


def start(argv: Sequence[str], *, cwd: str | None = None, limits: Limits = Limits(),
          pipes: bool = False) -> Child:
    """Start `argv` (a fixed list: never a shell, never text from a repository) under `limits`.

    pipes=False: stdin and stdout closed, stderr captured (a one-shot tool such as protoc).
    pipes=True: stdin and stdout are pipes the caller speaks over (a long-lived worker).
    """
    return Child(argv, cwd=cwd, limits=limits, pipes=pipes)


def run(argv: Sequence[str], *, cwd: str | None = None, limits: Limits = Limits()) -> Outcome:
    """Start, wait, reap."""
    child = start(argv, cwd=cwd, limits=limits)
    try:
        return child.wait()
    finally:
        child.close()
