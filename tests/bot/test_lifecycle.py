"""`schema-review lifecycle`: the migrations in flight in a whole repository, text and JSON."""
import json
from datetime import datetime, timedelta, timezone

import pytest

from bot.local.main import main
from bot.local.cli import main as cli_main
from tests.localgit import commit_at, git

NOW = datetime(2026, 12, 2, 12, tzinfo=timezone.utc)
USER = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
ORDER = 'syntax = "proto2";\nmessage Order {\n  required string id = 1;\n}\n'


def user(**properties):
    return json.dumps({**USER, "properties": {**USER["properties"], **properties}}, indent=1)


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """A year of history: a rename double-written 5 days ago, a field added optional 30 days
    ago, one added 200 days ago (settled), and a hostile file name."""
    repo = tmp_path_factory.mktemp("lifecycle") / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    day = lambda n: NOW - timedelta(days=n)  # noqa: E731
    string = {"type": "string"}
    commit_at(repo, day(300), {"schemas/user.json": user(fax=string),
                               "proto/order.proto": ORDER, "README.md": "x\n"}, "start")
    commit_at(repo, day(200), {"schemas/user.json": user(fax=string, nick=string)}, "nick")
    commit_at(repo, day(30), {"proto/order.proto": ORDER.replace(
        "}", "  optional string note = 2;\n}")}, "note")
    commit_at(repo, day(5), {"schemas/user.json": user(
        fax={**string, "deprecated": True}, faxNumber=string, nick=string)}, "rename fax")
    commit_at(repo, day(1), {"schemas/e\x1b[2J.json": user(old={**string, "deprecated": True})},
              "hostile")
    return repo


def lifecycle(capsys, repo, *args):
    code = main(["lifecycle", "--repo", str(repo), *args], now=NOW)
    return code, capsys.readouterr().out


def test_json_lists_every_migration_in_flight(capsys, repo):
    code, out = lifecycle(capsys, repo, "--output", "json")
    assert code == 0
    found = {(m["file"], m["element"]): m for m in json.loads(out)["migrations"]}
    assert set(found) == {("proto/order.proto", "Order.note"), ("schemas/user.json", "$.fax"),
                          ("schemas/user.json", "$.faxNumber"), ("schemas/e\x1b[2J.json", "$.old")}
    assert found["schemas/user.json", "$.fax"] == {
        "file": "schemas/user.json", "kind": "double-write", "element": "$.fax",
        "since": "2026-11-27", "due": "2026-12-11", "replacement": "$.faxNumber", "new": False,
        "since_or_earlier": False, "clock": "commit date"}
    assert (found["proto/order.proto", "Order.note"]["kind"],
            found["proto/order.proto", "Order.note"]["due"]) == ("pending promotion", "2027-01-31")
    # Deprecated in the oldest version read: older ones might hold it too, so "or earlier".
    old = found["schemas/e\x1b[2J.json", "$.old"]
    assert (old["kind"], old["since"], old["since_or_earlier"]) == ("deprecated", "2026-12-01", True)


def test_text_groups_by_file_and_shows_hostile_names_safely(capsys, repo):
    code, out = lifecycle(capsys, repo)
    assert code == 0 and "\x1b" not in out
    assert out.splitlines() == [
        "proto/order.proto",
        "  Order.note: optional, pending promotion to required, since 2026-11-02 (commit date); promotable from 2027-01-31",
        "schemas/e\\x1b[2J.json",
        "  $.old: deprecated, since 2026-12-01 or earlier (commit date); removable from 2026-12-15",
        "schemas/user.json",
        '  $.fax: double-write, replaced by "$.faxNumber", since 2026-11-27 (commit date); old one removable from 2026-12-11',
        "  $.faxNumber: optional, pending promotion to required, since 2026-11-27 (commit date); promotable from 2027-02-25"]


def test_an_older_ref_and_the_schema_review_command(capsys, repo):
    assert cli_main(["lifecycle", "--repo", str(repo), "--ref", "HEAD~2"]) == 0
    out = capsys.readouterr().out
    assert "Order.note" in out and "$.fax" not in out  # the rename came later


def test_a_repository_with_nothing_in_flight(capsys, tmp_path):
    git(tmp_path, "init", "-q")
    commit_at(tmp_path, NOW, {"user.avsc": '{"type": "record", "name": "U", "fields": []}'}, "u")
    assert lifecycle(capsys, tmp_path) == (0, "No migrations in flight.\n")


@pytest.mark.parametrize("args", [["--ref=--upload-pack=x"], ["--ref", "nope"]])
def test_a_bad_ref_is_a_usage_error(capsys, repo, args):
    assert main(["lifecycle", "--repo", str(repo), *args], now=NOW) == 2
    assert capsys.readouterr().err.startswith("error: ")
