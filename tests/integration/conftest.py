"""The real App under gunicorn, talking to the local GitHub emulator over loopback."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest
import requests

from tests.github_emulator import GitHubEmulator
from tests.github_emulator.fixtures import assert_clean
from tests.shared import REPO

SECRET = "integration-secret"
STARTUP_SECONDS = 20


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def emulator(tmp_path_factory):
    with GitHubEmulator(tmp_path_factory.mktemp("github")) as github:
        yield github


@pytest.fixture(scope="module")
def app_url(emulator, tmp_path_factory):
    """gunicorn serving app:app from the Procfile's command, configured through the environment."""
    port = _free_port()
    log_path = tmp_path_factory.mktemp("app") / "gunicorn.log"
    log = open(log_path, "wb")
    env = {**os.environ, "GITHUB_APP_ID": str(emulator.app_id), "GITHUB_PRIVATE_KEY": emulator.private_key,
           "GITHUB_WEBHOOK_SECRET": SECRET, "GITHUB_API_URL": emulator.url, "PORT": str(port),
           # Each gunicorn gets its own queue file: parallel test processes must not share jobs.
           "QUEUE_PATH": str(tmp_path_factory.mktemp("queue") / "queue.db"),
           "SCHEMA_REVIEW_RETRY_BACKOFF": "0.05", "SCHEMA_REVIEW_JOB_RETRY_DELAY": "0.2"}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "app:app", "--bind", f"127.0.0.1:{port}",
                               "--workers", "1", "--threads", "4"], cwd=REPO, env=env,
                              stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline and server.poll() is None:
        try:
            if requests.get(url + "/healthz", timeout=1).ok:
                break
        except requests.ConnectionError:
            time.sleep(0.1)
    else:
        server.kill()
        pytest.fail("gunicorn did not start: " + log_path.read_text()[-2000:])
    yield url
    server.terminate()
    server.wait(timeout=10)
    log.close()
    # A job that raised is logged with its delivery id; no test may leave one behind.
    failures = [line for line in log_path.read_text().splitlines() if '"level": "error"' in line]
    assert failures == [], "\n".join(failures[-5:])


@pytest.fixture
def github(emulator):
    """The shared emulator, checked after each test for requests GitHub would not accept."""
    emulator.clear_calls()
    yield emulator
    assert_clean(emulator)


def wait_for_check(github, repo, sha, *, timeout=30.0):
    """The completed schema-review check run of a commit (the App works in the background)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        runs = [r for r in github.check_runs(repo.owner, repo.name, sha) if r.name == "schema-review"]
        if runs and runs[0].status == "completed":
            return runs
        time.sleep(0.05)
    raise AssertionError(f"no completed schema-review check on {sha[:7]} within {timeout}s")


def settle(github, *, quiet=0.3, timeout=30.0):
    """Wait until the App stops calling GitHub: the review is posted after the check completes."""
    deadline = time.monotonic() + timeout
    seen, since = len(github.calls), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.05)
        if len(github.calls) != seen:
            seen, since = len(github.calls), time.monotonic()
        elif time.monotonic() - since >= quiet:
            return
    raise AssertionError("the App kept calling GitHub")
