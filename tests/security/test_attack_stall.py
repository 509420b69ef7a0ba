"""Red team: the per-file budget has no per-pull-request counterpart.

Each file's review may take SCHEMA_REVIEW_FILE_BUDGET seconds (20 by default) and a pull request
may bring `max_files` (300) of them: one push holds a queue worker for up to 100 minutes, and
a push does not cancel it (no GitHub read happens between files, so nothing checks for
Superseded). As many hostile pull requests as QUEUE_WORKERS (4) stall every repository the App
serves. Scaled down here: a 1 s budget, 2 workers, 2 pull requests of 15 backtracking files.
"""
from __future__ import annotations

import itertools
import time

import pytest

from tests.harness.flow import completed_run
from tests.harness.server import app_env, gunicorn
from tests.integration.test_review_flow import send
from tests.security.test_budget import REDOS, schema

FILES = 15
_names = itertools.count()


@pytest.fixture(scope="module")
def app_process(emulator, tmp_path_factory):
    folder = tmp_path_factory.mktemp("app")
    env = app_env(emulator, folder, SCHEMA_REVIEW_FILE_BUDGET="1", QUEUE_WORKERS="2")
    process, url = gunicorn(env, folder / "gunicorn.log")
    yield process, url
    process.stop()


def _pull(github, base: dict, head: dict):
    repo = github.create_repo("acme", f"stall-{next(_names)}", base)
    repo.commit("feature", head, "Change", base="main")
    return repo, github.open_pull(repo.owner, repo.name, "feature", "main", "Change")


def test_hostile_pull_requests_do_not_delay_other_repositories(github, app_url):
    hostile = []
    for _ in range(2):
        base, head = {}, {}
        for index in range(FILES):
            pattern, name = REDOS[index % len(REDOS)]
            path = f"schemas/s{index:02}.schema.json"
            base[path], head[path] = schema(pattern, ["id"]), schema(pattern, ["id", name])
        hostile.append(_pull(github, base, head))
    for repo, pull in hostile:
        send(github, app_url, "pull_request", github.pull_request_event("opened", pull))
    time.sleep(2)  # both hostile reviews hold a worker
    repo, pull = _pull(github, {"schemas/u.avsc": '{"type": "record", "name": "U", "fields": []}\n'},
                       {"schemas/u.avsc": '{"type": "record", "name": "U", "fields": [{"name": "a", "type": "int"}]}\n'})
    started = time.monotonic()
    send(github, app_url, "pull_request", github.pull_request_event("opened", pull))
    run = completed_run(github, repo, pull.head_sha, timeout=180)
    waited = time.monotonic() - started
    for hostile_repo, hostile_pull in hostile:  # the hostile ones fail closed, as they should
        assert completed_run(github, hostile_repo, hostile_pull.head_sha, timeout=180).conclusion == "failure"
    assert run.conclusion == "failure"
    assert waited < 10, f"an unrelated repository's review waited {waited:.0f}s behind two pull requests"
