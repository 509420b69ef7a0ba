"""The real App under gunicorn, talking to the local GitHub emulator over loopback."""
from __future__ import annotations

import pytest

from tests.harness.fixtures import app_process, emulator, github  # noqa: F401 (fixtures)
from tests.harness.flow import DEADLINE, completed_run, settle  # noqa: F401 (re-exported for the tests)
from tests.harness.server import SECRET  # noqa: F401


@pytest.fixture(scope="module")
def app_url(app_process):  # noqa: F811
    process, url = app_process
    yield url
    # A job that raised is logged with its delivery id; no test here may leave one behind.
    failures = [line for line in process.log.read_text().splitlines() if '"level": "error"' in line]
    assert failures == [], "\n".join(failures[-5:])


def wait_for_check(github, repo, sha, *, timeout=DEADLINE):  # noqa: F811
    """The completed schema-review check run of a commit (the App works in the background)."""
    completed_run(github, repo, sha, timeout=timeout)
    return [r for r in github.check_runs(repo.owner, repo.name, sha) if r.name == "schema-review"]
