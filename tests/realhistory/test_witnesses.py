"""The instance confirmation behind bench/results/jsonschema-instances.md: what counts as a
witness (the `jsonschema` library's word, lenient names), what the generator reaches, and that
an unconfirmed finding is listed, never dropped."""
import json

import pytest

from tests.realhistory import confirm
from tests.realhistory.conditionals import conditional_documents
from tests.realhistory.siblings import sibling_documents
from tests.realhistory.witnesses import Confirmer, generated

BRANCHES = {"properties": {"t": {}}, "oneOf": [
    {"properties": {"a": {}}, "required": ["a"]},
    {"properties": {"b": {"type": "number"}}, "required": ["b"]}]}
REFERRED = {"definitions": {"T": {"properties": {"a": {"type": "number"}}}},
            "properties": {"t": {"$ref": "#/definitions/T"}}}
SHARED = {"definitions": {"B": {"properties": {"a": {"type": "number"}}}},
          "allOf": [{"$ref": "#/definitions/B"}], "properties": {"c": {}}}

# (name, old, new, instance, lenient, confirmed)
CONFIRMATIONS = [
    ("made required", {"properties": {"a": {}}}, {"properties": {"a": {}}, "required": ["a"]},
     {}, True, True),
    ("invalid under old", {"properties": {"a": {"type": "string"}}}, {"required": ["a"]},
     {"a": 1}, False, False),
    ("valid under new", {"properties": {"a": {}}}, {"properties": {"a": {"type": "string"}}},
     {"a": "x"}, True, False),
    ("undeclared name, lenient", {"properties": {"a": {}}},
     {"properties": {"a": {}, "b": {"type": "string"}}}, {"b": 1}, True, False),
    ("undeclared name, strict", {"properties": {"a": {}}},
     {"properties": {"a": {}, "b": {"type": "string"}}}, {"b": 1}, False, True),
    ("a required name is declared", {"required": ["id"], "properties": {"v": {}}},
     {"required": ["id"], "properties": {"v": {}, "id": {"type": "string"}}}, {"id": None},
     True, True),
    ("name the matched branch declares", BRANCHES,
     {**BRANCHES, "oneOf": [BRANCHES["oneOf"][0], {"properties": {"b": {"type": "string"}}}]},
     {"b": 1, "t": 1}, True, True),
    ("name no branch it matches declares", BRANCHES, {"properties": {"c": {"type": "string"}}},
     {"b": 1, "c": 1}, True, False),
    ("name a referenced definition declares", REFERRED,
     {**REFERRED, "definitions": {"T": {"properties": {"a": {"type": "string"}}}}},
     {"t": {"a": 1}}, True, True),
    ("name beside a referenced definition", REFERRED, {"properties": {"t": {"properties": {
        "z": {"type": "string"}}}}}, {"t": {"z": 1}}, True, False),
    ("a definition used as an allOf branch is not closed alone", SHARED,
     {"properties": {"c": {"type": "string"}}}, {"a": 1, "c": 1}, True, True),
    ("draft-04 exclusive bound kept in the closed check",
     {"$schema": "http://json-schema.org/draft-04/schema#",
      "properties": {"n": {"minimum": 0, "exclusiveMinimum": True}}},
     {"properties": {"n": {"minimum": 5}}}, {"n": 3}, True, True),
    ("draft-07 ignores the keywords beside a $ref, in the closed check too",
     {"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/T",
      "type": "object", "definitions": {"T": {"properties": {"a": {}}}}},
     {"type": "object"}, "x", True, True),
    ("a remote reference is never fetched: not confirmed", {"properties": {"a": {}}},
     {"properties": {"a": {"$ref": "https://example.invalid/x.json"}}}, {"a": 1}, True, False),
]


@pytest.mark.parametrize("old,new,instance,lenient,confirmed",
                         [c[1:] for c in CONFIRMATIONS], ids=[c[0] for c in CONFIRMATIONS])
def test_a_witness_is_what_the_library_says(old, new, instance, lenient, confirmed):
    assert Confirmer(old, new, lenient=lenient).confirms(instance) is confirmed


