"""A GitHub emulator and the App under gunicorn (embedded SQLite queue) per test module."""
from __future__ import annotations

import pytest

from tests.harness.fixtures import app_process, emulator, github  # noqa: F401 (fixtures)


@pytest.fixture(scope="module")
def app_url(app_process):  # noqa: F811
    return app_process[1]
