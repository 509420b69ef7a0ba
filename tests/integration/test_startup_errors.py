"""`gunicorn app:app` and `python -m bot.worker` with bad settings: one message naming every bad
setting, never a value, no traceback, and an exit instead of a restart loop."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.harness.server import free_port
from tests.shared import REPO

# gunicorn's arbiter status for "App failed to load": it stops instead of booting workers again.
APP_LOAD_ERROR = 4
SECRET_VALUES = {"GITHUB_APP_ID": "abc-hunter5", "GITHUB_PRIVATE_KEY": "not-a-key-hunter6",
                 "GITHUB_API_URL": "ftp://hunter7.example", "QUEUE_WORKERS": "many-hunter8"}
EXPECTED = ["GITHUB_APP_ID must be a whole number", "GITHUB_PRIVATE_KEY does not hold a PEM private key",
            "GITHUB_WEBHOOK_SECRET is missing", "GITHUB_API_URL must be an http(s) URL",
            "QUEUE_WORKERS must be a number"]


def run(args: list[str], env: dict) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "QUEUE_", "REDIS_"))}
    return subprocess.run(args, cwd=REPO, env={**base, **env}, capture_output=True, text=True, timeout=180)


def assert_one_message(output: str) -> None:
    assert "Traceback" not in output, output
    assert output.count("schema-review cannot start: 5 settings are missing or malformed") == 1, output
    for expected in EXPECTED:
        assert expected in output, output
    for value in SECRET_VALUES.values():
        assert value not in output


def test_gunicorn_names_every_bad_setting_and_exits(tmp_path):
    done = run([sys.executable, "-m", "gunicorn", "app:app", "--bind", f"127.0.0.1:{free_port()}",
                "--workers", "1"], {**SECRET_VALUES, "QUEUE_PATH": str(tmp_path / "q.db")})
    assert done.returncode == APP_LOAD_ERROR, done.stderr
    assert_one_message(done.stdout + done.stderr)
    assert "App failed to load" in done.stderr


def test_worker_names_every_bad_setting_and_exits():
    done = run([sys.executable, "-m", "bot.worker"], {**SECRET_VALUES, "REDIS_URL": "redis://127.0.0.1:1/0"})
    assert done.returncode == 2, done.stderr
    assert_one_message(done.stdout + done.stderr)


def test_gunicorn_conf_names_a_bad_thread_count():
    # (A non-numeric WEB_CONCURRENCY fails inside gunicorn itself, before any file of ours runs.)
    done = run([sys.executable, "-m", "gunicorn", "app:app", "--bind", f"127.0.0.1:{free_port()}"],
               {"WEB_THREADS": "many-hunter9"})
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip() == "schema-review cannot start: WEB_THREADS must be a whole number above 0"


@pytest.mark.parametrize("port", ["99999", "0", "abc", "80 80"])
def test_gunicorn_conf_names_a_bad_port(port):
    # gunicorn bound $PORT before the App's own check ran: a traceback (99999) or gunicorn's
    # own message, and none of the App's other problems named.
    done = run([sys.executable, "-m", "gunicorn", "app:app"], {"PORT": port})
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip() == "schema-review cannot start: PORT must be a port number from 1 to 65535"