RESOURCE = {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}},
            "oneOf": [{"required": ["type", "path"], "additionalProperties": False,
                       "properties": {"type": {"const": "a.v0"}, "path": {"type": "string"}}},
                      {"required": ["type"], "additionalProperties": False,
                       "properties": {"type": {"const": "b.v0"}, "image": {"type": "string"}}}]}
KINDS = [f"k{n}.v0" for n in range(12)]  # enough that the values at the place use up the budget


def _resources(kinds: list, added: tuple = ()) -> dict:
    """A map of resources told apart by "type": one alternative per kind, the added ones, and
    an extension taking every other type."""
    claimed = kinds + [each["properties"]["type"]["const"] for each in added]
    return {"properties": {"r": {"additionalProperties": {
        "type": "object", "required": ["type"], "properties": {"type": {"type": "string"}},
        "oneOf": [*({"required": ["type", "p"], "additionalProperties": False,
                     "properties": {"type": {"const": kind}, "p": {"type": "string"}}} for kind in kinds),
                  *added, {"properties": {"type": {"not": {"enum": claimed}}}}]}}}}


# (name, old, new, a finding's path): the generator alone finds a confirmed witness.
PATTERN = {"oneOf": [{"type": "string"}, {"type": "object", "properties": {"regex": {"type": "string"}}}]}
REACHED = [
    ("a removed list whose items were strings or objects, the new catch-all taking strings only",
     {"type": "object", "properties": {"urls": {"type": "array", "items": {"$ref": "#/definitions/p"}}},
      "definitions": {"p": PATTERN}},
     {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}},
      "definitions": {"p": PATTERN}}, "$.urls"),
    ("enum narrowed", {"properties": {"k": {"enum": ["a", "b"]}}},
     {"properties": {"k": {"enum": ["a"]}}}, "$.k/enum"),
    ("type narrowed in a map", {"properties": {"m": {"additionalProperties": {"type": ["string", "number"]}}}},
     {"properties": {"m": {"additionalProperties": {"type": "string"}}}}, "$.m.*"),
    ("a map whose names have a pattern", {"properties": {"m": {
        "propertyNames": {"pattern": "^[a-z]+\\.[a-z]+$"},
        "additionalProperties": {"properties": {"v": {}}}}}},
     {"properties": {"m": {"propertyNames": {"pattern": "^[a-z]+\\.[a-z]+$"},
                           "additionalProperties": {"properties": {"v": {}, "range": {}},
                                                    "required": ["range"]}}}}, "$.m.*.range"),
    ("unique items", {"properties": {"l": {"type": "array"}}},
     {"properties": {"l": {"type": "array", "uniqueItems": True}}}, "$.l/uniqueItems"),
    ("required in a second alternative", {"properties": {"r": {"additionalProperties": RESOURCE}}},
     {"properties": {"r": {"additionalProperties": {**RESOURCE, "oneOf": [
         RESOURCE["oneOf"][0], {**RESOURCE["oneOf"][1], "required": ["type", "image"]}]}}}},
     "$.r.*/oneOf[1].image"),
    ("unique items of an enum", {"properties": {"o": {"properties": {"lib": {
        "type": "array", "items": {"enum": ["ES5", "ES6"]}}}}}},
     {"properties": {"o": {"properties": {"lib": {
         "type": "array", "uniqueItems": True, "items": {"enum": ["ES5", "ES6"]}}}}}},
     "$.o.lib/uniqueItems"),
    ("two unique items, mended inside the alternative that came closest",
     {"definitions": {"core": {"properties": {"m": {"type": "string"}}}},
      "properties": {"r": {"oneOf": [{"type": "null"}, {
          "type": "array", "minItems": 2, "maxItems": 2, "uniqueItems": True,
          "items": {"anyOf": [{"type": "string", "enum": ["always"]}, {"$ref": "#/definitions/core"}]}}]}}},
     {"definitions": {"core": {"type": "object", "properties": {"m": {"type": "string"}}}},
      "properties": {"r": {"oneOf": [{"type": "null"}, {
          "type": "array", "minItems": 2, "maxItems": 2, "uniqueItems": True,
          "items": {"anyOf": [{"type": "string", "enum": ["always"]}, {"$ref": "#/definitions/core"}]}}]}}},
     "$.r/oneOf[1][]/anyOf[0]"),
    ("a place behind two alternatives",
     {"anyOf": [{"required": ["d"], "properties": {"d": {"anyOf": [
         {"properties": {"r": {"properties": {"l": {"type": "string"}}}}}]}}}]},
     {"anyOf": [{"required": ["d"], "properties": {"d": {"anyOf": [
         {"properties": {"r": {"properties": {"l": {"type": "integer"}}}}}]}}}]},
     "$/anyOf[0].d/anyOf[0].r.l"),
    ("an empty name a propertyNames pattern now refuses",
     {"properties": {"t": {"additionalProperties": {"type": "object"}}}},
     {"properties": {"t": {"additionalProperties": {"type": "object"}, "propertyNames": {"pattern": "^\\w"}}}},
     "$.t/propertyNames/pattern"),
    ("a discriminator value only the new alternatives refuse",
     {"properties": {"r": {"additionalProperties": {
         "type": "object", "required": ["type"], "properties": {"type": {"type": "string"}},
         "oneOf": [{"properties": {"type": {"const": "a"}, "x": {}}, "required": ["x"]},
                   {"properties": {"type": {"not": {"enum": ["a"]}}}}]}}}},
     {"properties": {"r": {"additionalProperties": {
         "type": "object", "required": ["type"], "properties": {"type": {"type": "string"}},
         "oneOf": [{"properties": {"type": {"const": "a"}, "x": {}}, "required": ["x"]},
                   {"properties": {"type": {"const": "b"}, "y": {}}, "required": ["y"]},
                   {"properties": {"type": {"not": {"enum": ["a", "b"]}}}}]}}}},
     "$.r.*/oneOf[2]"),
    ("an extension's type a new alternative claims, the finding at another alternative",
     _resources(KINDS), _resources(KINDS, ({"required": ["type", "image"], "additionalProperties": False,
                                           "properties": {"type": {"const": "new.v1"}, "image": {}}},)),
     "$.r.*/oneOf[1].p"),
    ("a map that needs an entry its pattern names",
     {"required": ["news"], "properties": {
         "news": {"type": "object", "minProperties": 1, "additionalProperties": False,
                  "patternProperties": {"^\\d+$": {"type": "string"}}},
         "lic": {"enum": ["GPL", "MIT"]}}},
     {"required": ["news"], "properties": {
         "news": {"type": "object", "minProperties": 1, "additionalProperties": False,
                  "patternProperties": {"^\\d+$": {"type": "string"}}},
         "lic": {"enum": ["MIT"]}}},
     "$.lic"),
    ("renamed: old data holds the old name",
     {"properties": {"c": {"additionalProperties": False, "properties": {"titleLink": {"type": "string"}}}}},
     {"properties": {"c": {"additionalProperties": False, "properties": {"title_link": {"type": "string"}}}}},
     "$.c.title_link"),
    ("a start mended to meet a pattern and a bound", {
        "required": ["icon", "size", "pages"],
        "properties": {"icon": {"type": "string", "pattern": "\\.png$"}, "size": {"minimum": 46},
                       "pages": {"type": "array", "items": {"required": ["layout"]}}}},
     {"required": ["icon", "size", "pages"],
      "properties": {"icon": {"type": "string", "pattern": "\\.png$"}, "size": {"minimum": 46},
                     "pages": {"type": "array", "items": {"type": "object", "required": ["layout"]}}}},
     "$.pages[]"),
]


