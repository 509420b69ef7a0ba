"""A union default of a later branch only: fastavro takes it, Apache's Python library refuses the
schema (as Java before 1.12 does), so the rule reports it (AVRO_FIELD_DEFAULT_INVALID)."""
from __future__ import annotations

import io
import json

import avro.errors
import avro.io
import avro.schema
import fastavro
import pytest

import rules
from rules.model import Format, Mode, Options, Source

OLD = {"type": "record", "name": "R", "fields": [{"name": "id", "type": "long"}]}


def _new(union: list, default) -> dict:
    return {**OLD, "fields": OLD["fields"] + [{"name": "note", "type": union, "default": default}]}


def _findings(new: dict) -> list[str]:
    sources = [Source(path=name, text=json.dumps(schema)) for name, schema in (("o.avsc", OLD), ("n.avsc", new))]
    report = rules.check(*sources, format=Format.AVRO, mode=Mode.BACKWARD, options=Options())
    return [f.rule for f in report.findings]


def _apache_reads(new: dict):
    buffer = io.BytesIO()
    fastavro.schemaless_writer(buffer, fastavro.parse_schema(OLD), {"id": 1})
    buffer.seek(0)
    reader = avro.io.DatumReader(avro.schema.parse(json.dumps(OLD)), avro.schema.parse(json.dumps(new)))
    return reader.read(avro.io.BinaryDecoder(buffer))


@pytest.mark.parametrize("union, default, reported", [
    (["null", "string"], "none", True),   # a later branch only
    (["string", "null"], "none", False),  # the first branch
    (["null", "string"], None, False),
])
def test_reported_exactly_where_apache_refuses(union, default, reported):
    new = _new(union, default)
    try:
        _apache_reads(new)
        refused = False
    except avro.errors.AvroException:
        refused = True
    assert refused is reported
    assert ("AVRO_FIELD_DEFAULT_INVALID" in _findings(new)) is reported
