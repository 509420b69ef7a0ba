"""Every Apache Avro and Confluent compatibility case, read from ../shared at test time."""
from __future__ import annotations

import io
import json
from pathlib import Path

import fastavro
import pytest

import rules
import rules.avro
from rules.model import Format, Mode, Source
from tests.shared import module_data

APACHE = module_data("conformance", "avro", "apache-avro-compatibility-cases.json")
CONFLUENT = module_data("conformance", "avro", "confluent-avro-compatibility-cases.json")

# Cases where this checker deliberately disagrees with the reference verdict: source -> reason.
# Keep it tiny; every entry says why the reference is wrong (or answers another question).
DEVIATIONS: dict[str, str] = {}


def _load(path: Path) -> list[dict]:
    return json.loads(path.read_text())


def _source(name: str, schema) -> Source:
    return Source(path=f"{name}.avsc", text=json.dumps(schema, indent=2))


def _ids(cases: list) -> list[str]:
    return [f"{index}:{case.get('source', '')}" for index, case in cases]


APACHE_CASES = [(i, c) for i, c in enumerate(_load(APACHE))]
SCHEMA_CASES = [(i, c) for i, c in APACHE_CASES if c.get("kind") != "decoding"]
DECODING_CASES = [(i, c) for i, c in APACHE_CASES if c.get("kind") == "decoding"]
CONFLUENT_CASES = [(i, c) for i, c in enumerate(_load(CONFLUENT))]


@pytest.mark.parametrize("index,case", SCHEMA_CASES, ids=_ids(SCHEMA_CASES))
def test_apache_verdict(index, case):
    report = rules.check(_source("writer", case["writer"]), _source("reader", case["reader"]),
                         format=Format.AVRO, mode=Mode.BACKWARD)
    key = f"apache[{index}] {case['source']}"
    if key in DEVIATIONS:
        assert report.compatible != case["compatible"], f"deviation no longer needed: {key}"
        return
    assert report.compatible == case["compatible"], [f.to_json() for f in report.findings]


@pytest.mark.parametrize("index,case", SCHEMA_CASES, ids=_ids(SCHEMA_CASES))
def test_apache_verdict_swapped_is_forward(index, case):
    """The same question asked the other way: OLD is the reader, NEW the writer, forward mode."""
    report = rules.check(_source("reader", case["reader"]), _source("writer", case["writer"]),
                         format=Format.AVRO, mode=Mode.FORWARD)
    key = f"apache[{index}] {case['source']}"
    if key in DEVIATIONS:
        assert report.compatible != case["compatible"], f"deviation no longer needed: {key}"
        return
    assert report.compatible == case["compatible"], [f.to_json() for f in report.findings]


def _decode(writer, reader, datum):
    buffer = io.BytesIO()
    fastavro.schemaless_writer(buffer, fastavro.parse_schema(writer), datum)
    buffer.seek(0)
    return fastavro.schemaless_reader(buffer, fastavro.parse_schema(writer),
                                      fastavro.parse_schema(reader))


# The reference records Java's decoding; where Python's fastavro legitimately differs the
# expected value is adjusted here, with the reason.
DECODING_ADJUSTMENTS = {
    # Java reads the int into a 32-bit float (16777217 -> 16777216.0f); Python floats are 64-bit
    # and fastavro returns 16777217.0 (the reference's own note says so).
    json.dumps(["float", "int", 16777217]): 16777217.0,
}


@pytest.mark.parametrize("index,case", DECODING_CASES, ids=_ids(DECODING_CASES))
def test_apache_decoding_with_fastavro(index, case):
    if case.get("decode_fails"):
        with pytest.raises(Exception):
            _decode(case["writer"], case["reader"], case["datum"])
        return
    expected = case["decoded"]
    expected = DECODING_ADJUSTMENTS.get(
        json.dumps([case["reader"], case["writer"], case["datum"]]), expected)
    assert _decode(case["writer"], case["reader"], case["datum"]) == expected


@pytest.mark.parametrize("index,case", CONFLUENT_CASES, ids=_ids(CONFLUENT_CASES))
def test_confluent(index, case):
    if "schema" in case:  # a parse case: the schema must (or must not) be accepted
        if case["parses"]:
            rules.avro.parse(_source("schema", case["schema"]))
        else:
            with pytest.raises(rules.SchemaError):
                rules.avro.parse(_source("schema", case["schema"]))
        return
    mode = case["mode"]
    transitive = mode.endswith("_transitive")
    previous = case["previous"]  # newest LAST
    old = previous[-1]
    against = previous[:-1] if transitive else []
    report = rules.check(_source("old", old), _source("new", case["new"]), format=Format.AVRO,
                         mode=Mode(mode.removesuffix("_transitive")),
                         against=[_source(f"older{i}", s) for i, s in enumerate(against)])
    assert report.compatible == case["compatible"], [f.to_json() for f in report.findings]


def test_the_reference_data_is_all_there():
    assert len(SCHEMA_CASES) + len(DECODING_CASES) == len(APACHE_CASES) > 250
    assert len(DECODING_CASES) >= 10 and len(CONFLUENT_CASES) >= 30
