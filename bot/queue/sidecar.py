"""One machine (no REDIS_URL): the SQLite queue's jobs run in one `python -m bot.worker --local`
process that gunicorn's arbiter starts, restarts when it dies and stops at exit.

Not in the web workers' threads: a review's Python work (reading GitHub's answers, rendering)
would hold the GIL the acks need, and at 200 deliveries a second that made acks wait hundreds of
milliseconds (bench/load.py). As a process of its own it runs at a lower priority too.
"""
from __future__ import annotations

import ctypes
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Mapping

from bot.queue.runtime import Runtime
from bot.config.settings import SettingsError, unregistered

log = logging.getLogger("schema_review.queue")

ARGV = [sys.executable, "-m", "bot.worker", "--local"]
SETTINGS_PROBLEM = 2  # bot.worker's exit status for settings it cannot use: restarting cannot help
RESTART_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0)  # after each death in a row; a worker up a minute resets it
STEADY_SECONDS = 60.0
SPAWN_FAILED = -1
CLEAN_EXITS = (0, -signal.SIGTERM, -signal.SIGINT)
# The directory `bot` is imported from: the worker finds it whatever gunicorn's working directory
# or --pythonpath (it keeps that working directory, where `.env` and QUEUE_PATH are).
PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent.parent)
PR_SET_PDEATHSIG = 1
# The arbiter's pid, for the worker to tell whether it outlived it before it asked to die with it.
PARENT_VARIABLE = "SCHEMA_REVIEW_SIDECAR_PARENT"


def started_by_live_parent() -> bool:
    """In the sidecar's worker: ask to die with the thread that started it, then whether that
    parent still lives (it may have died before the request; outside a sidecar: True)."""
    expected = os.environ.get(PARENT_VARIABLE)
    if not expected:
        return True
    die_with_parent()
    return str(os.getppid()) == expected


def die_with_parent() -> None:
    """This process gets SIGTERM when the thread that started it ends, however it ends (Linux;
    elsewhere a no-op, and the arbiter's exit hook still stops the worker). The queue worker
    calls it itself (bot/queue/worker.py); the tests' harness passes it as a preexec function."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


class Sidecar:
    """The worker process and the thread that keeps it running."""

    def __init__(self, argv: list[str] | None = None, *, on_exit=None, clean_exit_delay: float = 60.0):
        self._argv = argv or ARGV
        self._on_exit = on_exit or (lambda pid: None)
        # A worker that stopped cleanly (SIGTERM or SIGINT) was most likely stopped with the whole
        # server (a signal to its process group); gunicorn calls stop() only after its own web
        # workers finished, so wait longer than that before taking it for a lost worker.
        self._clean_exit_delay = clean_exit_delay
        self._stopping = threading.Event()
        self._process: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._supervise, name="queue-sidecar", daemon=True)
        self.starts = 0  # attempts to start a worker, failed ones included

    def start(self) -> "Sidecar":
        self._thread.start()
        return self

    @property
    def supervising(self) -> bool:
        """False once it gave up (unusable settings) or was stopped."""
        return self._thread.is_alive()

    def _supervise(self) -> None:
        deaths = 0
        while not self._stopping.is_set():
            started = time.monotonic()
            code = self._run_once()
            if code is None or self._stopping.is_set():
                return
            if code == SETTINGS_PROBLEM:
                log.error("queue worker cannot start (its settings); not restarted", extra={"status": code})
                return
            deaths = 0 if time.monotonic() - started > STEADY_SECONDS else deaths + 1
            delay = RESTART_DELAYS[min(deaths, len(RESTART_DELAYS)) - 1] if deaths else 0.0
            if code in CLEAN_EXITS:
                delay = max(delay, self._clean_exit_delay)
            log.error("queue worker exited; restarting", extra={"status": code, "delay_s": delay})
            self._stopping.wait(delay)

    def _run_once(self) -> int | None:
        """Start a worker and wait for it: its exit status (SPAWN_FAILED when it could not even
        start: no process, memory or file handles left), or None when stopping."""
        with self._lock:
            if self._stopping.is_set():
                return None
            self.starts += 1
            try:
                # Started from this thread, which lives as long as it supervises: the child's
                # parent-death signal follows the thread, not the process. The App's own worker,
                # not a parser of repository content: it needs the App's settings and secrets to
                # talk to GitHub, so it gets this environment whole (and where `bot` is).
                # Spawned (posix_spawn: no preexec_fn, close_fds=False), never forked: a fork
                # reports a failed exec through a pipe the parent reads to its end, and a web
                # worker gunicorn forked meanwhile kept a copy of it, so this thread waited on
                # that pipe until the web worker exited and a dead queue worker was never
                # restarted. Python opens its files non-inheritable (PEP 446): the worker gets
                # the standard streams and what gunicorn made inheritable, nothing else.
                self._process = subprocess.Popen(self._argv, env=_environment(), close_fds=False)
            except OSError as error:
                log.error("queue worker could not be started", extra={"error": type(error).__name__})
                return SPAWN_FAILED
        code = self._process.wait()
        self._on_exit(self._process.pid)
        return code

    def stop(self, *, timeout: float) -> None:
        """SIGTERM (running jobs finish; what does not is resumed after restart), then SIGKILL."""
        with self._lock:
            self._stopping.set()
            process = self._process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._thread.join(timeout=timeout)


def _environment() -> dict:
    env = dict(os.environ)
    env[PARENT_VARIABLE] = str(os.getpid())
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [PACKAGE_ROOT, env.get("PYTHONPATH", "")]))
    return env


def start_if_local(environ: Mapping[str, str] | None = None, **options) -> Sidecar | None:
    """A running sidecar when this server's queue is the local SQLite file, else None (Redis:
    `python -m bot.worker` is the operator's to run; registration mode has no queue)."""
    env = os.environ if environ is None else environ
    if unregistered(env):
        return None
    try:
        if not Runtime.from_environ(env).embedded:
            return None
    except SettingsError:
        return None  # the App itself reports every problem when it loads
    return Sidecar(**options).start()