@pytest.mark.parametrize("old,new,path", [c[1:] for c in REACHED], ids=[c[0] for c in REACHED])
def test_the_generator_reaches_the_break(old, new, path):
    confirmer = Confirmer(old, new, lenient=True)
    assert any(confirmer.confirms(document)
               for document in generated(old, new, path, confirmer.mend))


VERSIONED = {"type": "object", "required": ["version"],
             "properties": {"version": {"enum": ["v1", "v1beta1", "v2"]}},
             "if": {"properties": {"version": {"const": "v1"}}},
             "then": {"additionalProperties": False, "properties": {"version": {}, "name": {"type": "string"}}},
             "else": {"properties": {"inputs": {"type": "array", "items": {
                 "type": "object", "additionalProperties": False,
                 "properties": {"directory": {"type": "string"}, "include": {"type": "array"}}}}}}}
SCRIPT = {"type": "object", "additionalProperties": False, "required": ["script"],
          "properties": {"script": {"type": "string"}, "print": {"type": "boolean"}}}


def _tasks(script: dict) -> dict:
    """A list of task kinds, one kind a sequence of tasks whose items wrap them in an allOf."""
    closed = {"type": "object", "additionalProperties": False}
    return {"type": "object", "properties": {"tasks": {"type": "array", "items": {"$ref": "#/definitions/task"}}},
            "definitions": {
                "task": {"oneOf": [{"$ref": "#/definitions/cmd"}, {"$ref": "#/definitions/seq"},
                                   {"$ref": "#/definitions/script"}]},
                "cmd": {**closed, "required": ["cmd"], "properties": {"cmd": {"type": "string"}}},
                "seq": {**closed, "required": ["seq"], "properties": {"seq": {"type": "array", "items": {"allOf": [
                    {"$ref": "#/definitions/task"}, {"if": {"type": "object"}, "then": {"type": "object"}}]}}}},
                "script": script}}


