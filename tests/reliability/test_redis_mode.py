"""REDIS_URL: the web process only records and enqueues; `python -m bot.worker` processes run jobs."""
import os
from pathlib import Path

import pytest

from bot.queue.worker import NICENESS

from tests.harness.flow import comments, completed_run, deliver, open_pull, reviews, runs, settle, wait_for
from tests.harness.server import app_env, gunicorn, redis_server, worker

FILES = r"/pulls/\d+/files$"


def test_two_worker_processes_review_and_a_killed_one_is_recovered(github, redis_url, tmp_path):
    env = app_env(github, tmp_path, REDIS_URL=redis_url)
    web, url = gunicorn(env, tmp_path / "web.log")
    first = worker(env, tmp_path / "worker-1.log")
    try:
        pulls = [open_pull(github) for _ in range(3)]
        for repo, pull in pulls:
            deliver(github, url, github.pull_request_event("opened", pull), delivery_id=f"r-{repo.name}")
        deliver(github, url, github.pull_request_event("opened", pulls[0][1]), delivery_id=f"r-{pulls[0][0].name}")
        for repo, pull in pulls:
            assert completed_run(github, repo, pull.head_sha).conclusion == "failure"
        settle(github)
        for repo, pull in pulls:
            assert len(runs(github, repo, pull.head_sha)) == 1 and len(reviews(github, repo, pull)) == 1
        # A worker killed mid-job: another worker process takes the job over.
        repo, pull = open_pull(github)
        held = github.inject("GET", FILES, delay=3.0)  # the job's first read: it is mid-way while held
        deliver(github, url, github.pull_request_event("opened", pull))
        wait_for(lambda: held.hits, what="the job's held file listing")
        first.kill()
        second = worker(env, tmp_path / "worker-2.log")
        try:
            completed_run(github, repo, pull.head_sha)
            settle(github)
        finally:
            second.stop()
        assert len(runs(github, repo, pull.head_sha)) == 1
        assert len(reviews(github, repo, pull)) == 1 and len(comments(github, repo, pull)) == 1
    finally:
        first.stop() if first.popen.poll() is None else None
        web.stop()


def _nice(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the nice value from Linux's /proc")
def test_a_worker_process_runs_reviews_at_a_lower_priority_than_the_acks(github, redis_url, tmp_path):
    """On a machine that also runs gunicorn, the acks get a core before the reviews do."""
    process = worker(app_env(github, tmp_path, REDIS_URL=redis_url), tmp_path / "worker.log")
    try:
        expected = min(os.nice(0) + NICENESS, 19)
        wait_for(lambda: _nice(process.popen.pid) == expected, what=f"the worker at nice {expected}")
    finally:
        process.stop()


def test_readyz_fails_when_redis_is_gone(github, tmp_path):
    process, redis = redis_server(tmp_path)
    web, url = gunicorn(app_env(github, tmp_path, REDIS_URL=redis), tmp_path / "web.log")
    try:
        import requests
        assert requests.get(url + "/readyz", timeout=5).status_code == 200
        process.kill()
        answer = requests.get(url + "/readyz", timeout=10)
        assert answer.status_code == 503 and answer.json()["queue"] == "unreachable"
        assert requests.get(url + "/healthz", timeout=5).status_code == 200
    finally:
        web.stop()
