"""`schema-review review` (the Action, the pre-commit hook) on a real git repository: a type
that leaves the reviewed set and comes back broken fails (tests/leaving_review.py)."""
import json
from datetime import datetime, timezone

import pytest

from bot.local.main import main
from bot.config.config import SCHEMA_NOT_REVIEWED as NOT_REVIEWED
from tests.leaving_review import CASES, base_files
from tests.localgit import make_repo

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_type_cannot_leave_the_review_and_come_back_broken(tmp_path, capsys, case):
    _config, _base, head, rule = CASES[case]
    repo = make_repo(tmp_path / "repo", base_files(case), head)
    code = main(["review", "--repo", str(repo), "--base", "main", "--head", "feature",
                 "--output", "json"], now=NOW)
    out = json.loads(capsys.readouterr().out)
    assert (code, out["conclusion"]) == (1, "failure"), out
    # An unreviewed file is listed with its problem (its finding is the check run's, not a line's).
    errors = {f["rule"] for f in out["findings"] if f["severity"] == "error"}
    errors |= {NOT_REVIEWED for f in out["files"] if not f["reviewed"]}
    assert rule in errors, out