# (name, old, new, the finding's path): a break only a document taking a branch shows.
CONDITIONAL = [
    ("an if widened: old data now meets it and fails the closed then", VERSIONED,
     {**VERSIONED, "if": {"properties": {"version": {"enum": ["v1", "v1beta1"]}}}}, "$/if"),
    ("a property renamed deep in the else", VERSIONED,
     {**VERSIONED, "else": {"properties": {"inputs": {"type": "array", "items": {
         "type": "object", "additionalProperties": False,
         "properties": {"directory": {"type": "string"}, "paths": {"type": "array"}}}}}}}, "$/if"),
    ("a conditional inside an allOf, its then a reference",
     {"definitions": {"T": {"properties": {"tags": {"type": "array", "items": [{"enum": ["a", "b"]}]}}}},
      "allOf": [{"if": {"properties": {"kind": {"const": "t"}}}, "then": {"$ref": "#/definitions/T"}}]},
     {"definitions": {"T": {"properties": {"tags": {"type": "array", "items": {"enum": ["a", "b"]}}}}},
      "allOf": [{"if": {"properties": {"kind": {"const": "t"}}}, "then": {"$ref": "#/definitions/T"}}]},
     "$/if"),
    ("a conditional in a task kind reached through a list of task kinds under an allOf",
     _tasks(SCRIPT), _tasks({**SCRIPT, "if": {"properties": {"script": {"pattern": "^[^:]*$"}}, "required": ["script"]},
                             "then": {"properties": {"print": False}}}),
     "$.tasks[]/oneOf[1].seq[]/oneOf[2]/if"),
]


@pytest.mark.parametrize("old,new,path", [c[1:] for c in CONDITIONAL], ids=[c[0] for c in CONDITIONAL])
def test_a_conditional_break_is_reached_inside_its_branch(old, new, path):
    confirmer = Confirmer(old, new, lenient=True)
    assert not any(confirmer.confirms(document) for document in generated(old, new, path, confirmer.mend))
    assert any(confirmer.confirms(document)
               for document in conditional_documents(old, new, path, confirmer.mend))


