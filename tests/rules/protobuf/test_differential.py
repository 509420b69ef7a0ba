"""Differential test against `buf breaking` (the buf CLI in the venv) on seeded mutations.

Every mutation is one file; all of them are checked by four buf runs (WIRE, WIRE_JSON, PACKAGE,
FILE), and by us under the matching proto_categories in FULL mode (buf has no directions). Rule ids are
compared as groups (GROUP_OF_BUF / GROUP_OF_OURS). Each disagreement must be explained in
EXPLAINED, keyed by mutation kind, and every explanation must still be needed.
"""
from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rules.model import Mode
from rules.protobuf.bufrules import BUF_RULES, FILE_OPTIONS
from tests.rules.protobuf.mutations import EDITIONS, generate, one
from tests.rules.protobuf.support import BOTH, WIRE, check, source

COUNT, SEED = 70, 20240611
MUTATIONS = generate(COUNT, SEED) + [one(m, "proto3", COUNT + i, random.Random(SEED))
                                      for i, m in enumerate(EDITIONS)]
BUF = shutil.which("buf") or str(Path(sys.executable).parent / "buf")
CATEGORIES = {"WIRE": WIRE, "WIRE_JSON": BOTH, "PACKAGE": frozenset({"PACKAGE"}),
              "FILE": frozenset({"FILE"})}

GROUP_OF_BUF = {
    "FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED": "field deleted",
    "FIELD_NO_DELETE_UNLESS_NAME_RESERVED": "field deleted",
    "ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED": "enum value deleted",
    "ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED": "enum value deleted",
    "FIELD_WIRE_COMPATIBLE_TYPE": "type", "FIELD_WIRE_JSON_COMPATIBLE_TYPE": "type",
    "FIELD_WIRE_COMPATIBLE_CARDINALITY": "cardinality",
    "FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY": "cardinality",
    "FIELD_SAME_ONEOF": "oneof", "FILE_SAME_PACKAGE": "package", "FILE_SAME_SYNTAX": "syntax",
    "MESSAGE_SAME_REQUIRED_FIELDS": "required", "FIELD_SAME_DEFAULT": "default",
    "RESERVED_MESSAGE_NO_DELETE": "reserved", "RESERVED_ENUM_NO_DELETE": "reserved",
    "FIELD_SAME_NAME": "field renamed", "FIELD_SAME_JSON_NAME": "json name",
    "ENUM_VALUE_SAME_NAME": "enum value renamed",
    "MESSAGE_NO_DELETE": "message deleted", "PACKAGE_MESSAGE_NO_DELETE": "message deleted",
    "ENUM_NO_DELETE": "enum deleted", "PACKAGE_ENUM_NO_DELETE": "enum deleted",
    "RPC_SAME_IDEMPOTENCY_LEVEL": "idempotency", "FIELD_SAME_UTF8_VALIDATION": "utf8",
    "EXTENSION_NO_DELETE": "extension deleted", "PACKAGE_EXTENSION_NO_DELETE": "extension deleted",
    # PACKAGE and FILE: any deletion, any type or cardinality change.
    "FIELD_NO_DELETE": "field deleted", "ENUM_VALUE_NO_DELETE": "enum value deleted",
    "FIELD_SAME_TYPE": "type", "FIELD_SAME_CARDINALITY": "cardinality",
    "RPC_NO_DELETE": "rpc deleted", "SERVICE_NO_DELETE": "service deleted",
    "PACKAGE_SERVICE_NO_DELETE": "service deleted", "ONEOF_NO_DELETE": "oneof",
    "FIELD_SAME_CPP_STRING_TYPE": "language type", "FIELD_SAME_JSTYPE": "language type",
    **{f"FILE_SAME_{option}": "file option" for option in FILE_OPTIONS},
}
GROUP_OF_OURS = {
    # buf sees a renumbered field or value as a deletion (plus an addition).
    "PROTO_FIELD_DELETED_NOT_RESERVED": "field deleted", "PROTO_FIELD_NUMBER_CHANGED": "field deleted",
    "PROTO_FIELD_DELETED": "field deleted", "PROTO_ENUM_VALUE_DELETED": "enum value deleted",
    "PROTO_ENUM_VALUE_DELETED_NOT_RESERVED": "enum value deleted",
    "PROTO_ENUM_VALUE_NUMBER_CHANGED": "enum value deleted",
    "PROTO_FIELD_TYPE_INCOMPATIBLE": "type", "PROTO_FIELD_TYPE_REFERENCE_CHANGED": "type",
    "PROTO_FIELD_JSON_TYPE_CHANGED": "type",
    "PROTO_FIELD_CARDINALITY_CHANGED": "cardinality",
    "PROTO_FIELD_JSON_CARDINALITY_CHANGED": "cardinality", "PROTO_FIELD_PRESENCE_CHANGED": "cardinality",
    "PROTO_FIELD_ONEOF_CHANGED": "oneof", "PROTO_ONEOF_RENAMED": "oneof",
    "PROTO_FIELD_ONEOF_ALONE_CHANGED": "oneof",
    "PROTO_PACKAGE_CHANGED": "package", "PROTO_SYNTAX_CHANGED": "syntax",
    "PROTO_REQUIRED_FIELD_CHANGED": "required", "PROTO_FIELD_DEFAULT_CHANGED": "default",
    "PROTO_RESERVED_DELETED": "reserved", "PROTO_FIELD_RENAMED": "field renamed",
    "PROTO_FIELD_JSON_NAME_CHANGED": "json name", "PROTO_ENUM_VALUE_RENAMED": "enum value renamed",
    "PROTO_MESSAGE_DELETED": "message deleted", "PROTO_ENUM_DELETED": "enum deleted",
    "PROTO_RPC_IDEMPOTENCY_CHANGED": "idempotency", "PROTO_FIELD_TYPE_CHANGED": "type",
    "PROTO_RPC_DELETED": "rpc deleted", "PROTO_SERVICE_DELETED": "service deleted",
    "PROTO_FIELD_LANGUAGE_TYPE_CHANGED": "language type", "PROTO_FILE_OPTION_CHANGED": "file option",
    "PROTO_FIELD_UTF8_VALIDATION_CHANGED": "utf8", "PROTO_EXTENSION_DELETED": "extension deleted",
    # Advisory, with no buf counterpart: not compared.
    "PROTO_FIELD_DELETED_NOT_DEPRECATED": None,
}

