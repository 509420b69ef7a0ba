"""`consumers:` locally: `lifecycle` shows who reads each file, and `review` (the CLI, the Action)
says in one line that asking them is the App's."""
import json
from datetime import datetime, timedelta, timezone

import pytest

from bot.local.main import main
from tests.localgit import commit_at, git

NOW = datetime(2026, 12, 2, 12, tzinfo=timezone.utc)
CONFIG = """consumers:
  - paths: ["schemas/**"]
    owners: ["@acme/billing", "@mona"]
    name: "Billing \\u001b[2J"
"""
USER = {"type": "record", "name": "User", "fields": [{"name": "id", "type": "string"},
                                                       {"name": "email", "type": "string"}]}
DEPRECATED = {**USER, "fields": [USER["fields"][0], {**USER["fields"][1], "deprecated": True}]}


@pytest.fixture
def repo(tmp_path):
    """main: the config and a schema; feature: its `email` deprecated."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    commit_at(repo, NOW - timedelta(days=30), {".github/schema-review.yml": CONFIG,
                                               "schemas/user.avsc": json.dumps(USER, indent=1),
                                               "other/order.avsc": json.dumps(USER, indent=1)}, "start")
    git(repo, "checkout", "-q", "-b", "feature")
    commit_at(repo, NOW - timedelta(days=1), {"schemas/user.avsc": json.dumps(DEPRECATED, indent=1)}, "deprecate")
    return repo


def run(capsys, *args):
    code = main(list(args), now=NOW)
    return code, capsys.readouterr().out


def test_lifecycle_shows_each_files_consumers_and_that_asking_them_is_the_apps(capsys, repo):
    code, out = run(capsys, "lifecycle", "--repo", str(repo))
    assert code == 0 and "\x1b" not in out
    assert out.splitlines() == [
        "schemas/user.avsc",
        "  read by: @acme/billing (Billing \\x1b[2J), @mona (Billing \\x1b[2J)",
        "  User.email: deprecated, since 2026-12-01 (commit date); removable from 2026-12-15",
        "Consumers are asked to review, and confirm each migration with `/schema-migrated` in its "
        "tracking issue, through the schema-review App on GitHub; confirmations are the App's, and a "
        "local run cannot see them."]
    code, out = run(capsys, "lifecycle", "--repo", str(repo), "--output", "json")
    assert json.loads(out)["consumers"] == [{"file": "schemas/user.avsc",
                                             "owners": ["@acme/billing (Billing \x1b[2J)", "@mona (Billing \x1b[2J)"]}]


LINE = "This change concerns consumers ({owners}): the schema-review App asks them to review on GitHub"


@pytest.mark.parametrize("output, expected", [
    ("text", LINE.format(owners="@acme/billing, @mona")),
    ("github", "::notice title=schema-review::" + LINE.format(owners="@acme/billing, @mona")),
])
def test_review_says_in_one_line_that_asking_the_consumers_is_the_apps(capsys, repo, tmp_path, output, expected):
    summary = tmp_path / "summary.md"
    code, out = run(capsys, "review", "--repo", str(repo), "--base", "main", "--head", "feature",
                    "--output", output, "--summary-file", str(summary))
    assert code == 0
    assert [line for line in out.splitlines() if "consumers" in line][0].startswith(expected)
    assert LINE.format(owners="`@acme/billing`, `@mona`") in summary.read_text()


def test_review_without_consumers_says_nothing_of_them(capsys, repo):
    git(repo, "checkout", "-q", "main")
    commit_at(repo, NOW - timedelta(days=2), {".github/schema-review.yml": "compatibility: backward\n"}, "no consumers")
    code, out = run(capsys, "review", "--repo", str(repo), "--base", "main", "--head", "feature")
    assert code == 0 and "consumers" not in out
    code, out = run(capsys, "review", "--repo", str(repo), "--base", "main", "--head", "feature", "--output", "json")
    assert "consumers" not in out
