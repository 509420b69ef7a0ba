"""`python -m bot review`: the bundled example end to end, and a git repository built here."""
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.__main__ import main
from tests.localgit import make_repo

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2030, 1, 1, tzinfo=timezone.utc)
BASE = """{
  "type": "record",
  "name": "User",
  "fields": [
    {"name": "id", "type": "string"}
  ]
}
"""
HEAD = BASE.replace('"string"}', '"string"},\n    {"name": "level", "type": "int"}')


def test_bundled_example_prints_what_the_app_would_post():
    done = subprocess.run([sys.executable, "-m", "bot", "review"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    out = done.stdout
    assert done.returncode == 1, done.stderr
    assert done.stderr == ""
    lines = out.splitlines()
    assert lines[-1].startswith("schema-review: failure: ") and lines[-1].endswith("in 3 schema files")
    for piece in ("avro/user_event.avsc (Avro, backward): 2 breaking changes",
                  "proto/acme/orders/v1/order.proto (Protobuf, full):",
                  "schemas/customer.schema.json (JSON Schema, backward): 1 breaking change",
                  "    +    {\"name\": \"userLevel\", \"type\": [\"null\", \"int\"], \"default\": null}",
                  "SCHEMA_DEPRECATION_WINDOW"):
        assert piece in out, piece
    for markdown in ("| Severity |", "```", "<!--", "**"):
        assert markdown not in out, markdown
    assert "\x1b[" not in out  # no colour when not a terminal


def _repo(tmp_path: Path, files_base: dict, files_head: dict) -> Path:
    return make_repo(tmp_path / "repo", files_base, files_head)


def test_local_repository_review(tmp_path, capsys):
    repo = _repo(tmp_path, {"events/user.avsc": BASE, "README.md": "hi\n"},
                 {"events/user.avsc": HEAD, "README.md": "hello\n"})
    code = main(["review", "--repo", str(repo), "--base", "main", "--head", "feature"], now=NOW)
    out = capsys.readouterr().out
    assert code == 1
    assert out.splitlines()[-1].endswith("in 1 schema file")
    assert "events/user.avsc:6: error AVRO_FIELD_ADDED_WITHOUT_DEFAULT " in out
    assert "README" not in out


def test_config_on_the_base_branch_is_used(tmp_path, capsys):
    config = "paths:\n  avro: [schemas/**]\n"
    repo = _repo(tmp_path, {".github/schema-review.yml": config, "events/user.avsc": BASE},
                 {"events/user.avsc": HEAD})
    assert main(["review", "--repo", str(repo), "--base", "main", "--head", "feature"], now=NOW) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "schema-review: success: No schema files changed"


def test_explicit_config_file_wins(tmp_path, capsys):
    repo = _repo(tmp_path, {"events/user.avsc": BASE}, {"events/user.avsc": HEAD})
    config = tmp_path / "forward.yml"
    config.write_text("compatibility: forward\n")
    assert main(["review", "--repo", str(repo), "--base", "main", "--head", "feature",
                 "--config", str(config)], now=NOW) == 0
    assert "events/user.avsc (Avro, forward)" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--base", "nope", "--head", "feature"], "error: git merge-base failed:"),
    (["--base", "main", "--head", "feature", "--config", "{config}"],
     "error: {config}:3: rules.NOPE_RULE: unknown rule"),
])
def test_usage_errors_exit_2_with_one_line(tmp_path, capsys, argv, message):
    repo = _repo(tmp_path, {"a.avsc": BASE}, {"a.avsc": HEAD})
    config = tmp_path / "bad.yml"
    config.write_text("version: 1\nrules:\n  NOPE_RULE: error\n")
    argv = [a.format(config=config) for a in argv]
    assert main(["review", "--repo", str(repo), *argv], now=NOW) == 2
    err = capsys.readouterr().err
    assert err.startswith(message.format(config=config)) and err.count("\n") == 1


def test_base_without_repo_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["review", "--base", "main"])
    assert exited.value.code == 2
