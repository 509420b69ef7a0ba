"""The real App under gunicorn, talking to the local GitHub emulator over loopback."""
from __future__ import annotations

import pytest

from tests.github_emulator import GitHubEmulator
from tests.github_emulator.fixtures import assert_clean
from tests.harness.flow import completed_run, settle  # noqa: F401 (re-exported for the tests)
from tests.harness.server import SECRET, app_env, gunicorn  # noqa: F401


@pytest.fixture(scope="module")
def emulator(tmp_path_factory):
    with GitHubEmulator(tmp_path_factory.mktemp("github")) as github:
        yield github


@pytest.fixture(scope="module")
def app_url(emulator, tmp_path_factory):
    """gunicorn serving app:app, configured through the environment like production."""
    folder = tmp_path_factory.mktemp("app")
    process, url = gunicorn(app_env(emulator, folder), folder / "gunicorn.log")
    yield url
    process.stop()
    # A job that raised is logged with its delivery id; no test may leave one behind.
    failures = [line for line in process.log.read_text().splitlines() if '"level": "error"' in line]
    assert failures == [], "\n".join(failures[-5:])


@pytest.fixture
def github(emulator):
    """The shared emulator, checked after each test for requests GitHub would not accept."""
    emulator.clear_calls()
    yield emulator
    assert_clean(emulator)


def wait_for_check(github, repo, sha, *, timeout=30.0):
    """The completed schema-review check run of a commit (the App works in the background)."""
    completed_run(github, repo, sha, timeout=timeout)
    return [r for r in github.check_runs(repo.owner, repo.name, sha) if r.name == "schema-review"]
