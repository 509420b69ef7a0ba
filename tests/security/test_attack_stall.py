"""Red team: the per-file budget needs a per-pull-request counterpart.

Each file's review may take SCHEMA_REVIEW_FILE_BUDGET seconds (20 by default) and a pull request
may bring `max_files` (300) of them: without a bound per push, one push would hold a queue
worker for up to 100 minutes, and as many hostile pull requests as QUEUE_WORKERS stall every
repository the App serves. SCHEMA_REVIEW_PULL_BUDGET bounds a push; the files past it are not
reviewed (which fails closed). Scaled down here: a 1 s file budget, a 3 s pull budget,
2 workers, 2 pull requests of 15 backtracking files.
"""
from __future__ import annotations

import itertools
import re

import pytest

from tests.harness.flow import completed_run
from tests.harness.server import app_env, gunicorn
from tests.integration.test_review_flow import send
from tests.security.test_budget import REDOS, schema

FILES = 15
PULL_BUDGET = 3
_names = itertools.count()


@pytest.fixture(scope="module")
def app_process(emulator, tmp_path_factory):
    folder = tmp_path_factory.mktemp("app")
    env = app_env(emulator, folder, SCHEMA_REVIEW_FILE_BUDGET="1", SCHEMA_REVIEW_PULL_BUDGET=str(PULL_BUDGET),
                  QUEUE_WORKERS="2")
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
    repo, pull = _pull(github, {"schemas/u.avsc": '{"type": "record", "name": "U", "fields": []}\n'},
                       {"schemas/u.avsc": '{"type": "record", "name": "U", "fields": [{"name": "a", "type": "int"}]}\n'})
    send(github, app_url, "pull_request", github.pull_request_event("opened", pull))
    assert completed_run(github, repo, pull.head_sha, timeout=180).conclusion == "failure"
    for hostile_repo, hostile_pull in hostile:  # the hostile ones fail closed, as they should ...
        run = completed_run(github, hostile_repo, hostile_pull.head_sha, timeout=180)
        assert run.conclusion == "failure"
        summary = run.output["summary"]
        # ... after at most the pull budget's worth of files: the rest were never run.
        timed_out = len(set(re.findall(r"`(schemas/[^`:]+):1` \| `SCHEMA_REVIEW_BUDGET`", summary)))
        skipped = len(set(re.findall(r"`(schemas/[^`]+)` \| JSON Schema \| \w+ \| not reviewed: the pull "
                                     r"request's review time", summary)))
        assert timed_out + skipped >= FILES and 0 < skipped, summary[:2000]
        assert timed_out <= PULL_BUDGET + 1, f"{timed_out} files ran past a {PULL_BUDGET} s pull budget"