# (mutation kind, category, "ours"|"buf" = who reports the extra group, group) -> reason.
EXPLAINED = {
    ("retype_enum", "WIRE", "buf", "type"):
        "An enum is a varint on the wire, compatible with int32/int64/uint32/uint64/bool "
        "(protobuf's updating rules). buf's WIRE table treats enum<->int as breaking; for us it "
        "only breaks JSON (PROTO_FIELD_JSON_TYPE_CHANGED under WIRE_JSON, where we agree).",
    ("bytes_to_string", "WIRE", "buf", "type"):
        "bytes -> string: protobuf documents string and bytes as wire-compatible (valid UTF-8 "
        "assumed); buf flags bytes->string in WIRE because bytes may hold invalid UTF-8. We "
        "follow the documented rule; under WIRE_JSON both report it.",
    ("make_repeated_delimited", "WIRE", "buf", "cardinality"):
        "string, bytes and message fields may switch between singular and repeated on the wire "
        "(length-delimited, never packed: a singular reader keeps the last or merges). buf "
        "flags any repeated change; we report it only as a JSON change (WIRE_JSON).",
    ("rename_field", "WIRE", "ours", "field renamed"):
        "Renames are advisory warnings in every category: generated code changes. buf's "
        "FIELD_SAME_NAME is in WIRE_JSON only (where we agree).",
    ("rename_enum_value", "WIRE", "ours", "enum value renamed"):
        "Advisory warning in every category, as for field renames.",
    ("make_required", "WIRE", "buf", "cardinality"):
        "buf reports optional->required twice (cardinality and required fields); we report "
        "required-ness once, as PROTO_REQUIRED_FIELD_CHANGED.",
    ("make_required", "WIRE_JSON", "buf", "cardinality"): "As for WIRE.",
    ("make_required", "PACKAGE", "buf", "cardinality"): "As for WIRE.",
    ("make_required", "FILE", "buf", "cardinality"): "As for WIRE.",
    ("drop_required", "WIRE", "buf", "cardinality"): "As for make_required.",
    ("drop_required", "WIRE_JSON", "buf", "cardinality"): "As for make_required.",
    ("drop_required", "PACKAGE", "buf", "cardinality"): "As for make_required.",
    ("drop_required", "FILE", "buf", "cardinality"): "As for make_required.",
    ("to_edition_unverified", "WIRE", "ours", "utf8"):
        "buf files FIELD_SAME_UTF8_VALIDATION under FILE and PACKAGE only. Strings that stop "
        "verifying UTF-8 let new writers write bytes old (verifying) readers refuse: a payload "
        "break, shown by the runtime (test_the_utf8_break_buf_leaves_out_is_proven_by_the_runtime).",
    ("to_edition_unverified", "WIRE_JSON", "ours", "utf8"): "As for WIRE.",
    ("retype_same_json", "WIRE_JSON", "ours", "type"):
        "int32 <-> uint32 (and int64/uint64, fixed32/sfixed32, fixed64/sfixed64): buf's WIRE_JSON "
        "table calls the JSON forms the same; the runtime's JSON parser refuses a value only one "
        "type holds ({\"a\": -1} as uint32: Value out of range), in both directions "
        "(test_sign_change.py). PROTO_FIELD_TYPE_CHANGED is an error wherever JSON is protected.",
    ("retype_same_json", "WIRE", "ours", "type"):
        "The same change under WIRE: the bytes decode (as buf says), but as another number "
        "(int32 -1 reads as uint32 4294967295): a warning, not an error.",
    ("renumber_field_reserved", "WIRE", "ours", "field deleted"):
        "With the old number reserved buf (WIRE) sees a clean deletion plus an addition; we "
        "still report PROTO_FIELD_NUMBER_CHANGED, since old data's value is silently dropped. "
        "Under WIRE_JSON buf reports the unreserved name and we agree.",
}


