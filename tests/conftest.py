"""Tests that need ../shared are skipped, with one reason, when it is absent (never in CI)."""
from __future__ import annotations

import pytest

from tests.shared import ABSENT, SKIP_LOCATION, SharedDataMissing, in_ci


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.excinfo is not None and call.excinfo.errisinstance(SharedDataMissing) and not in_ci():
        # A fixture (the GitHub emulator loads GitHub's OpenAPI subset) or the test read ../shared.
        report.outcome = "skipped"
        report.longrepr = (*SKIP_LOCATION, f"Skipped: {ABSENT}")
    return report
