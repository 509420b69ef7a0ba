"""`schema-review review` on a real git repository: a reviewed schema using a changed file the
config does not review fails as not reviewed (tests/unreviewed_uses.py)."""
import json
from datetime import datetime, timezone

import pytest

from bot.local.main import main
from tests.localgit import make_repo
from tests.unreviewed_uses import CASES

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_schema_using_a_changed_unreviewed_file_is_not_reviewed(tmp_path, capsys, case):
    base, head, failing = CASES[case]
    repo = make_repo(tmp_path / "repo", base, head)
    code = main(["review", "--repo", str(repo), "--base", "main", "--head", "feature",
                 "--output", "json"], now=NOW)
    out = json.loads(capsys.readouterr().out)
    unreviewed = sorted(f["path"] for f in out["files"] if not f["reviewed"])
    assert unreviewed == sorted(failing), out
    assert (code, out["conclusion"]) == ((1, "failure") if failing else (0, "success")), out
    for file in out["files"]:
        if not file["reviewed"]:
            assert "which this pull request changes and the config's `paths` do not review" \
                in json.dumps(file), file
