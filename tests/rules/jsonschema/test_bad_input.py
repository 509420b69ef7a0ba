"""Unusable JSON Schema input gives one clear SchemaError (exit 2 in the CLI), never a crash."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from rules.model import Format, SchemaError, Side, Source

REPO = Path(__file__).resolve().parents[3]
GOOD = json.dumps({"type": "object", "properties": {"id": {"type": "string"}}}, indent=2)


def _deep(levels: int) -> str:
    return '{"items": ' * levels + "{}" + "}" * levels


BAD = {
    "empty": ("", "file is empty"),
    "invalid-json": ('{"type": "string",}', "invalid JSON"),
    "not-a-schema": ('{\n  "type": "strang"\n}', "not a valid draft-07 JSON Schema"),
    "array-root": ("[1, 2]", "must be an object or a boolean"),
    "unknown-draft": ('{"$schema": "http://example.com/my-draft"}', "not a JSON Schema draft"),
    "draft4-boolean-subschema": ('{"$schema": "http://json-schema.org/draft-04/schema#", "items": true}',
                                 "not a valid draft-04 JSON Schema"),
    "nested-1000-deep": (_deep(1000), "nested deeper than"),
    "dangling-ref": ('{\n  "properties": {\n    "a": {"$ref": "#/definitions/missing"}\n  }\n}',
                     "does not point at anything"),
    "ref-cycle": ('{"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}},'
                  ' "properties": {"x": {"$ref": "#/definitions/a"}}}', "circular"),
    "self-ref-root": ('{"$ref": "#"}', "circular"),
    "invalid-ecma-pattern": ('{\n  "type": "string",\n  "pattern": "(?<name"\n}', "ECMA-262"),
    "invalid-pattern-property": ('{"patternProperties": {"[a-": {}}}', "ECMA-262"),
    "five-megabytes": (json.dumps({"properties": {f"p{i}": {"type": "string", "description": "x" * 100}
                                                  for i in range(40000)}}), "limit"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_check_raises_schema_error(name):
    text, problem = BAD[name]
    with pytest.raises(SchemaError) as caught:
        rules.check(Source("old.json", GOOD), Source("new.json", text), format=Format.JSONSCHEMA)
    assert problem in caught.value.problem
    assert caught.value.file == "new.json" and caught.value.side is Side.NEW


def test_schema_error_on_old_side_names_old():
    with pytest.raises(SchemaError) as caught:
        rules.check(Source("old.json", BAD["invalid-ecma-pattern"][0]), Source("new.json", GOOD))
    assert caught.value.side is Side.OLD and caught.value.line == 3


def test_error_lines_point_at_the_problem():
    for name, line in (("not-a-schema", 2), ("invalid-ecma-pattern", 3), ("dangling-ref", 3)):
        with pytest.raises(SchemaError) as caught:
            rules.check(Source("old.json", GOOD), Source("new.json", BAD[name][0]))
        assert caught.value.line == line, name


def test_ecma_only_syntax_is_accepted():
    # Valid ECMA-262 (named groups, \\p with the u flag) that Python's `re` would reject or misread.
    text = json.dumps({"type": "string", "pattern": "^(?<year>[0-9]{4})-\\\\k<year>$"})
    assert rules.check(Source("a.json", text), Source("b.json", text)).findings == ()


@pytest.mark.parametrize("name", sorted(BAD))
def test_cli_exits_2_with_one_line(tmp_path, name):
    text, problem = BAD[name]
    (tmp_path / "old.json").write_text(GOOD)
    (tmp_path / "new.json").write_text(text)
    result = subprocess.run([sys.executable, "-m", "rules", "check", str(tmp_path / "old.json"),
                             str(tmp_path / "new.json")], cwd=REPO, capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.stderr
    assert result.stdout == ""
