"""A document that names nothing (no `$id`, anchor or embedded `$schema`) is not crawled object
by object: `referencing` reads its root alone. Its references resolve all the same, and a
document that names something is crawled as before, so what it names is found."""
from __future__ import annotations

import json

import pytest
import referencing

from rules import jsontext
from rules.engine import check
from rules.jsonschema import keywords
from rules.jsonschema.drafts import Draft
from rules.jsonschema.refs import Refs
from rules.model import Source

RECORDS = 50


def document(named: dict | None = None) -> dict:
    definitions = {f"Record{r}": {"type": "object", "properties": {f"f{f}": {"type": "string"}
                                                                   for f in range(20)}}
                   for r in range(RECORDS)}
    definitions["Record7"].update(named or {})
    return {"definitions": definitions,
            "properties": {f"r{r}": {"$ref": f"#/definitions/Record{r}"} for r in range(RECORDS)}}


@pytest.fixture
def crawled(monkeypatch):
    """How many resources `referencing` asked for their subresources."""
    seen = []
    real = referencing.Resource.subresources
    monkeypatch.setattr(referencing.Resource, "subresources", lambda self: seen.append(1) or real(self))
    return seen


def refs_of(schema: dict, draft: Draft) -> tuple[object, Refs]:
    root = jsontext.loads(json.dumps(schema), "schema.json")
    refs = Refs(root, draft, "schema.json", keywords.walk(root))
    refs.check_all()
    return root, refs


@pytest.mark.parametrize("draft", list(Draft))
def test_a_document_naming_nothing_is_read_at_its_root_and_resolves(crawled, draft):
    root, refs = refs_of(document(), draft)
    assert len(crawled) <= 1  # was one for each of the ~1,100 schema objects
    for r in range(RECORDS):
        assert refs.resolve(root["properties"][f"r{r}"]) is root["definitions"][f"Record{r}"]
    assert not refs.unresolved


@pytest.mark.parametrize("draft, named, ref", [
    (Draft.DRAFT7, {"$id": "urn:example:record7"}, "urn:example:record7"),
    (Draft.DRAFT4, {"id": "urn:example:record7"}, "urn:example:record7"),
    (Draft.DRAFT7, {"$id": "#seven"}, "#seven"),
    (Draft.DRAFT2020, {"$anchor": "seven"}, "#seven"),
    (Draft.DRAFT2019, {"$anchor": "seven"}, "#seven"),
])
def test_what_a_document_names_is_found_by_crawling_it(crawled, draft, named, ref):
    schema = document(named)
    schema["properties"]["named"] = {"$ref": ref}
    root, refs = refs_of(schema, draft)
    assert len(crawled) > RECORDS
    assert refs.resolve(root["properties"]["named"]) is root["definitions"]["Record7"]


@pytest.mark.parametrize("draft", ["http://json-schema.org/draft-04/schema#",
                                   "http://json-schema.org/draft-07/schema#"])
def test_a_list_of_names_under_dependencies_is_not_crawled_as_a_schema(draft):
    """`referencing` takes every `dependencies` value for a subresource when the first is a
    schema, a list of names after it too, and crashed on it once the document named something
    (SchemaStore's tmlanguage.json)."""
    def schema(extra: dict) -> str:
        return json.dumps({"$schema": draft, "id" if "04" in draft else "$id": "https://example.com/p.json",
                           "definitions": {"pattern": {"type": "object", "properties": {
                               "begin": {"type": "string"}, "end": {"type": "string"}, **extra},
                               "dependencies": {"begin": {"required": ["end"]}, "end": ["begin"]}}},
                           "$ref": "#/definitions/pattern"})

    report = check(Source("p.json", schema({})), Source("p.json", schema({"name": {"type": "string"}})))
    assert report.compatible and not report.findings
