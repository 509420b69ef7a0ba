"""Confluent Schema Registry's Protobuf diff examples: our verdicts under a wire-only config.

The data is read from <repo>/../shared/conformance/protobuf-confluent at test time (Confluent
Community License: never copied into this repository). Confluent's checker is wire-level and
BACKWARD, and also reports removed messages (MESSAGE_REMOVED, which buf files under FILE and
PACKAGE); we check with proto_categories={"WIRE"} plus PROTO_MESSAGE_DELETED in backward mode.
Renames are warnings for us
and compatible for Confluent, so they agree on the verdict. Every case either matches Confluent's
verdict and has a finding for each incompatible change Confluent lists, or is in DEVIATIONS.
"""
import json

import pytest

from rules.model import Mode, Severity
from tests.rules.protobuf.support import WIRE, check, source
from tests.shared import module_data

DATA = module_data("conformance", "protobuf-confluent")
FILES = ("diff-schema-examples.json", "diff-schema-examples-with-meta.json")

# Confluent's incompatible Difference types and the rules that report the same change.
RULES_FOR = {
    "PACKAGE_CHANGED": {"PROTO_PACKAGE_CHANGED"},
    "MESSAGE_REMOVED": {"PROTO_MESSAGE_DELETED"},
    "FIELD_KIND_CHANGED": {"PROTO_FIELD_TYPE_INCOMPATIBLE"},
    "FIELD_SCALAR_KIND_CHANGED": {"PROTO_FIELD_TYPE_INCOMPATIBLE"},
    "FIELD_NAMED_TYPE_CHANGED": {"PROTO_FIELD_TYPE_REFERENCE_CHANGED",
                                 "PROTO_FIELD_TYPE_INCOMPATIBLE"},
    "FIELD_NUMERIC_LABEL_CHANGED": {"PROTO_FIELD_CARDINALITY_CHANGED"},
    "REQUIRED_FIELD_ADDED": {"PROTO_REQUIRED_FIELD_CHANGED"},
    "REQUIRED_FIELD_REMOVED": {"PROTO_REQUIRED_FIELD_CHANGED"},
    "ONEOF_FIELD_REMOVED": {"PROTO_FIELD_DELETED_NOT_RESERVED"},
    "MULTIPLE_FIELDS_MOVED_TO_ONEOF": {"PROTO_FIELD_ONEOF_CHANGED"},
    "FIELD_MOVED_TO_EXISTING_ONEOF": {"PROTO_FIELD_ONEOF_CHANGED"},
}

# (file, description, Confluent's verdict) -> why our verdict differs. Each entry must be used.
DEVIATIONS = {
    ("diff-schema-examples.json", "Detect removed field", True):
        "We are stricter: a field deleted without `reserved 2;` lets a later version reuse the "
        "number and misread old data (buf FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED, in WIRE). "
        "Confluent does not require the reservation.",
    ("diff-schema-examples.json", "Detect changed field number", True):
        "We are stricter: the same field under a new number is PROTO_FIELD_NUMBER_CHANGED; old "
        "data's values are silently dropped by the new reader. Confluent sees a removal plus an "
        "addition, both compatible for it.",
}


def _load() -> list:
    cases = []
    for name in FILES:
        for case in json.loads((DATA / name).read_text()):
            cases.append((name, case))
    return cases


CASES = _load()


def _schema(text_or_path: str, deps: list, label: str):
    """A Source for one side: inline text or a resource path, with its dependencies as imports."""
    path, text = f"{label}.proto", text_or_path
    if text_or_path.endswith(".proto"):
        path, text = str(DATA / text_or_path), (DATA / text_or_path).read_text()
    imports = {}
    for dep in deps:
        if "dependency" in dep:
            imports[dep["name"]] = dep["dependency"]
        elif (DATA / dep["name"]).is_file():  # descriptor.proto comes from grpc_tools' include dir
            imports[dep["name"]] = (DATA / dep["name"]).read_text()
    return source(text, path=path, imports=imports)


def _report(case):
    old = _schema(case["original_schema"], case.get("original_dependencies", []), "original")
    new = _schema(case["update_schema"], case.get("update_dependencies", []), "update")
    return check(old, new, categories=WIRE, mode=Mode.BACKWARD,
                 proto_rules={"PROTO_MESSAGE_DELETED"})


@pytest.mark.parametrize("name,case", CASES, ids=[f"{n[:-5]}:{i}:{c['description']}"
                                                   for i, (n, c) in enumerate(CASES)])
def test_confluent_case(name, case):
    report = _report(case)
    deviation = DEVIATIONS.get((name, case["description"], case["compatible"]))
    if deviation:
        assert report.compatible != case["compatible"], f"listed deviation no longer differs: {deviation}"
        return
    assert report.compatible == case["compatible"], [f.to_json() for f in report.findings]
    ours = {f.rule for f in report.findings}
    for change in case["changes"]:
        kind = change.split(" ")[0]
        if kind in RULES_FOR:
            assert RULES_FOR[kind] & ours, (change, sorted(ours))


def test_every_listed_deviation_is_a_real_case():
    keys = {(name, case["description"], case["compatible"]) for name, case in CASES}
    assert set(DEVIATIONS) <= keys


def test_all_55_cases_were_read():
    assert len(CASES) == 55


def test_confluent_file_pair_testproto():
    """Confluent's checkCompatibilityUsingProtoFiles: FIELD_NAME_CHANGED and
    FIELD_SCALAR_KIND_CHANGED on TestMessage/2. We report the rename (a warning) and the type
    change; we also report the package change test1 -> test2, which Confluent's file test does
    not list (it diffs the messages only) but which it reports as PACKAGE_CHANGED elsewhere."""
    folder = DATA / "io/confluent/kafka/schemaregistry/protobuf/diff"
    report = check(source((folder / "TestProto.proto").read_text(), path="TestProto.proto"),
                   source((folder / "TestProto2.proto").read_text(), path="TestProto2.proto"),
                   categories=WIRE)
    found = {(f.rule, f.path, f.severity) for f in report.findings}
    assert found == {
        ("PROTO_FIELD_RENAMED", "TestMessage.test_string2", Severity.WARNING),
        ("PROTO_FIELD_TYPE_INCOMPATIBLE", "TestMessage.test_string2", Severity.ERROR),
        ("PROTO_PACKAGE_CHANGED", "test2", Severity.ERROR),
    }
    assert not report.compatible
