"""Enum aliases judged by the protobuf runtime on PROTO_ENUM_VALUE_RENAMED's rule cases.

A JSON writer emits a number's first-declared name and a parser takes any of its names. Here
protoc (grpc_tools) compiles each case's two versions, and the Python runtime writes every
number of the enum as proto3 JSON with one version and parses it with the other: the finding
is an error in exactly the directions where that JSON is refused. buf's verdict is pinned
beside it, where the two part (an alias declared before the first name; a later alias removed).
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
from grpc_tools import protoc

from rules.model import Mode
from tests.rules.protobuf.support import WIRE, check
from tests.rules.protobuf.test_differential import BUF

CASES = Path(__file__).parent.parent / "cases" / "protobuf" / "PROTO_ENUM_VALUE_RENAMED"
RULE = "PROTO_ENUM_VALUE_RENAMED"
# case -> (old JSON refused by the new version, new JSON refused by the old, buf reports it)
VERDICTS = {
    "first-name-removed": (True, False, True),
    "alias-declared-before-first-name": (False, True, False),
    "first-name-renamed-alias-kept": (True, True, True),
    "later-alias-removed": (False, False, True),
    "aliases-reordered": (False, False, False),
}


def _order(folder: Path, side: str, tmp_path: Path):
    out = tmp_path / f"{side}.pb"
    assert protoc.main(["protoc", f"-I{folder}", f"--descriptor_set_out={out}",
                        str(folder / f"{side}.proto")]) == 0
    pool = descriptor_pool.DescriptorPool()
    for proto in descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file:
        pool.Add(proto)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("shop.v1.Order"))


def _refused(writer, reader) -> list[str]:
    """The JSON of each number of the enum, as `writer` writes it, that `reader` refuses; the
    binary form of every number reads back as the same number."""
    refused = []
    enum = writer.DESCRIPTOR.fields_by_name["status"].enum_type
    for number in sorted({value.number for value in enum.values}):
        record = writer(status=number)
        assert reader.FromString(record.SerializeToString()).status == number
        try:
            json_format.Parse(json_format.MessageToJson(record), reader())
        except json_format.ParseError:
            refused.append(json.loads(json_format.MessageToJson(record))["status"])
    return refused


def _errors(folder: Path, mode: Mode) -> set[str]:
    old, new = (folder / "old.proto").read_text(), (folder / "new.proto").read_text()
    report = check(old, new, mode=mode)
    return {f.rule for f in report.findings if f.severity.value == "error"}


@pytest.mark.parametrize("case", sorted(VERDICTS))
def test_an_error_in_each_direction_where_the_runtime_refuses_the_json(case, tmp_path):
    folder = CASES / case
    old, new = _order(folder, "old", tmp_path), _order(folder, "new", tmp_path)
    backward, forward, _buf = VERDICTS[case]
    assert bool(_refused(old, new)) is backward
    assert bool(_refused(new, old)) is forward
    assert (RULE in _errors(folder, Mode.BACKWARD)) is backward
    assert (RULE in _errors(folder, Mode.FORWARD)) is forward


def test_the_refused_json_carries_the_first_declared_name(tmp_path):
    removed, added = CASES / "first-name-removed", CASES / "alias-declared-before-first-name"
    old, new = _order(removed, "old", tmp_path), _order(removed, "new", tmp_path)
    assert _refused(old, new) == ["STATUS_ACTIVE"]  # its alias STATUS_ENABLED stays
    old, new = _order(added, "old", tmp_path), _order(added, "new", tmp_path)
    assert _refused(new, old) == ["STATUS_ENABLED"]


def test_under_wire_alone_a_lost_name_is_a_warning_and_a_new_first_name_is_silent():
    def wire(case):
        folder = CASES / case
        report = check((folder / "old.proto").read_text(), (folder / "new.proto").read_text(),
                       categories=WIRE, mode=Mode.FULL)
        return {(f.rule, f.severity.value) for f in report.findings}
    assert wire("first-name-removed") == {(RULE, "warning")}
    assert wire("alias-declared-before-first-name") == set()


@pytest.mark.parametrize("case", sorted(VERDICTS))
def test_buf_wire_json_verdicts_where_ours_differ_are_pinned(case, tmp_path):
    for side in ("old", "new"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "status.proto").write_text((CASES / case / f"{side}.proto").read_text())
        (tmp_path / side / "buf.yaml").write_text("version: v2\nbreaking:\n  use: [WIRE_JSON]\n")
    done = subprocess.run([BUF, "breaking", str(tmp_path / "new"), "--against",
                           str(tmp_path / "old"), "--error-format", "json"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 100), done.stderr
    ids = {json.loads(line)["type"] for line in done.stdout.splitlines() if line.strip()}
    assert ("ENUM_VALUE_SAME_NAME" in ids) is VERDICTS[case][2], ids
