"""Module-scoped fixtures: one emulator and one gunicorn App per test module, checked per test."""
from __future__ import annotations

import pytest

from tests.github_emulator import GitHubEmulator
from tests.github_emulator.fixtures import assert_clean

from .server import app_env, gunicorn


@pytest.fixture(scope="module")
def emulator(tmp_path_factory):
    with GitHubEmulator(tmp_path_factory.mktemp("github")) as github:
        yield github


@pytest.fixture(scope="module")
def app_process(emulator, tmp_path_factory):
    """(process, url) of gunicorn serving app:app, configured through the environment."""
    folder = tmp_path_factory.mktemp("app")
    process, url = gunicorn(app_env(emulator, folder), folder / "gunicorn.log")
    yield process, url
    process.stop()


@pytest.fixture
def github(emulator):
    """The shared emulator, its faults cleared and its requests checked after each test."""
    emulator.clear_calls()
    emulator.clear_faults()
    yield emulator
    emulator.clear_faults()
    assert_clean(emulator)
