"""Unusable Avro input gives a SchemaError naming file, line and problem; the CLI exits 2."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
import rules.avro
from rules.model import Format, SchemaError, Source

REPO = Path(__file__).resolve().parents[3]
GOOD = '{"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}]}\n'
DEEP = "[" * 1000 + "]" * 1000
DEEP_ARRAYS = '{"type": "array", "items": ' * 1000 + '"int"' + "}" * 1000


def _record(*fields: str) -> str:
    return '{"type": "record", "name": "R", "fields": [\n' + ",\n".join(fields) + "\n]}\n"


# name -> (file bytes, the line the error must name or None, words the problem must contain)
BAD = {
    "empty": (b"", None, "empty"),
    "whitespace": (b"  \n\n", None, "empty"),
    "binary-junk": (bytes(range(256)) * 4, None, "binary"),
    "not-utf8": (b'{"type": "\xff"}', None, "UTF-8"),
    "invalid-json": (b'{"type": "record",\n "name": "R",\n "fields": [\n', 4, "invalid JSON"),
    "deep-nesting": (DEEP.encode(), 1, "nested deeper"),
    "deep-array-types": (DEEP_ARRAYS.encode(), 1, "nested deeper"),
    "dangling-reference": (_record('{"name": "a", "type": "int"}', '{"name": "b", "type": "Missing"}').encode(), 3, 'unknown type "Missing"'),
    "forward-reference": (_record('{"name": "a", "type": "Later"}', '{"name": "b", "type": {"type": "fixed", "name": "Later", "size": 2}}').encode(), 2, 'unknown type "Later"'),
    "unknown-type": (b'{"type": "integer"}', 1, 'unknown type "integer"'),
    "missing-type": (b'{"name": "R", "fields": []}', 1, 'no "type"'),
    "record-without-fields": (b'{"type": "record", "name": "R"}', 1, 'no "fields"'),
    "record-without-name": (b'{"type": "record", "fields": []}', 1, 'no "name"'),
    "bad-name": (b'{"type": "record", "name": "my-record", "fields": []}', 1, 'invalid name "my-record":'),
    "duplicate-field": (_record('{"name": "a", "type": "int"}', '{"name": "a", "type": "long"}').encode(), 3, "two fields"),
    "duplicate-type": (_record('{"name": "a", "type": {"type": "fixed", "name": "F", "size": 1}}', '{"name": "b", "type": {"type": "fixed", "name": "F", "size": 1}}').encode(), 3, "defined twice"),
    "enum-duplicate-symbol": (b'{"type": "enum", "name": "E", "symbols": ["A", "A"]}', 1, "twice"),
    "enum-default-not-symbol": (b'{"type": "enum", "name": "E", "symbols": ["A"], "default": "B"}', 1, 'default "B", which is not one of its symbols'),
    "fixed-negative-size": (b'{"type": "fixed", "name": "F", "size": -1}', 1, "size"),
    "nested-union": (b'["null", ["int", "string"]]', 1, "another union"),
    "duplicate-union-branch": (b'["int", "int"]', 1, "twice"),
    "not-a-type": (b"42", 1, "not an Avro type"),
    "aliases-not-a-list": (_record('{"name": "a", "type": "int", "aliases": "b"}').encode(), 2, "JSON array"),
}


UNREADABLE = {"empty", "whitespace", "binary-junk", "not-utf8"}


@pytest.mark.parametrize("text", ["", "   \n", "\x00\x01"])
def test_check_refuses_empty_or_junk_text_given_directly(text):
    with pytest.raises(SchemaError) as caught:
        rules.check(Source("old.avsc", GOOD), Source("new.avsc", text), format=Format.AVRO)
    assert caught.value.side is rules.Side.NEW and "invalid JSON" in caught.value.problem


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / f"{name}.avsc"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("name", sorted(BAD))
def test_check_raises_a_clear_schema_error(tmp_path, name):
    data, line, words = BAD[name]
    good = _write(tmp_path, "good", GOOD.encode())
    bad = _write(tmp_path, name, data)
    with pytest.raises(SchemaError) as caught:
        rules.check(rules.read(str(good)), rules.read(str(bad)), format=Format.AVRO)
    error = caught.value
    # Bytes that are not text at all are refused while reading, before either side is parsed.
    side = None if name in UNREADABLE else rules.Side.NEW
    assert (error.file, error.line, error.side) == (str(bad), line, side)
    assert words in error.problem and "Traceback" not in error.problem


# Through the real CLI process (each costs an interpreter start, so the brief's list, not all).
CLI_CASES = ["empty", "binary-junk", "not-utf8", "invalid-json", "deep-nesting", "dangling-reference",
             "unknown-type"]


@pytest.mark.parametrize("name", CLI_CASES)
def test_cli_exits_2_with_one_line_on_stderr(tmp_path, name):
    data, line, words = BAD[name]
    good = _write(tmp_path, "good", GOOD.encode())
    bad = _write(tmp_path, name, data)
    # A type that does not resolve stops only the new version (an old one is noted, not
    # compared: tests/rules/test_unresolved.py); the rest stop either.
    old, new = (good, bad) if name == "dangling-reference" else (bad, good)
    done = subprocess.run([sys.executable, "-m", "rules", "check", str(old), str(new)],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and words in done.stderr, done.stderr
    assert done.stderr.startswith(f"error: {bad}")


# A default that is not a value of its type is a finding (AVRO_FIELD_DEFAULT_INVALID), not an
# unusable file: Confluent's registry and Apache's Python checker accept such schemas.
# name -> (file text, the line the finding must name)
BAD_DEFAULTS = {
    "wrong-default-type": (_record('{"name": "a", "type": "int",\n "default": "five"}'), 3),
    "wrong-nested-default": (_record('{"name": "a", "type": {"type": "array", "items": "int"}, "default": [1, "x"]}'), 2),
    "record-default-missing-field": (_record('{"name": "p", "type": {"type": "record", "name": "P", "fields": [{"name": "x", "type": "int"}]}, "default": {}}'), 2),
    "int-default-out-of-range": (_record('{"name": "a", "type": "int", "default": 4294967296}'), 2),
}


@pytest.mark.parametrize("name", sorted(BAD_DEFAULTS))
def test_an_invalid_default_is_reported_and_the_comparison_goes_on(name):
    text, line = BAD_DEFAULTS[name]
    grown = text.replace('"fields": [', '"fields": [{"name": "extra", "type": "int"}, ', 1)
    report = rules.check(Source("old.avsc", text), Source("new.avsc", grown), format=Format.AVRO)
    found = sorted((f.rule, f.severity.value, f.line) for f in report.findings)
    field = json.loads(text)["fields"][0]["name"]
    assert found == sorted([("AVRO_FIELD_ADDED_WITHOUT_DEFAULT", "error", 1),
                            ("AVRO_FIELD_DEFAULT_INVALID", "warning", line)]), report.findings
    assert f'R.{field}' in [f.path for f in report.findings]


RECURSIVE = {
    "through-union": '{"type": "record", "name": "Node", "fields": [{"name": "next", "type": ["null", "Node"], "default": null}]}',
    "directly": '{"type": "record", "name": "Loop", "fields": [{"name": "self", "type": "Loop"}]}',
    "mutual": ('{"type": "record", "name": "A", "fields": [{"name": "b", "type": ["null", {"type": "record", '
               '"name": "B", "fields": [{"name": "a", "type": ["null", "A"], "default": null}]}], "default": null}]}'),
}


@pytest.mark.parametrize("name", sorted(RECURSIVE))
def test_recursive_records_are_valid_and_terminate(name):
    text = RECURSIVE[name]
    grown = text.replace('"fields": [', '"fields": [{"name": "extra", "type": "int"}, ', 1)
    report = rules.check(Source("old.avsc", text), Source("new.avsc", grown), format=Format.AVRO)
    assert [(f.rule, f.path) for f in report.findings] == [
        ("AVRO_FIELD_ADDED_WITHOUT_DEFAULT", f"{json.loads(text)['name']}.extra")]


def test_cli_handles_a_recursive_record(tmp_path):
    old = _write(tmp_path, "old", RECURSIVE["through-union"].encode())
    done = subprocess.run([sys.executable, "-m", "rules", "check", str(old), str(old)],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
                    | st.sampled_from(["int", "record", "enum", "fixed", "array", "map", "null", "R", "F"]),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["type", "name", "fields", "items", "values", "symbols", "size",
                                         "default", "aliases", "namespace", "logicalType", "precision"]),
                        inner, max_size=5), max_leaves=25)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON)
def test_arbitrary_json_parses_or_raises_schema_error(value):
    """Hostile shapes never escape as anything but SchemaError (no KeyError, TypeError...)."""
    try:
        rules.avro.parse(Source("fuzz.avsc", json.dumps(value)))
    except SchemaError as error:
        assert error.file == "fuzz.avsc" and error.problem
