"""A GitHub emulator and the App under gunicorn (embedded SQLite queue) per test module."""
from __future__ import annotations

import pytest

from tests.harness.fixtures import app_process, emulator, github  # noqa: F401 (fixtures)
from tests.harness.server import redis_server


@pytest.fixture(scope="module")
def app_url(app_process):  # noqa: F811
    return app_process[1]


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """A throwaway Redis server for the module's tests (REDIS_URL mode)."""
    process, url = redis_server(tmp_path_factory.mktemp("redis"))
    yield url
    process.stop()
