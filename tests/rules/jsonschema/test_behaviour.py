"""Policy notes, modes, and the size of work: the behaviour around the rules."""
from __future__ import annotations

import json

import jsonschema
import pytest

import rules
from rules.jsonschema import AS_LATEST, LENIENT_NOTE, UNNAMED_NOTE
from rules.model import Format, Mode, Options, Policy, Severity, Source

OPEN_OLD = json.dumps({"properties": {"foo": {"type": "string"}}}, indent=2)
OPEN_NEW = json.dumps({"properties": {"foo": {"type": "string"}, "bar": {"type": "number"}}}, indent=2)


def _check(old: str, new: str, **kwargs) -> rules.Report:
    return rules.check(Source("old.json", old), Source("new.json", new), format=Format.JSONSCHEMA, **kwargs)


def test_lenient_states_its_assumption_once():
    report = _check(OPEN_OLD, OPEN_NEW)
    assert report.notes == (LENIENT_NOTE,) and report.compatible


CLOSED_OLD = json.dumps({"type": "object", "additionalProperties": False,
                         "properties": {"foo": {"type": "string"}}}, indent=2)


@pytest.mark.parametrize("old, new", [
    # a closed model: no undeclared name was ever written, the policy decides nothing
    (CLOSED_OLD, json.dumps({**json.loads(CLOSED_OLD), "properties": {
        "foo": {"type": "string"}, "bar": {"type": "number"}}})),
    # an open model whose declared property changed: undeclared names play no part
    (OPEN_OLD, OPEN_OLD.replace('"string"', '"integer"')),
    (OPEN_OLD, OPEN_OLD.replace('"string"}', '"string", "maxLength": 3}')),
    (CLOSED_OLD, CLOSED_OLD),
], ids=["closed-addition", "open-type-change", "open-constraint", "unchanged"])
def test_lenient_is_not_named_where_it_decided_nothing(old, new):
    assert _check(old, new).notes == ()


def test_github_output_has_no_policy_notice_for_a_closed_model(tmp_path, capsys):
    from rules.cli import main

    (tmp_path / "old.json").write_text(CLOSED_OLD)
    (tmp_path / "new.json").write_text(CLOSED_OLD.replace('"string"', '"integer"'))
    assert main(["check", str(tmp_path / "old.json"), str(tmp_path / "new.json"),
                 "--output", "github"]) == 1
    out = capsys.readouterr().out
    assert "::error " in out and "::notice" not in out and "lenient" not in out


def test_strict_has_no_note_and_breaks_on_open_model_addition():
    report = _check(OPEN_OLD, OPEN_NEW, options=Options(policy=Policy.STRICT))
    assert report.notes == () and not report.compatible
    assert [f.rule for f in report.findings] == ["JSONSCHEMA_PROPERTY_ADDED"]


def test_loosening_is_info_backward_and_error_forward_and_full():
    old = json.dumps({"type": "string", "maxLength": 10})
    new = json.dumps({"type": "string", "maxLength": 12})
    severities = {mode: [f.severity for f in _check(old, new, mode=mode).findings] for mode in Mode}
    assert severities == {Mode.BACKWARD: [Severity.INFO], Mode.FORWARD: [Severity.ERROR],
                          Mode.FULL: [Severity.ERROR]}


