"""Issue 18 (round 3), through the real App and the emulator: a pull request changes only a
file the config does not review that a reviewed schema uses (tests/unreviewed_uses.py). The
App said "No schema files changed" (success); the reviewed users must fail as not reviewed."""
from __future__ import annotations

import pytest

from tests.integration.test_review_flow import open_pull, review_of
from tests.unreviewed_uses import CASES


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_schema_using_a_changed_unreviewed_file_is_not_reviewed(github, app_url, case):
    base, head, failing = CASES[case]
    repo, pull = open_pull(github, base, head)
    run = review_of(github, app_url, repo, pull)
    text = run.output["summary"] + (run.output.get("text") or "")
    if not failing:
        assert run.conclusion == "success", run.output
        return
    assert run.conclusion == "failure", f"{case}: {run.output['title']}"
    assert "not reviewed" in run.output["title"], run.output
    for path in failing:
        assert path in text, (path, text)
    assert "do not review" in text, text
