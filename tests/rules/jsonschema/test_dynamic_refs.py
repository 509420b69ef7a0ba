"""Dynamic references (2020-12 `$dynamicRef`, 2019-09 `$recursiveRef`) are references (issue 18
item 2 follow-up): one that does not resolve is the same error as a `$ref`'s, one to a URL no
file declares is outside the repository, and a resolvable one is compared by its target (the
checked document's anchor when it declares one), never read as "anything". Each verdict is
borne out on a concrete record by the `jsonschema` library. Both CLI doors: files, directories."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import jsonschema
import pytest
import referencing
import referencing.jsonschema

from rules.cli import main

D2020 = "https://json-schema.org/draft/2020-12/schema"
D2019 = "https://json-schema.org/draft/2019-09/schema"
A = "a.schema.json"
OLD_AGE = {"type": "object", "properties": {"age": {"type": "integer"}}}


def _age(draft: str, age: dict, **more) -> dict:
    return {"$schema": draft, "type": "object", "properties": {"age": age}, **more}


# A generic list whose items are whatever the outermost `$dynamicAnchor: "item"` says.
LIST_URL = "https://example.com/list.json"
LIST = {"$schema": D2020, "$id": LIST_URL, "type": "array", "items": {"$dynamicRef": "#item"},
        "$defs": {"item": {"$dynamicAnchor": "item"}}}


def _ages(item: dict | None, via: str = "list.json") -> dict:
    doc = {"$schema": D2020, "$id": "https://example.com/a.json", "type": "object",
           "properties": {"ages": {"$ref": via}}}
    return doc if item is None else {**doc, "$defs": {"item": {"$dynamicAnchor": "item", **item}}}


OLD_AGES = {"type": "object", "properties": {"ages": {"type": "array", "items": {"type": "integer"}}}}
MID_URL = "https://example.com/mid.json"
# Between the checked document and the list: a third resource declaring the anchor.
MID = {"$schema": D2020, "$id": MID_URL, "$ref": "list.json",
       "$defs": {"item": {"$dynamicAnchor": "item", "type": "string"}}}


@dataclass(frozen=True)
class Case:
    new: dict  # the checked file
    exit: int
    said: tuple[str, ...]
    record: object  # a record that shows what the head means
    new_accepts: bool | None  # jsonschema's verdict on it under NEW (None: NEW cannot be used)
    others: dict = field(default_factory=dict)  # the head's other files, name -> schema
    old: dict = field(default_factory=lambda: OLD_AGE)
    unsaid: tuple[str, ...] = ("JSONSCHEMA_TYPE_WIDENED", "to anything")


CASES = {
    # The reproductions: each was "from integer to anything", compatible, exit 0.
    "dynamic-ref-missing-file": Case(_age(D2020, {"$dynamicRef": "other.schema.json#x"}), 2,
                                     ('$dynamicRef "other.schema.json#x" does not resolve', A),
                                     {"age": 5}, None),
    "dynamic-ref-missing-anchor": Case(_age(D2020, {"$dynamicRef": "#nope"}), 2,
                                       ('$dynamicRef "#nope" does not point at anything in this file', A),
                                       {"age": 5}, None),
    "dynamic-ref-outside-url": Case(_age(D2020, {"$dynamicRef": "https://example.com/x.json#x"}), 1,
                                    ("JSONSCHEMA_EXTERNAL_REF_CHANGED", "points outside the repository"),
                                    {"age": 5}, None),
    # 2019-09 defines only "#"; jsonschema reads any value as "#" (here: the object root).
    "recursive-ref-not-root": Case(_age(D2019, {"$recursiveRef": "#nope"}), 2,
                                   ('$recursiveRef "#nope" is not supported', A), {"age": 5}, False),
    # A draft that does not define the keyword: its readers ignore it, others follow it.
    "dynamic-ref-in-draft-07": Case({"type": "object", "properties": {"age": {"$dynamicRef": "#nope"}}}, 2,
                                    ('$dynamicRef "#nope" was not checked: draft-07', A), {"age": 5}, None),
    "recursive-ref-in-2020-12": Case(_age(D2020, {"$recursiveRef": "#"}), 2,
                                     ('$recursiveRef "#" was not checked: 2020-12', A), {"age": 5}, True),
    # Resolvable: compared by the target.
    "dynamic-ref-by-pointer-changed": Case(
        _age(D2020, {"$dynamicRef": "#/$defs/s"}, **{"$defs": {"s": {"type": "string"}}}), 1,
        ("JSONSCHEMA_TYPE_CHANGED",), {"age": 5}, False),
    "dynamic-ref-by-pointer-same": Case(
        _age(D2020, {"$dynamicRef": "#/$defs/i"}, **{"$defs": {"i": {"type": "integer"}}}), 0,
        ("compatible",), {"age": 5}, True),
    "recursive-ref-to-the-root": Case(
        {"$schema": D2019, "$recursiveAnchor": True, "type": "object",
         "properties": {"age": {"type": "integer"}, "child": {"$recursiveRef": "#"}}},
        1, ("JSONSCHEMA_TYPE_CHANGED",), {"child": "x"}, False,
        old={"type": "object", "properties": {"age": {"type": "integer"}, "child": {"type": "string"}}}),
    # Bookended: the outermost resource declaring the anchor (the checked document) decides.
    "dynamic-anchor-of-the-checked-document-same": Case(_ages({"type": "integer"}), 0, ("compatible",),
                                                        {"ages": [5]}, True, {"list.json": LIST}, OLD_AGES),
    "dynamic-anchor-of-the-checked-document-changed": Case(
        _ages({"type": "string"}), 1, ("JSONSCHEMA_TYPE_CHANGED",), {"ages": [5]}, False,
        {"list.json": LIST}, OLD_AGES),
    "dynamic-anchor-in-between-is-not-guessed": Case(
        _ages(None, via="mid.json"), 2,
        ('$dynamicRef "#item" was not checked: its target depends on the dynamic scope',
         'mid.json also declares $dynamicAnchor "item"'), {"ages": [5]}, False,
        {"list.json": LIST, "mid.json": MID}, OLD_AGES),
}


def _tree(root, files: dict[str, dict]) -> None:
    root.mkdir()
    for name, schema in files.items():
        (root / name).write_text(json.dumps(schema, indent=2) + "\n")


@pytest.mark.parametrize("door", ["files", "directories"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_a_dynamic_reference_is_resolved_like_a_ref(tmp_path, capsys, name, door):
    case = CASES[name]
    _tree(tmp_path / "old", {A: case.old, **case.others})
    _tree(tmp_path / "new", {A: case.new, **case.others})
    old, new = tmp_path / "old", tmp_path / "new"
    if door == "files":
        old, new = old / A, new / A
    code = main(["check", str(old), str(new)])
    out = capsys.readouterr()
    assert code == case.exit, out
    for text in case.said:
        assert text in (out.err if code == 2 else out.out), out
    for text in case.unsaid:
        assert text not in out.out + out.err


def _registry(others: dict) -> referencing.Registry:
    return referencing.Registry().with_resources(
        (schema["$id"], referencing.Resource.from_contents(schema)) for schema in others.values())


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_verdict_is_what_the_jsonschema_library_makes_of_a_record(name):
    case = CASES[name]
    assert jsonschema.validators.validator_for(case.old)(case.old).is_valid(case.record)
    new = jsonschema.validators.validator_for(case.new)(case.new, registry=_registry(case.others))
    if case.new_accepts is None:  # no validator can use the head: never "compatible"
        with pytest.raises(referencing.exceptions.Unresolvable):
            new.validate(case.record)
        assert case.exit != 0
    else:
        assert new.is_valid(case.record) is case.new_accepts
        if case.exit != 2:  # exit 2 fails closed whatever this reader says (NOT_IN_DRAFT)
            assert (case.exit == 0) is case.new_accepts  # OLD accepts, NEW rejects: an error


def test_a_recursive_ref_in_2020_12_means_what_the_reader_makes_of_it():
    # Ignored by 2020-12 readers (above), followed by 2019-09 ones: not read as "anything".
    schema = CASES["recursive-ref-in-2020-12"].new
    assert not jsonschema.Draft201909Validator(schema).is_valid({"age": 5})


# Messages (LOW): a `$ref` outside the checkout names the reference alone; a missing pointer
# names the file it was looked for in.
def test_a_ref_outside_the_checkout_is_named_by_the_reference_alone(tmp_path, capsys):
    outside = tmp_path / "elsewhere" / "x.json"
    outside.parent.mkdir()
    outside.write_text(json.dumps({"type": "string"}))
    ref = "../elsewhere/x.json"
    for side in ("old", "new"):
        _tree(tmp_path / side, {A: {"type": "object", "properties": {"age": {"$ref": ref}}}})
    code = main(["check", str(tmp_path / "old" / A), str(tmp_path / "new" / A)])
    out = capsys.readouterr()
    assert code == 2, out
    assert f'$ref "{ref}" does not resolve: it points outside the checkout, which is never read' in out.err
    assert str(outside) not in out.out + out.err and "no schema file" not in out.err


def test_a_missing_pointer_names_the_file_it_was_looked_for_in(tmp_path, capsys):
    order = {"type": "object", "properties": {"price": {"$ref": "common.schema.json#/$defs/Money"}}}
    money = {"$defs": {"Money": {"type": "integer"}}}
    _tree(tmp_path / "old", {"order.schema.json": order, "common.schema.json": money})
    _tree(tmp_path / "new", {"order.schema.json": order, "common.schema.json": {"$defs": {}}})
    code = main(["check", str(tmp_path / "old"), str(tmp_path / "new")])
    out = capsys.readouterr()
    assert code == 2, out
    line = next(line for line in out.err.splitlines() if "does not point at anything" in line)
    assert "order.schema.json" in line and line.endswith("does not point at anything in "
                                                         f"{tmp_path / 'new' / 'common.schema.json'}"), line
