"""Attacks on the merge gate: the real App under gunicorn against the local GitHub emulator."""
from __future__ import annotations

import pytest

from tests.harness.fixtures import app_process, emulator, github  # noqa: F401 (fixtures)
from tests.harness.flow import completed_run, settle  # noqa: F401 (re-exported for the tests)
from tests.harness.server import SECRET  # noqa: F401


@pytest.fixture(scope="module")
def app_url(app_process):  # noqa: F811
    return app_process[1]
