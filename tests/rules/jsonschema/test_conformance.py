"""Confluent's JSON Schema diff examples: our verdicts under both policies, and where we point."""
from __future__ import annotations

import json
import re

import pytest

import rules
from rules.model import Format, Mode, Options, Policy, Severity, Source
from tests.shared import module_data

SHARED = module_data("conformance", "jsonschema")
FILES = ("diff-schema-examples.json", "normalized/diff-schema-examples-2020-12.json",
         "diff-combined-schema-examples.json", "diff-combined-schema-examples-2020-12.json")

# (file, index) -> why our verdict differs from Confluent's, with the verdict we give instead.
# The README lists these as known-imperfect cases where either answer is acceptable.
DEVIATIONS = {
    ("diff-schema-examples.json", 55): (False, "required [foo] -> [bar] with bar undeclared: old "
                                        "{\"foo\": \"\"} fails the new schema; Confluent skips required "
                                        "entries that name undeclared properties"),
    ("normalized/diff-schema-examples-2020-12.json", 57): (False, "same case as draft-07 #55"),
    ("diff-schema-examples.json", 87): (True, "additionalItems true -> false without array-form items: "
                                        "additionalItems has no effect, no instance changes validity"),
    ("diff-schema-examples.json", 88): (True, "additionalItems schema changed without array-form items: "
                                        "no effect on validation"),
}


def _cases():
    for name in FILES:
        for index, case in enumerate(json.loads((SHARED / name).read_text())):
            yield pytest.param(name, index, case, id=f"{name}#{index}")


def _check(case: dict, policy: Policy) -> rules.Report:
    old = Source("old.json", json.dumps(case["original_schema"], indent=2))
    new = Source("new.json", json.dumps(case["update_schema"], indent=2))
    return rules.check(old, new, format=Format.JSONSCHEMA, mode=Mode.BACKWARD,
                       options=Options(policy=policy))


@pytest.mark.parametrize("name,index,case", list(_cases()))
def test_verdict_matches_confluent(name, index, case):
    expected = {Policy.STRICT: case["compatible"],
                Policy.LENIENT: case.get("compatible_lenient", case["compatible"])}
    for policy, wanted in expected.items():
        report = _check(case, policy)
        if (name, index) in DEVIATIONS:
            wanted = DEVIATIONS[(name, index)][0]
        assert report.compatible == wanted, (policy, [f.to_json() for f in report.findings])
        if not report.compatible:
            assert any(f.severity is Severity.ERROR for f in report.findings)


def _properties(change: str) -> list[str]:
    """Property names on a Confluent change path ("X #/properties/a/items" -> ["a"])."""
    return re.findall(r"properties/([^/]+)", change.split(" ", 1)[1])


def _names(path: str) -> set[str]:
    """Property names on one of our paths ("$.a[].b/maxLength" -> {"a", "b"})."""
    return {plain or json.loads(f'"{quoted}"')
            for plain, quoted in re.findall(r'\.(\w+)|\["((?:[^"\\]|\\.)*)"\]', path)}


@pytest.mark.parametrize("name,index,case", list(_cases()))
def test_breaking_finding_is_where_confluent_points(name, index, case):
    report = _check(case, Policy.STRICT)
    if report.compatible or case["compatible"]:
        return
    errors = [f.path for f in report.findings if f.severity is Severity.ERROR]
    ours = [_names(path) for path in errors]
    # Some error names every property on at least one of Confluent's change paths.
    assert any(set(_properties(change)) <= names for change in case["changes"] for names in ours), \
        (errors, case["changes"])


def test_recursive_schema_diffed_with_itself_has_no_findings():
    text = (SHARED / "recursive-schema.json").read_text()
    for policy in Policy:
        report = rules.check(Source("a.json", text), Source("b.json", text),
                             options=Options(policy=policy))
        assert report.findings == ()


def test_recursive_schema_change_inside_the_cycle_is_found():
    text = (SHARED / "recursive-schema.json").read_text()
    changed = text.replace('"type": "integer"', '"type": "string"')
    report = rules.check(Source("a.json", text), Source("b.json", changed))
    assert [(f.rule, f.path) for f in report.findings] == [
        ("JSONSCHEMA_TYPE_CHANGED", "$.categories[].category_id")]