def test_no_schema_keyword_is_read_as_draft_07_and_as_2020_12():
    # In draft-07 `$ref` replaces its siblings; in 2020-12 (Python jsonschema's reading of a
    # schema naming no draft) both apply: {"a": "long"} fails it. A break under either counts.
    body = {"$defs": {"s": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/s", "maxLength": 3}}}
    old = json.dumps({"properties": {"a": {"type": "string"}}})
    assert jsonschema.Draft7Validator(body).is_valid({"a": "long"})
    assert not jsonschema.validators.validator_for(body)(body).is_valid({"a": "long"})
    report = _check(old, json.dumps(body))
    assert [(f.rule, f.message.endswith(AS_LATEST)) for f in report.findings] == [
        ("JSONSCHEMA_CONSTRAINT_TIGHTENED", True)]
    assert UNNAMED_NOTE in report.notes
    declared = dict(body, **{"$schema": "http://json-schema.org/draft-07/schema#"})
    assert _check(json.dumps({**json.loads(old), "$schema": declared["$schema"]}), json.dumps(declared)).findings == ()
    later = dict(body, **{"$schema": "https://json-schema.org/draft/2020-12/schema"})
    assert [f.rule for f in _check(old, json.dumps(later)).findings] == ["JSONSCHEMA_CONSTRAINT_TIGHTENED"]


def test_no_schema_keyword_read_as_2020_12_only_where_that_draft_accepts_the_file():
    # A draft-07 tuple `items` is no 2020-12 schema: only the draft-07 reading applies.
    old = json.dumps({"items": [{"type": "string"}]})
    new = json.dumps({"items": [{"type": "string"}], "dependentRequired": {"a": ["b"]}})
    report = _check(old, new)
    assert report.findings == () and UNNAMED_NOTE not in report.notes


def test_unversioned_schema_uri_is_read_as_the_latest_draft_with_a_note():
    # SARIF 2.1.0 says "http://json-schema.org/schema#": 2020-12 applies a $ref's siblings too.
    body = {"$schema": "http://json-schema.org/schema#", "$defs": {"s": {"type": "string"}},
            "properties": {"a": {"$ref": "#/$defs/s", "maxLength": 3}}}
    old = json.dumps({"$schema": "http://json-schema.org/schema#", "properties": {"a": {"type": "string"}}})
    report = _check(old, json.dumps(body))
    assert [f.rule for f in report.findings] == ["JSONSCHEMA_CONSTRAINT_TIGHTENED"]
    assert [n for n in report.notes if "2020-12" in n] == [
        "new.json: \"$schema\" 'http://json-schema.org/schema#' names no draft; it was read as the latest draft, 2020-12.",
        "old.json: \"$schema\" 'http://json-schema.org/schema#' names no draft; it was read as the latest draft, 2020-12."]


def _generated(records: int, fields: int, changed: bool) -> str:
    definitions = {}
    for r in range(records):
        props = {f"f{f}": {"type": ["string", "integer", "number", "boolean"][f % 4], "description": f"field {f}"}
                 for f in range(fields)}
        if changed and r % 2 == 0:
            props["f0"] = {"type": "integer"}
        definitions[f"Rec{r}"] = {"type": "object", "properties": props, "required": ["f0"],
                                  "additionalProperties": False}
    return json.dumps({"title": "Bench", "type": "object", "definitions": definitions,
                       "properties": {f"r{r}": {"$ref": f"#/definitions/Rec{r}"} for r in range(records)}},
                      indent=2)


def test_200_definitions_by_50_properties_reports_each_change_once():
    # Speed is measured in bench/run.py against peers, never asserted here.
    old, new = _generated(200, 50, False), _generated(200, 50, True)
    report = _check(old, new)
    assert len(report.findings) == 100 and not report.compatible


def test_closed_model_beside_a_ref_does_not_see_the_targets_properties():
    # 2020-12 applies a `$ref` beside its siblings; `additionalProperties` there sees only the
    # properties of its own object, so "a" (declared by the target) is now always rejected.
    import jsonschema
    old = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
           "$ref": "#/$defs/base", "$defs": {"base": {"properties": {"a": {"type": "string"}}}}}
    new = dict(old, additionalProperties=False)
    witness = {"a": "x"}
    assert jsonschema.Draft202012Validator(old).is_valid(witness)
    assert not jsonschema.Draft202012Validator(new).is_valid(witness)
    for policy in Policy:
        report = _check(json.dumps(old), json.dumps(new), options=Options(policy=policy))
        assert not report.compatible
        assert ("JSONSCHEMA_TYPE_NARROWED", "$.a", Severity.ERROR) in [
            (f.rule, f.path, f.severity) for f in report.findings]


def test_an_if_widened_into_a_closed_then_stays_an_error():
    """Old data the old `if` sent to the `else` (which declares `modules`) may now meet the `if`
    and its closed `then`: the whole old schema declares only `version`, so comparing the
    branches with it alone would miss the names the old conditional's branches declare."""
    old = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
           "required": ["version"], "properties": {"version": {"enum": ["v1", "v1beta1", "v2"]}},
           "if": {"properties": {"version": {"const": "v1"}}},
           "then": {"additionalProperties": False, "properties": {"version": {}, "name": {"type": "string"}}},
           "else": {"properties": {"modules": {"type": "array"}}}}
    new = {**old, "if": {"properties": {"version": {"enum": ["v1", "v1beta1"]}}}}
    witness = {"version": "v1beta1", "modules": []}  # the `jsonschema` library's verdicts:
    assert jsonschema.Draft7Validator(old).is_valid(witness)
    assert not jsonschema.Draft7Validator(new).is_valid(witness)
    report = _check(json.dumps(old), json.dumps(new), mode=Mode.BACKWARD)
    assert [(f.rule, f.severity) for f in report.findings] == [("JSONSCHEMA_CONDITION_CHANGED", Severity.ERROR)]
