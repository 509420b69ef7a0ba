"""Signed <-> unsigned integers of one width, judged by the protobuf runtime, not by buf's table.

buf's WIRE_JSON category accepts int32 <-> uint32, int64 <-> uint64, fixed32 <-> sfixed32 and
fixed64 <-> sfixed64. Each value only one of the types holds is an instance that breaks: its
bytes decode as another number, and its proto3 JSON is refused ("Value out of range"), whichever
version wrote it. Here protoc (grpc_tools) compiles both versions and the Python runtime decodes.
"""
from __future__ import annotations

import json

import pytest
from google.protobuf import json_format, message_factory

from rules.model import Mode
from tests.rules.protobuf.runtime_check import pool_of
from tests.rules.protobuf.support import WIRE, check, rules_of
from tests.rules.protobuf.test_examples_runtime import _compile_all

TEXT = 'syntax = "proto3";\npackage sign.{name};\nmessage M {{\n  {kind} a = 1;\n  map<{kind}, string> m = 2;\n}}\n'
# (writer's type, reader's type, a value only the writer's type holds, what the reader decodes)
INSTANCES = [
    ("int32", "uint32", -1, 2**32 - 1), ("uint32", "int32", 2**32 - 1, -1),
    ("sfixed32", "fixed32", -1, 2**32 - 1), ("fixed32", "sfixed32", 2**32 - 1, -1),
    ("int64", "uint64", -1, 2**64 - 1), ("uint64", "int64", 2**64 - 1, -1),
    ("sfixed64", "fixed64", -1, 2**64 - 1), ("fixed64", "sfixed64", 2**64 - 1, -1),
]


def _message(kind: str):
    text = TEXT.format(name=kind, kind=kind)
    proto = _compile_all([text])[text]
    proto.name = f"{kind}.proto"
    return message_factory.GetMessageClass(pool_of([proto]).FindMessageTypeByName(f"sign.{kind}.M"))


@pytest.mark.parametrize("writer, reader, value, read", INSTANCES)
def test_the_runtime_misreads_binary_and_refuses_json(writer, reader, value, read):
    written, reading = _message(writer), _message(reader)
    record = written(a=value)
    assert reading.FromString(record.SerializeToString()).a == read
    for payload in (json_format.MessageToJson(record), json.dumps({"m": {str(value): "x"}})):
        json_format.Parse(payload, written())
        with pytest.raises(json_format.ParseError, match="out of range"):
            json_format.Parse(payload, reading())


@pytest.mark.parametrize("writer, reader, _value, _read", INSTANCES)
def test_each_direction_is_an_error_where_json_is_protected_and_a_warning_under_wire(
        writer, reader, _value, _read):
    old, new = (TEXT.format(name="v", kind=k) for k in (writer, reader))
    for mode in (Mode.BACKWARD, Mode.FORWARD):
        report = check(old, new, mode=mode)
        assert rules_of(report) == {"PROTO_FIELD_TYPE_CHANGED"} and not report.compatible
    wire = check(old, new, categories=WIRE)
    assert {(f.rule, f.severity.value) for f in wire.findings} == {("PROTO_FIELD_TYPE_CHANGED", "warning")}
    assert wire.compatible
