"""References outside the repository: each error verdict of the rule cases is borne out by a
record valid under OLD and invalid under NEW (checked with the `jsonschema` library) once the
unread target is given a plausible content; each clean verdict holds whatever the target is."""
from __future__ import annotations

import json

import jsonschema
import pytest
import referencing
import referencing.jsonschema

from tests.rules.casedata import discover

OUTSIDE = "https://json.schemastore.org/base.json"
# Plausible contents for the unread document (the cases point at #/definitions/foo and /bar).
TARGETS = (
    {"definitions": {"foo": {"type": "integer"}, "bar": {"type": "string"}}},
    {"definitions": {"foo": {"type": "string"}, "bar": {"type": "integer"}}},
    {"definitions": {"foo": {}, "bar": {}}},
)
CASES = {case.folder.name: case for case in discover()}
# case -> a record valid under OLD and invalid under NEW for some target (backward break)
BREAKS = {
    "other-external-uri": {"x": 1},
    "external-replaced-by-a-schema": {"x": 1},
    "constraint-replaced-by-an-external": {"x": "a"},
    "external-schema-open-model-strict": {"x": "a"},
    "beside-an-unchanged-external-ref": {"x": "abcdefg"},
}
# case -> records to try: valid under OLD means valid under NEW, for every target
CLEAN = {
    "same-external-is-clean": ({"x": 1, "y": "a"}, {"x": "s"}, {}),
    "same-external-beside-an-added-optional-property-is-clean": ({"x": 1, "y": "a"}, {"x": "s"}),
    "added-optional-external-property-lenient-is-clean": ({"y": "a"}, {}),  # undeclared names unwritten
}


def _valid(case, side: str, record, target) -> bool:
    schema = json.loads((case.folder / f"{side}.json").read_text())
    registry = referencing.Registry().with_resource(
        OUTSIDE, referencing.Resource.from_contents(target, referencing.jsonschema.DRAFT7))
    return jsonschema.Draft7Validator(schema, registry=registry).is_valid(record)


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_an_error_verdict_has_a_record_that_breaks_under_some_target(name):
    case, record = CASES[name], BREAKS[name]
    assert not case.run().compatible
    assert any(_valid(case, "old", record, t) and not _valid(case, "new", record, t) for t in TARGETS)


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_a_clean_verdict_holds_whatever_the_target(name):
    case = CASES[name]
    assert case.run().compatible
    for target in TARGETS:
        for record in CLEAN[name]:
            assert not _valid(case, "old", record, target) or _valid(case, "new", record, target)


@pytest.mark.parametrize("name", sorted({**BREAKS, **CLEAN}))
def test_every_run_notes_the_references_it_did_not_read(name):
    notes = [n for n in CASES[name].run().notes if "points outside the repository" in n]
    assert notes and all(OUTSIDE in n for n in notes)
    assert len(notes) == len(set(notes))
