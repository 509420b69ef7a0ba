"""JSON with lines: every object knows its first and last line and the line of each key."""
import json

import pytest
from hypothesis import given, settings, strategies as st

from rules import jsontext
from rules.jsontext import loads
from rules.limits import MAX_JSON_DEPTH
from rules.model import SchemaError

DOC = """{
  "type": "record",
  "doc": "brackets { [ in strings ] } and \\"escaped\\" quotes",
  "fields": [
    {"name": "a", "type": "int"},
    {"name": "b",
     "type": {"type": "map", "values": "string"}}
  ],
  "name": "E"
}
"""


def test_objects_know_their_lines_and_their_keys_lines():
    root = loads(DOC, "x.avsc")
    assert (root.line, root.end_line) == (1, 10)
    assert [root.key_line(k) for k in ("type", "doc", "fields", "name")] == [2, 3, 4, 9]
    first, second = root["fields"]
    assert (first.line, first.end_line, first.key_line("type")) == (5, 5, 5)
    assert (second.line, second.end_line, second.key_line("type")) == (6, 7, 7)
    assert second["type"].line == 7
    assert root.key_line("missing") == root.line


def test_a_key_behind_nested_values_is_found_at_its_own_level():
    root = loads('{"a": {"name": 1},\n "b": [{"name": 2}],\n "name": 3}', "x.json")
    assert root.key_line("name") == 3 and root["a"].key_line("name") == 1


@pytest.mark.parametrize("text, expected", [
    # Nested values are read past whole: brackets, quotes and colons inside them are no keys.
    ('{"a": {"x": "}{", "b": 1},\n "b": [{"a": "]"}, [1, {"c": 2}]],\n "c\\u0041": {"d": {"e": {}}},\n'
     ' "d": "x:{",\n "e": {}\n}', {"a": 1, "b": 2, "cA": 3, "d": 4, "e": 5}),
    ('{"k": [[{"k": {"k": 1}}], "k:"],\n "k2": {"q": "\\"}"}}', {"k": 1, "k2": 2}),
    ('{"p": {"a": {"t": 1},\n "b": {"t": {"u": [{}]}}},\n "q": 1}', {"p": 1, "q": 3}),
])
def test_key_lines_read_past_nested_values(text, expected):
    assert loads(text, "x.json").key_lines == expected


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c\\u0041", "cA", "{", "x:", 'x\\"b', 'b\\"']),
                          st.sampled_from(['1', '{"a": 2}', '[{"b": "}"}]', '{}', '"x:{"']),
                          st.sampled_from([" ", "\n", "\n\n "])), max_size=8))
@settings(max_examples=200, deadline=None)
def test_every_key_s_line_is_the_same_asked_one_by_one_or_all_at_once(members):
    # first_key_lines answers what key_line answers for each key (a repeated key: its first),
    # key_lines the line of each key's last occurrence; both count on from one key to the next.
    text, first, last = "{", {}, {}
    for index, (key, value, gap) in enumerate(members):
        text += ("," if index else "") + gap
        line, name = text.count("\n") + 1, json.loads(f'"{key}"')
        first.setdefault(name, line)
        last[name] = line
        text += f'"{key}": {value}'
    text += "\n}"
    one_by_one = loads(text, "x.json")
    assert {key: one_by_one.key_line(key) for key in one_by_one} == first
    # each asked first (the fast path, before any scan), on an object of its own
    assert {key: loads(text, "x.json").key_line(key) for key in one_by_one} == first
    assert loads(text, "x.json").first_key_lines() == first
    assert loads(text, "x.json").key_lines == last


@pytest.mark.parametrize("text, expected", [
    ('"a}"', "a}"),
    ('["]", {"k": "{"}]', ["]", {"k": "{"}]),
    ('{"a": "["}', {"a": "["}),
])
def test_brackets_inside_strings_are_text(text, expected):
    assert loads(text, "x.json") == expected


@pytest.mark.parametrize("text, line, problem", [
    ('{\n  "a": }', 2, "invalid JSON"),
    ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), 1, "nested deeper"),
    ("[" * 100_000, 1, "nested deeper"),
    ('{"a": "unterminated' + "x" * 100_000, 1, "invalid JSON"),
])
def test_bad_json_is_a_schema_error_with_a_line(text, line, problem):
    with pytest.raises(SchemaError) as error:
        loads(text, "x.json")
    assert error.value.line == line and problem in error.value.problem


@pytest.mark.parametrize("text", ['{"maximum": NaN}', '{"a": [Infinity]}', '{"a": -Infinity}'])
def test_nan_and_infinity_are_not_json(text):
    """Python's decoder takes them; a bound of NaN compares false with everything, so a change
    to it and on from it would each read as loosened (attack round 6)."""
    with pytest.raises(SchemaError) as error:
        loads(text, "x.json")
    assert "is not a JSON value" in error.value.problem


def test_a_string_saying_nan_is_text():
    assert loads('{"a": "NaN", "b": 1e400}', "x.json") == {"a": "NaN", "b": float("inf")}


# Strings that trip a reader of brackets: braces, brackets, quotes and backslashes inside them.
TRICKY = st.sampled_from(["a", "{", "}", "[", "]", "}{", '"', "\\", '\\"', "x:{", ""])
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TRICKY, inner, max_size=4),
    max_leaves=40)


def _objects(value) -> int:
    if isinstance(value, dict):
        return 1 + sum(map(_objects, value.values()))
    return sum(map(_objects, value)) if isinstance(value, list) else 0


@settings(max_examples=400, deadline=None)
@given(st.lists(VALUES, max_size=3) | st.dictionaries(TRICKY, VALUES, max_size=3),
       st.sampled_from([None, 0, 1, 2, "\t"]))
def test_the_spans_read_from_the_braces_are_the_scan_s_spans(value, indent):
    """Where the braces can be trusted they give the scan's spans; else the scan decides."""
    text = json.dumps(value, indent=indent)
    fast = jsontext._brace_spans(text, _objects(value))
    assert fast is None or fast == jsontext._scanned_spans(text, "x.json", jsontext._Document(text))
    assert loads(text, "x.json") == value


@pytest.mark.parametrize("outer, inner", [("[", "{"), ("{", "["), ("[", "["), ("{", "{")])
@pytest.mark.parametrize("extra", [0, 1])
def test_the_depth_limit_holds_however_objects_and_arrays_mix(outer, inner, extra):
    """Half the levels objects, half arrays (and the other way round): the limit counts both,
    exactly at MAX_JSON_DEPTH."""
    half = MAX_JSON_DEPTH // 2
    opening = {"[": "[", "{": '{"k": '}
    closing = {"[": "]", "{": "}"}
    levels = [outer] * half + [inner] * (half + extra)
    text = "".join(opening[c] for c in levels) + "1" + "".join(closing[c] for c in reversed(levels))
    if extra:
        with pytest.raises(SchemaError, match="nested deeper"):
            loads(text, "x.json")
    else:
        loads(text, "x.json")
