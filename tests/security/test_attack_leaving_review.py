"""Issue 18, item 1, through the real App and the emulator: a pull request takes a type out of
the reviewed set (a rename to `.bak`, a move under `exclude` or outside `paths`, a deletion) and
adds it elsewhere broken, or does so with a type of weak identity (tests/leaving_review.py).
The App concluded `success` ("1 warning: the schema file was removed"); the gate must fail."""
from __future__ import annotations

import pytest

from bot.config.config import SCHEMA_NOT_REVIEWED

from tests.integration.test_review_flow import open_pull, review_of
from tests.leaving_review import CASES, base_files


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_type_cannot_leave_the_review_and_come_back_broken(github, app_url, case):
    _config, _base, head, rule = CASES[case]
    repo, pull = open_pull(github, base_files(case), head)
    statuses = {f.filename: f.status for f in pull.files()}
    assert [statuses[p] for p in statuses if "/v2/" in p] == ["added"], statuses  # no rename to follow
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", f"{case}: {run.conclusion!r}: {run.output['title']}"
    if rule == SCHEMA_NOT_REVIEWED:  # listed with its problem, in the title's count
        assert "not reviewed" in run.output["title"], run.output
        assert "not found alike" in run.output["summary"], run.output
    else:
        assert rule in run.output["summary"] + (run.output.get("text") or ""), run.output
