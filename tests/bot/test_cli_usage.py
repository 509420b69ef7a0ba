"""The `schema-review` command's own edges: --version, usage errors, two files of two formats."""
from __future__ import annotations

import os
import subprocess
import sys
import tomllib

import pytest

from tests.shared import REPO

AVRO = '{"type": "record", "name": "A", "fields": [{"name": "x", "type": "int"}]}\n'
PROTO = 'syntax = "proto3";\nmessage A { int32 x = 1; }\n'
JSON = '{"type": "object", "properties": {"x": {"type": "integer"}}}\n'
COMMANDS = ("check", "docs", "review", "lifecycle")


def schema_review(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot.local.cli", *args], capture_output=True,
                          text=True, cwd=cwd or REPO, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


def test_version_is_pyprojects():
    with (REPO / "pyproject.toml").open("rb") as handle:
        declared = tomllib.load(handle)["project"]["version"]
    done = schema_review("--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"schema-review {declared}\n", "")


@pytest.mark.parametrize("args, error", [
    (["bogus"], "error: argument command: invalid choice: 'bogus'"),
    (["check", "--bogus", "a.avsc", "b.avsc"], "error: unrecognized arguments: --bogus"),
    (["review", "--bogus"], "error: unrecognized arguments: --bogus"),
    (["lifecycle", "--nope"], "error: unrecognized arguments: --nope"),
    (["--nope"], "error: the following arguments are required: command"),
    ([], "error: the following arguments are required: command"),
])
def test_a_usage_error_says_what_and_lists_every_command(args, error):
    done = schema_review(*args)
    assert done.returncode == 2 and done.stdout == ""
    usage = done.stderr.splitlines()[0]
    assert usage.startswith("usage: schema-review ") and error in done.stderr, done.stderr
    assert all(command in usage for command in COMMANDS), usage


@pytest.mark.parametrize("old, new, formats", [
    (("a.avsc", AVRO), ("b.proto", PROTO), ("avro (a.avsc)", "NEW is protobuf (b.proto)")),
    (("a.schema.json", JSON), ("b.avsc", AVRO), ("jsonschema (a.schema.json)", "NEW is avro (b.avsc)")),
])
def test_two_files_of_two_formats_are_a_usage_error_naming_both(tmp_path, old, new, formats):
    for name, text in (old, new):
        (tmp_path / name).write_text(text)
    (tmp_path / "empty.avsc").write_text("")  # another file of the folder: never read
    done = schema_review("check", old[0], new[0], cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert all(words in done.stderr for words in formats), done.stderr
    assert "empty.avsc" not in done.stderr and "protoc" not in done.stderr


def test_against_a_file_of_another_format_is_refused_too(tmp_path):
    (tmp_path / "a.avsc").write_text(AVRO)
    (tmp_path / "b.proto").write_text(PROTO)
    done = schema_review("check", "a.avsc", "a.avsc", "--against", "b.proto", cwd=tmp_path)
    assert done.returncode == 2 and "--against is protobuf (b.proto)" in done.stderr, done.stderr


def test_format_flag_reads_both_as_one_format(tmp_path):
    """--format says what the files are, whatever their names: the user's call, not refused."""
    (tmp_path / "a.avsc").write_text(AVRO)
    (tmp_path / "b.txt").write_text(AVRO)
    done = schema_review("check", "a.avsc", "b.txt", "--format", "avro", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