def _run_buf(category: str, tmp: Path) -> dict[str, set[str]]:
    """One buf run over every mutation: file name -> set of buf rule ids."""
    for side in ("old", "new"):
        folder = tmp / category / side
        folder.mkdir(parents=True)
        (folder / "buf.yaml").write_text(f"version: v2\nbreaking:\n  use: [{category}]\n")
        for m in MUTATIONS:
            (folder / f"{m.name}.proto").write_text(m.old if side == "old" else m.new)
    done = subprocess.run([BUF, "breaking", str(tmp / category / "new"), "--against",
                           str(tmp / category / "old"), "--error-format", "json"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 100), done.stderr
    found: dict[str, set[str]] = {m.name: set() for m in MUTATIONS}
    for line in done.stdout.splitlines():
        if line.strip():
            item = json.loads(line)
            assert item["type"] != "COMPILE", item  # every mutation must be valid protobuf
            if "path" not in item:  # a package-level rule (PACKAGE_NO_DELETE): no file to name
                assert item["type"].startswith("PACKAGE_"), item
                continue
            found[Path(item["path"]).stem].add(item["type"])
    return found


@pytest.fixture(scope="module")
def buf_results(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("buf")
    return {category: _run_buf(category, tmp) for category in CATEGORIES}


def _groups(ids, table) -> set[str]:
    return {table[i] for i in ids if table.get(i)}


def _buf_groups(ids: set[str]) -> set[str]:
    groups = _groups(ids, GROUP_OF_BUF)
    if "FIELD_SAME_NAME" in ids:
        groups.discard("json name")  # a rename also changes the derived JSON name
    return groups


def disagreements(mutation, buf_results) -> set[tuple]:
    out = set()
    for category, categories in CATEGORIES.items():
        report = check(source(mutation.old, path=f"{mutation.name}.proto"),
                       source(mutation.new, path=f"{mutation.name}.proto"),
                       categories=categories, mode=Mode.FULL)
        ours = _groups({f.rule for f in report.findings}, GROUP_OF_OURS)
        theirs = _buf_groups(buf_results[category][mutation.name])
        out |= {(mutation.kind, category, "ours", g) for g in ours - theirs}
        out |= {(mutation.kind, category, "buf", g) for g in theirs - ours}
    return out


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.name)
def test_agrees_with_buf_or_is_explained(mutation, buf_results):
    unexplained = disagreements(mutation, buf_results) - set(EXPLAINED)
    assert not unexplained, (unexplained, mutation.new)


def test_every_explanation_is_still_needed(buf_results):
    seen = set()
    for mutation in MUTATIONS:
        seen |= disagreements(mutation, buf_results)
    assert set(EXPLAINED) <= seen, set(EXPLAINED) - seen


def test_buf_found_breakage_in_most_mutations(buf_results):
    """Guards against a silently broken buf run (e.g. no files compared)."""
    flagged = sum(bool(found) for found in buf_results["WIRE_JSON"].values())
    assert flagged >= COUNT // 2


def test_the_groups_follow_the_production_mapping():
    """rules/protobuf/bufrules.py maps buf.yaml's rule ids to ours; these groups must agree."""
    for buf_id, group in GROUP_OF_BUF.items():
        ours = BUF_RULES[buf_id][1]
        assert {GROUP_OF_OURS[rule] for rule in ours} == {group} | ALSO.get(buf_id, set()), buf_id


# A rename changes the derived JSON name too: buf reports FIELD_SAME_JSON_NAME with it.
ALSO = {"FIELD_SAME_JSON_NAME": {"field renamed"}}


def test_the_utf8_break_buf_leaves_out_is_proven_by_the_runtime():
    """The difference EXPLAINED lists for to_edition_unverified is no opinion: each finding's
    example (bytes that are not UTF-8, written by the new version) is decoded anew by the
    protobuf runtime from protoc's output, and the old version's reader refuses it."""
    import rules
    from tests.rules.protobuf.runtime_check import confirm, message_of, pool_of
    from tests.rules.protobuf.test_examples_runtime import _compile_all

    mutation = next(m for m in MUTATIONS if m.kind == "to_edition_unverified")
    report = rules.check(source(mutation.old), source(mutation.new), format=rules.Format.PROTOBUF,
                         mode=Mode.FULL, examples=True)
    found = [f for f in report.findings if f.rule == "PROTO_FIELD_UTF8_VALIDATION_CHANGED"]
    (old,), (new,) = _compile_all([mutation.old]).values(), _compile_all([mutation.new]).values()
    shown = [f for f in found if f.example]
    assert {f.path for f in found} - {f.path for f in shown} == {"Order.counts"}  # a map key
    for finding in shown:
        example = finding.example.to_json()
        assert example["written_with"] == "new" and example["encoding"] == "binary"
        mine = message_of(pool_of([new]), new.package, finding.path)
        theirs = pool_of([old]).FindMessageTypeByName(mine.full_name)
        assert confirm(example, finding.path, mine, theirs) is None, (finding.path, example)
