"""One machine (no REDIS_URL): gunicorn's arbiter runs the SQLite queue's jobs in a worker process
of their own (bot/queue/sidecar.py), restarts it when it dies and stops it with the server."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.queue.sidecar import PARENT_VARIABLE, Sidecar
from bot.queue.worker import NICENESS
from tests.harness.flow import completed_run, deliver, open_pull, reviews, runs, settle, wait_for
from tests.harness.server import app_env, gunicorn, local_worker

FILES = r"/pulls/\d+/files$"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from Linux's /proc")


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _alive(pid: int) -> bool:
    try:
        return _stat(pid)[0] != "Z"
    except OSError:
        return False


def test_reviews_run_in_a_lower_priority_process_that_is_restarted_and_stopped_with_the_server(github, tmp_path):
    server, url = gunicorn(app_env(github, tmp_path), tmp_path / "gunicorn.log")
    try:
        first = wait_for(lambda: local_worker(server), what="the local queue worker")
        expected = min(os.nice(0) + NICENESS, 19)
        wait_for(lambda: int(_stat(first)[16]) == expected, what=f"the queue worker at nice {expected}")
        # Killed mid-job: the arbiter starts another, which resumes the job; one verdict, one review.
        repo, pull = open_pull(github)
        held = github.inject("GET", FILES, delay=3.0)
        deliver(github, url, github.pull_request_event("opened", pull))
        wait_for(lambda: held.hits, what="the job's held file listing")
        os.kill(first, signal.SIGKILL)
        second = wait_for(lambda: (pid := local_worker(server)) != first and pid,
                          what="a new queue worker")
        assert completed_run(github, repo, pull.head_sha).conclusion == "failure"
        settle(github)
        assert len(runs(github, repo, pull.head_sha)) == 1 and len(reviews(github, repo, pull)) == 1
    finally:
        server.stop()
    assert not _alive(second), "the queue worker outlived gunicorn"


def test_a_reload_restarts_the_queue_worker_on_the_new_code(github, tmp_path):
    """HUP (a deploy): gunicorn's web workers restart, and so does the queue's worker."""
    server, url = gunicorn(app_env(github, tmp_path), tmp_path / "gunicorn.log")
    try:
        first = wait_for(lambda: local_worker(server), what="the local queue worker")
        os.kill(server.popen.pid, signal.SIGHUP)
        wait_for(lambda: local_worker(server) not in (None, first), what="a new queue worker after HUP")
        repo, pull = open_pull(github)
        deliver(github, url, github.pull_request_event("opened", pull))
        assert completed_run(github, repo, pull.head_sha).conclusion == "failure"
    finally:
        server.stop()


def test_a_worker_that_cannot_even_be_started_is_tried_again():
    """No process, memory or file handle left for a moment: supervision goes on."""
    missing = Sidecar(["/nonexistent/schema-review-worker"]).start()
    try:
        wait_for(lambda: missing.starts >= 2, timeout=60, what="a second try after a failed start")
        assert missing.supervising
    finally:
        missing.stop(timeout=10)


def test_a_worker_that_keeps_dying_is_restarted_and_one_whose_settings_are_unusable_is_not():
    exits: list[int] = []
    dying = Sidecar([sys.executable, "-c", "raise SystemExit(1)"], on_exit=exits.append).start()
    try:
        wait_for(lambda: len(exits) >= 2, timeout=60, what="a restart after the worker died")
        assert dying.supervising
    finally:
        dying.stop(timeout=10)
    assert not dying.supervising
    stopped = len(exits)
    unusable: list[int] = []
    settings = Sidecar([sys.executable, "-c", "raise SystemExit(2)"], on_exit=unusable.append).start()
    wait_for(lambda: not settings.supervising, timeout=60, what="giving up on unusable settings")
    assert len(unusable) == 1 and len(exits) == stopped


def test_the_worker_is_spawned_knowing_its_parent_and_outlives_no_parent(tmp_path):
    # Spawned, not forked with a preexec function: a fork's exec-error pipe, copied by a web
    # worker gunicorn forked at that moment, kept the sidecar waiting until that web worker
    # exited, and a killed queue worker was not restarted (seen in ~1 of 8 kills under load).
    # The worker asks to die with its parent itself, then checks that parent is still there.
    out = tmp_path / "seen"
    code = ("import sys; from bot.queue.sidecar import started_by_live_parent; "
            "open(sys.argv[1], 'w').write(str(started_by_live_parent()))")
    sidecar = Sidecar([sys.executable, "-c", code, str(out)], clean_exit_delay=60).start()
    try:
        wait_for(lambda: out.exists() and out.read_text(), what="the spawned worker's answer")
        assert out.read_text() == "True"
    finally:
        sidecar.stop(timeout=10)
    # Another parent than the one that started it (that one died first): the worker quits.
    orphan = subprocess.run([sys.executable, "-c", code, str(out)], timeout=60,
                            env={**os.environ, PARENT_VARIABLE: str(os.getpid() + 1)})
    assert orphan.returncode == 0 and out.read_text() == "False"