def _listed_twice(unique: bool) -> dict:
    """tsconfig.json's shape: each anyOf alternative (inside an allOf member) declares one list."""
    def listing(items: dict) -> dict:
        return {"type": "array", "items": items, **({"uniqueItems": True} if unique else {})}
    return {"$schema": "http://json-schema.org/draft-04/schema#", "allOf": [
        {"properties": {"compileOnSave": {"type": "boolean"}}},
        {"anyOf": [{"properties": {"files": listing({"type": "string"})}},
                   {"properties": {"references": listing({"type": "object", "properties": {
                       "path": {"type": "string"}}})}}]}]}


# (name, old, new, the finding's path): a break only a document every alternative refuses shows.
SIBLINGS = [
    ("uniqueItems added in one alternative and in its sibling too", _listed_twice(False),
     _listed_twice(True), "$/anyOf[0].files/uniqueItems"),
    ("... seen from the sibling, whose items are objects", _listed_twice(False),
     _listed_twice(True), "$/anyOf[1].references/uniqueItems"),
]


@pytest.mark.parametrize("old,new,path", [c[1:] for c in SIBLINGS], ids=[c[0] for c in SIBLINGS])
def test_a_break_every_alternative_shares_is_reached_in_all_of_them(old, new, path):
    confirmer = Confirmer(old, new, lenient=True)
    assert not any(confirmer.confirms(document) for document in generated(old, new, path, confirmer.mend))
    assert any(confirmer.confirms(document) for document in sibling_documents(old, new, path, confirmer))


def test_no_sibling_document_where_a_sibling_is_unchanged():
    old, new = _listed_twice(False), _listed_twice(True)
    new["allOf"][1]["anyOf"][1] = old["allOf"][1]["anyOf"][1]  # the sibling takes any old list
    confirmer = Confirmer(old, new, lenient=True)
    assert not any(confirmer.confirms(document)
                   for document in sibling_documents(old, new, "$/anyOf[0].files/uniqueItems", confirmer))


def _pair(tmp_path, old, new):
    for side, schema in (("o", old), ("n", new)):
        target = tmp_path / "trees" / "r+s" / side / "s.json"
        target.parent.mkdir(parents=True)
        target.write_text(json.dumps(schema))
    return {"repo": "r/s", "format": "jsonschema", "file": "s.json", "old_file": "s.json",
            "old": "o", "new": "n", "root": ""}


def test_a_real_break_is_confirmed_by_both_sources(tmp_path):
    pair = _pair(tmp_path, {"properties": {"a": {"type": "string"}}},
                 {"properties": {"a": {"type": "string"}}, "required": ["a"]})
    row = confirm.judge(pair, tmp_path / "trees")
    assert [(f["rule"], f["engine"], f["generator"]) for f in row["findings"]] == [
        ("JSONSCHEMA_PROPERTY_MADE_REQUIRED", True, True)]


def test_an_unconfirmed_finding_is_listed_with_its_rule():
    rows = [{"repo": "a/r", "file": "a/x.json", "old": "1" * 40, "new": "2" * 40, "findings": [
                {"rule": "JSONSCHEMA_ONEOF_BRANCH_OVERLAPS", "path": "$.r|x/oneOf[1]",
                 "engine": False, "generator": False}]},
            {"repo": "a/r", "file": "a/y.json", "old": "3" * 40, "new": "4" * 40, "findings": [
                {"rule": "JSONSCHEMA_ENUM_NARROWED", "path": "$.k", "engine": True, "generator": True}]},
            {"repo": "a/r", "file": "a/z.json", "old": "5" * 40, "new": "6" * 40, "unusable": "Unresolved y.json"}]
    text = confirm.render(rows, argv=["--pairs", "X"], seconds=1)
    assert "| a/r | 3 | 2 | 2 | 2 | 1 | 1 | 1 |" in text
    assert "| `JSONSCHEMA_ONEOF_BRANCH_OVERLAPS` | 1 | 1 |" in text
    assert ("| `x.json` | 11111111 → 22222222 | `JSONSCHEMA_ONEOF_BRANCH_OVERLAPS` "
            "| `$.r\\|x/oneOf[1]` |") in text  # the schema's pipe cannot split the row
    assert "unresolved reference to another file 1" in text
