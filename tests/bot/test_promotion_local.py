"""Staged promotion end to end: `review --repo` on a git repository with backdated history."""
import json
from datetime import datetime, timedelta, timezone

from bot.local.main import main
from tests.bot.test_promotion import version
from tests.localgit import commit_at, git
from rules import Format

NOW = datetime(2026, 12, 2, 12, tzinfo=timezone.utc)
PATH = "schemas/user.schema.json"


def promote(tmp_path, capsys, days_optional: int):
    """main: the file without `email`, then with it optional N days ago; feature: required."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    fmt = Format.JSONSCHEMA
    commit_at(repo, NOW - timedelta(days=days_optional + 30), {PATH: version(fmt, "absent")}, "User")
    commit_at(repo, NOW - timedelta(days=days_optional), {PATH: version(fmt, "optional")}, "email")
    git(repo, "checkout", "-q", "-b", "feature")
    commit_at(repo, NOW - timedelta(days=1), {PATH: version(fmt, "required")}, "require email")
    code = main(["review", "--repo", str(repo), "--base", "main", "--head", "feature",
                 "--output", "json"], now=NOW)
    data = json.loads(capsys.readouterr().out)
    [finding] = [f for f in data["findings"] if f["rule"] == "JSONSCHEMA_PROPERTY_MADE_REQUIRED"]
    return code, data, finding


def test_promoting_a_field_optional_for_100_days_passes_with_a_warning(tmp_path, capsys):
    code, data, finding = promote(tmp_path, capsys, 100)
    assert (code, data["conclusion"], finding["severity"]) == (0, "success", "warning")
    assert "Optional since 2026-08-24 (commit date), 100 days; producers that still omit it will now fail." \
        in finding["message"]


def test_promoting_a_field_optional_for_10_days_fails_naming_the_date(tmp_path, capsys):
    code, data, finding = promote(tmp_path, capsys, 10)
    assert (code, data["conclusion"], finding["severity"]) == (1, "failure", "error")
    assert "may become required from 2027-02-20" in finding["message"]


def test_a_shallow_clone_dates_the_field_no_earlier_than_its_oldest_commit(tmp_path, capsys):
    """CI checks out one or two commits: the field may be older than the oldest one, so the
    date is said to be the latest possible, and the window is judged from it."""
    promote(tmp_path, capsys, 10)  # builds tmp_path/repo; its verdict is the test above's
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "2", "--branch", "feature", f"file://{tmp_path / 'repo'}",
        str(clone))
    assert git(clone, "rev-parse", "--is-shallow-repository") == "true"
    # HEAD~1, the clone's oldest commit, is main's tip: the field's first optional version.
    code = main(["review", "--repo", str(clone), "--base", "HEAD~1", "--head", "HEAD",
                 "--output", "json"], now=NOW)
    [finding] = [f for f in json.loads(capsys.readouterr().out)["findings"]
                 if f["rule"] == "JSONSCHEMA_PROPERTY_MADE_REQUIRED"]
    assert (code, finding["severity"]) == (1, "error")
    assert "optional since at least 2026-11-22 (commit date), 10 days;" in finding["message"]
