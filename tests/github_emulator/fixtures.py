"""pytest fixtures: a started emulator per test that fails the test on any request violation."""
from __future__ import annotations

import pytest

from .emulator import GitHubEmulator

VIOLATIONS = "requests the OpenAPI description does not allow:\n{items}"
EMULATOR_BUGS = "emulator responses that break GitHub's schema:\n{items}"


def assert_clean(emulator: GitHubEmulator) -> None:
    """Fail naming every invalid request the bot sent (and every invalid emulator response)."""
    bad = emulator.violations
    assert bad == [], VIOLATIONS.format(items="\n".join(map(str, bad)))
    wrong = emulator.response_violations
    assert wrong == [], EMULATOR_BUGS.format(items="\n".join(map(str, wrong)))


@pytest.fixture
def github(tmp_path):
    """A running GitHubEmulator; at teardown it is stopped and must have seen no violations."""
    emulator = GitHubEmulator(tmp_path / "github")
    with emulator:
        yield emulator
    assert_clean(emulator)
