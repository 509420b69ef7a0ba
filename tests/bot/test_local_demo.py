"""`python -m bot review`: the bundled example end to end, and a git repository built here."""
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.local.main import main
from tests.localgit import git, make_repo, write

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
    repo = _repo(tmp_path, {"events/user.avsc": BASE, "ci/forward.yml": "compatibility: forward\n"},
                 {"events/user.avsc": HEAD})
    assert main(["review", "--repo", str(repo), "--base", "main", "--head", "feature",
                 "--config", "ci/forward.yml"], now=NOW) == 0
    assert "events/user.avsc (Avro, forward)" in capsys.readouterr().out


GATE_OFF = "paths:\n  avro: []\n"


@pytest.mark.parametrize("base_files, head_files, flags", [
    # the head switches the base's own config file off
    ({".github/schema-review.yml": "compatibility: backward\n"},
     {".github/schema-review.yml": GATE_OFF}, []),
    # the head adds the config file the base did not have
    ({}, {".github/schema-review.yml": GATE_OFF}, []),
    # the head edits the file --config names (relative, or absolute in the work tree)
    ({"ci/review.yml": "compatibility: backward\n"}, {"ci/review.yml": GATE_OFF},
     ["--config", "ci/review.yml"]),
    ({"ci/review.yml": "compatibility: backward\n"}, {"ci/review.yml": GATE_OFF},
     ["--config", "{repo}/ci/review.yml"]),
])
def test_the_change_cannot_switch_its_own_gate_off(tmp_path, capsys, base_files, head_files, flags):
    """The config is read at the base commit, never from the head or the checked-out work tree."""
    repo = _repo(tmp_path, {"events/user.avsc": BASE, **base_files},
                 {"events/user.avsc": HEAD, **head_files})
    flags = [flag.format(repo=repo) for flag in flags]
    assert main(["review", "--repo", str(repo), "--base", "main", "--head", "feature", *flags],
                now=NOW) == 1
    assert "events/user.avsc:6: error AVRO_FIELD_ADDED_WITHOUT_DEFAULT " in capsys.readouterr().out


def test_the_base_tip_config_counts_not_the_one_the_branch_was_cut_from(tmp_path, capsys):
    """A branch cut before the base tightened its config does not keep the older config."""
    repo = _repo(tmp_path, {"events/user.avsc": BASE, ".github/schema-review.yml": GATE_OFF},
                 {"events/user.avsc": HEAD})
    git(repo, "checkout", "-q", "main")
    write(repo, {".github/schema-review.yml": "compatibility: backward\n"})
    git(repo, "commit", "-q", "-m", "review Avro after all")
    assert main(["review", "--repo", str(repo), "--base", "main", "--head", "feature"], now=NOW) == 1
    assert "AVRO_FIELD_ADDED_WITHOUT_DEFAULT" in capsys.readouterr().out


@pytest.mark.parametrize("base_files, argv, message", [
    ({}, ["--base", "nope", "--head", "feature"], "error: git merge-base failed:"),
    # the pre-commit hook's base in a repository that never cloned (no origin/HEAD): the fix
    ({}, ["--base", "origin/HEAD", "--head", "feature"],
     "error: origin/HEAD is not set in this clone (git sets a remote's HEAD only when it clones): "
     "run `git remote set-head origin --auto` once, or pass --base"),
    ({"ci/bad.yml": "version: 1\nrules:\n  NOPE_RULE: error\n"},
     ["--base", "main", "--head", "feature", "--config", "ci/bad.yml"],
     "error: ci/bad.yml:3: rules.NOPE_RULE: unknown rule"),
    # only on the head (or only in the work tree): not the base's, so not a config at all
    ({}, ["--base", "main", "--head", "feature", "--config", "ci/new.yml"],
     "error: the config file ci/new.yml is not in the base commit (main): --config names a file "
     "committed on the base branch"),
    ({}, ["--base", "main", "--head", "feature", "--config", "{outside}"],
     "error: the config file {outside} is outside the repository"),
    # `_extends` names another repository: refused, never silently dropped
    ({".github/schema-review.yml": "_extends: .github\ncompatibility: forward\n"},
     ["--base", "main", "--head", "feature"],
     "error: .github/schema-review.yml:1: _extends: .github's config cannot be read here"),
])
def test_usage_errors_exit_2_with_one_line(tmp_path, capsys, base_files, argv, message):
    repo = _repo(tmp_path, {"a.avsc": BASE, **base_files}, {"a.avsc": HEAD, "ci/new.yml": "{}\n"})
    outside = tmp_path / "outside.yml"
    outside.write_text("compatibility: forward\n")
    argv = [a.format(outside=outside) for a in argv]
    assert main(["review", "--repo", str(repo), *argv], now=NOW) == 2
    err = capsys.readouterr().err
    assert err.startswith(message.format(outside=outside)) and err.count("\n") == 1


def test_base_without_repo_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["review", "--base", "main"])
    assert exited.value.code == 2
