"""Without ../shared the tests that read it are skipped with one counted reason; in CI they fail."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.shared import ABSENT, REPO

# A miniature suite that reads ../shared three ways: from a module-scoped fixture (as the GitHub
# emulator does), inside a test, and while the module is imported (conformance parameters).
CONFTEST = """
import tests.shared as shared
shared.SHARED = shared.SHARED.parent / "no-such-shared-folder"
from tests.conftest import pytest_runtest_makereport  # noqa: F401  (the hook under test)
"""
TEST_READS = """
import pytest
import tests.shared as shared

@pytest.fixture(scope="module")
def spec():
    return shared.shared_path("github", "api.json")

def test_uses_the_fixture(spec):
    pass

def test_uses_it_too(spec):
    pass

def test_reads_an_example():
    shared.webhook_example("ping")

def test_needs_nothing():
    assert 1 + 1 == 2
"""
TEST_PARAMETERS = """
import pytest
import tests.shared as shared

DATA = shared.module_data("conformance", "cases.json")

@pytest.mark.parametrize("case", [1, 2])
def test_case(case):
    pass
"""


def run_suite(folder, *, ci: str | None, options: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    (folder / "conftest.py").write_text(CONFTEST)
    (folder / "test_reads.py").write_text(TEST_READS)
    (folder / "test_parameters.py").write_text(TEST_PARAMETERS)
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
    env["PYTHONPATH"] = str(REPO)
    if ci is not None:
        env["CI"] = ci
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                           "-p", "no:xdist", *options, str(folder)], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("ci", [None, "false"])
def test_absent_shared_data_skips_with_one_counted_reason(tmp_path, ci):
    done = run_suite(tmp_path, ci=ci)
    assert done.returncode == 0, done.stdout + done.stderr
    skipped = re.findall(r"^SKIPPED \[(\d+)\] (\S+): (.*)$", done.stdout, re.MULTILINE)
    # Three tests plus the parametrized module (skipped whole, as it cannot even be collected).
    assert [(count, reason) for count, _where, reason in skipped] == [("4", ABSENT)], done.stdout
    assert skipped[0][1].endswith("shared.py:" + skipped[0][1].rsplit(":", 1)[1])
    assert re.search(r"^1 passed, 4 skipped", done.stdout, re.MULTILINE), done.stdout


def test_in_ci_absent_shared_data_fails_every_test_that_needs_it(tmp_path):
    done = run_suite(tmp_path, ci="true", options=("--continue-on-collection-errors",))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "skipped" not in done.stdout
    # Two fixture errors, one failed test, one module that could not be collected.
    assert re.search(r"^1 failed, 1 passed, 3 errors", done.stdout, re.MULTILINE), done.stdout
    assert "CI must lay ../shared beside the clone" in done.stdout
