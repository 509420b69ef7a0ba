"""Mutated real schemas and generated junk through rules.check: a Report or a SchemaError, nothing else."""
import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

import rules
from rules import Format, SchemaError, Source

from .counting import RAN, fuzz_settings

CASES = Path(__file__).resolve().parents[1] / "rules" / "cases"
EXTENSIONS = {Format.AVRO: "avsc", Format.PROTOBUF: "proto", Format.JSONSCHEMA: "json"}
FOLDERS = {Format.AVRO: "avro", Format.PROTOBUF: "protobuf", Format.JSONSCHEMA: "jsonschema"}


def seeds(fmt: Format) -> list[str]:
    texts = sorted({p.read_text(errors="replace")
                    for p in (CASES / FOLDERS[fmt]).rglob(f"*.{EXTENSIONS[fmt]}") if p.name != "expected.json"})
    assert texts, f"no seed schemas for {fmt.value} under {CASES}"
    return texts


TOKENS = ['{', '}', '[', ']', '"', ':', ',', 'null', '"type"', '"record"', '"fields"', '"name"', '"default"',
          '"$ref"', '"#/definitions/x"', '"properties"', '"required"', '"anyOf"', '"enum"', '"union"',
          'message', 'enum', 'oneof', 'reserved', 'repeated', 'optional', 'syntax = "proto3";', 'import "x.proto";',
          '= 1;', '= 536870912;', 'map<string, int32>', 'option', ';', '\n', '\x00', '\ud800', '9' * 400]


@st.composite
def mutated(draw, fmt: Format):
    text = draw(st.sampled_from(seeds(fmt)))
    for _ in range(draw(st.integers(0, 4))):
        if not text:
            break
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["delete", "insert", "duplicate", "token"]))
        if kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        elif kind == "insert":
            text = text[:at] + draw(st.text(max_size=8)) + text[at:]
        elif kind == "duplicate":
            end = min(len(text), at + draw(st.integers(1, 200)))
            text = text[:end] + text[at:end] + text[end:]
        else:
            text = text[:at] + draw(st.sampled_from(TOKENS)) + text[at:]
    return text


def run(fmt: Format, old: str, new: str, counter: str) -> None:
    RAN[counter] += 1
    ext = EXTENSIONS[fmt]
    try:
        report = rules.check(Source(f"old.{ext}", old), Source(f"new.{ext}", new), format=fmt)
    except SchemaError as error:
        assert str(error)
        return
    assert isinstance(report, rules.Report)


SCHEMA_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["string", "int", "null", "record", "x", "#"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["type", "name", "fields", "items", "values", "symbols", "default", "properties",
                         "required", "$ref", "anyOf", "oneOf", "allOf", "enum", "additionalProperties",
                         "definitions", "$defs", "aliases", "namespace", "logicalType", "not", "const"]),
        inner, max_size=5), max_leaves=25)


@fuzz_settings(250)
@given(data=st.data())
def test_avro_mutations(data):
    run(Format.AVRO, data.draw(mutated(Format.AVRO)), data.draw(mutated(Format.AVRO)), "avro-mutated")


@fuzz_settings(250)
@given(old=SCHEMA_JSON, new=SCHEMA_JSON)
def test_avro_generated(old, new):
    run(Format.AVRO, json.dumps(old), json.dumps(new), "avro-generated")


@fuzz_settings(250)
@given(data=st.data())
def test_jsonschema_mutations(data):
    run(Format.JSONSCHEMA, data.draw(mutated(Format.JSONSCHEMA)), data.draw(mutated(Format.JSONSCHEMA)),
        "jsonschema-mutated")


@fuzz_settings(250)
@given(old=SCHEMA_JSON, new=SCHEMA_JSON)
def test_jsonschema_generated(old, new):
    run(Format.JSONSCHEMA, json.dumps(old), json.dumps(new), "jsonschema-generated")


# protoc runs in a subprocess per version: fewer examples, each allowed its time limit.
@fuzz_settings(60, deadline_ms=None)
@given(data=st.data())
def test_protobuf_mutations(data):
    run(Format.PROTOBUF, data.draw(mutated(Format.PROTOBUF)), data.draw(mutated(Format.PROTOBUF)),
        "protobuf-mutated")
