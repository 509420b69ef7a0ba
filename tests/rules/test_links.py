"""Links and special files in what the CLI checks are refused, never followed or opened for
reading (SECURITY.md "Symlinks and special files"): `check OLD NEW` with files and with
directories, exit 2 with a clear error, nothing of the link's target in the output, and no
hang or runaway read (a FIFO, /dev/zero)."""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.shared import REPO

SECRET = "SECRET_KEY_XYZ"  # in the files outside the trees: it must never be printed
SECRET_JSON = json.dumps({"type": "object", "properties": {SECRET: {"type": "string"}},
                          "$defs": {"x": {"type": "object", "required": [SECRET]}}})
SECRET_PROTO = f'syntax = "proto3";\npackage secret;\nmessage {SECRET} {{\n  string a = 1;\n}}\n'
COMMON_JSON = json.dumps({"type": "object", "$defs": {"x": {"type": "object"}}})
USER_JSON = json.dumps({"type": "object", "properties": {"c": {"$ref": "common.json#/$defs/x"}}})
USER_LINKED_DIR = json.dumps({"type": "object", "properties": {"c": {"$ref": "lib/common.json#/$defs/x"}}})
PROTO = 'syntax = "proto3";\npackage shop;\nmessage Order {\n  string id = 1;\n}\n'
IMPORTING = ('syntax = "proto3";\npackage shop;\nimport "common.proto";\n'
             'message Order {\n  string id = 1;\n}\n')
COMMON_PROTO = 'syntax = "proto3";\npackage shop;\nmessage Money {\n  int64 units = 1;\n}\n'
LINK, SPECIAL = "symbolic link", "not a regular file"
MEMORY = 1 << 30  # the CLI's address space here: a runaway read fails fast, not the machine
DEADLINE = 60  # seconds: a hang (a FIFO opened for reading) fails the test instead


FIFO = None  # an odd entry that is a FIFO; any other is a link to the text given


# name -> (files of both trees, the new tree's odd entries, what `check` is run on in file
# mode (old, new, extra arguments), what the error says). `{outside}` is a folder beside the
# trees holding the secret files, `{new}` the new tree.
CASES = {
    "link to a file outside": (
        {"common.json": COMMON_JSON}, {"common.json": "{outside}/secret.json"},
        ("common.json", "common.json", ()), LINK),
    "$ref through a link": (
        {"common.json": COMMON_JSON, "user.json": USER_JSON},
        {"common.json": "{outside}/secret.json"}, ("user.json", "user.json", ()), LINK),
    "linked .proto": (
        {"order.proto": PROTO}, {"order.proto": "{outside}/secret.proto"},
        ("order.proto", "order.proto", ()), LINK),
    "import of a linked .proto": (
        {"order.proto": IMPORTING, "common.proto": COMMON_PROTO},
        {"common.proto": "{outside}/secret.proto"},
        ("order.proto", "order.proto", ("--proto-path", "{new}")), LINK),
    "link to /dev/zero": (
        {"common.json": COMMON_JSON, "user.json": USER_JSON}, {"common.json": "/dev/zero"},
        ("common.json", "common.json", ()), LINK),
    "FIFO": (
        {"common.json": COMMON_JSON, "user.json": USER_JSON}, {"common.json": FIFO},
        ("common.json", "common.json", ()), SPECIAL),
    "$ref into a linked directory": (
        {"lib/common.json": COMMON_JSON, "user.json": USER_LINKED_DIR},
        {"lib": "{outside}"}, ("user.json", "user.json", ()), LINK),
    "import from a linked directory": (
        {"order.proto": IMPORTING.replace('"common.proto"', '"lib/common.proto"'),
         "lib/common.proto": COMMON_PROTO},
        {"lib": "{outside}"}, ("order.proto", "order.proto", ("--proto-path", "{new}")), LINK),
}


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rules", "check", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=DEADLINE, preexec_fn=_limited,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})


def trees(tmp_path: Path, case: str) -> dict[str, str]:
    files, odd, _file_mode, _says = CASES[case]
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.json").write_text(SECRET_JSON)
    (outside / "common.json").write_text(SECRET_JSON)
    (outside / "secret.proto").write_text(SECRET_PROTO)
    (outside / "common.proto").write_text(SECRET_PROTO.replace("package secret", "package shop"))
    places = {"outside": str(outside), "old": str(tmp_path / "old"), "new": str(tmp_path / "new")}
    for side in ("old", "new"):
        for name, text in files.items():
            (tmp_path / side / name).parent.mkdir(parents=True, exist_ok=True)
            if side == "new" and (name in odd or name.split("/")[0] in odd):
                continue
            (tmp_path / side / name).write_text(text)
    for name, target in odd.items():
        entry = tmp_path / "new" / name
        if entry.is_dir():
            entry.rmdir()
        if target is FIFO:
            os.mkfifo(entry)
        else:
            entry.symlink_to(target.format(**places))
    return places


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("how", ["directories", "files"])
def test_a_link_or_special_file_is_refused_with_exit_2_and_nothing_of_its_target_shown(tmp_path, case, how):
    places = trees(tmp_path, case)
    _files, _odd, (old, new, extra), says = CASES[case]
    args = (["old", "new"] if how == "directories"
            else [f"old/{old}", f"new/{new}", *(arg.format(**places) for arg in extra)])
    result = run(*args, "--json", cwd=tmp_path)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert says in result.stderr
    assert SECRET not in result.stdout + result.stderr
    if how == "directories":  # the tree's report says it was not all checked
        assert json.loads(result.stdout)["compatible"] is False


@pytest.mark.parametrize("name, says", [("/dev/zero", "character device"),
                                        ("fifo.json", "FIFO")])
def test_a_special_file_named_directly_is_refused(tmp_path, name, says):
    (tmp_path / "old.json").write_text(COMMON_JSON)
    if not name.startswith("/"):
        os.mkfifo(tmp_path / name)
    result = run("old.json", name, cwd=tmp_path)
    assert result.returncode == 2
    assert SPECIAL in result.stderr and says in result.stderr


def test_regular_files_of_the_same_trees_still_compare(tmp_path):
    # The control: without the odd entries the cases' trees are fine (exit 0), so what the
    # test above sees is the refusal.
    for case in ("$ref through a link", "import of a linked .proto"):
        files, _odd, (old, new, extra), _says = CASES[case]
        root = tmp_path / case.replace(" ", "-").replace("$", "")
        for side in ("old", "new"):
            for name, text in files.items():
                (root / side / name).parent.mkdir(parents=True, exist_ok=True)
                (root / side / name).write_text(text)
        places = {"new": str(root / "new")}
        for args in (["old", "new"], [f"old/{old}", f"new/{new}", *(a.format(**places) for a in extra)]):
            result = run(*args, cwd=root)
            assert result.returncode == 0, (args, result.stdout, result.stderr)
