"""A reference that does not resolve is never "compatible" (issue 18): on the head it is an error
naming the reference and the file it sits in (exit 2); on the base only, it does not block the
change that repairs it; a reference whose target is legitimately "anything" is fine. A URL no
schema file of either version declares points outside the repository: unchanged, it is fine
and noted as not read; changed, it is an error finding (exit 1).
Each case runs through both CLI doors: file mode and directory mode."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from rules.cli import main


def _obj(ref: str) -> str:
    return json.dumps({"type": "object", "properties": {"addr": {"$ref": ref}}}, indent=2)


ADDRESS = json.dumps({"type": "object", "properties": {"zip": {"type": "string"}}}, indent=2)
ADDRESS_URL = "https://example.com/address.schema.json"
BY_ID = json.dumps({"$id": ADDRESS_URL, "type": "object"}, indent=2)
DEFS = json.dumps({"$defs": {"address": {"type": "object"}}}, indent=2)
NO_DEFS = json.dumps({"$defs": {"other": {"type": "object"}}}, indent=2)
ORDER = json.dumps({"type": "record", "name": "Order", "namespace": "shop",
                    "fields": [{"name": "total", "type": "shop.Money"}]}, indent=2)
MONEY = json.dumps({"type": "record", "name": "Money", "namespace": "shop",
                    "fields": [{"name": "cents", "type": "long"}]}, indent=2)
PROTO_A = 'syntax = "proto3";\npackage shop;\nimport "b.proto";\nmessage A { B b = 1; }\n'
PROTO_B = 'syntax = "proto3";\npackage shop;\nmessage B { string x = 1; }\n'
BUF = {"buf.yaml": "version: v1"}  # each tree is a buf module: its imports resolve there
WARNED = "JSONSCHEMA_EXTERNAL_REF_CHANGED"  # the base's reference did not resolve: not checked
NOT_COMPARED = "so that version was not compared"
# The reproduction of the follow-up to issue 18: a SchemaStore-style reference by URL, unchanged
# beside a new optional property.
OUTSIDE = "https://json.schemastore.org/base.json#/definitions/foo"
EVENT = {"$id": "https://example.com/a.json", "type": "object",
         "properties": {"x": {"$ref": OUTSIDE}, "y": {"type": "string"}}}
EVENT_PLUS = json.dumps({**EVENT, "properties": {**EVENT["properties"], "z": {"type": "integer"}}})
UNREAD = "points outside the repository"


@dataclass(frozen=True)
class Case:
    old: dict[str, str]
    new: dict[str, str]
    checked: str  # the file given to file mode (directory mode checks every file)
    exit: int
    said: tuple[str, ...]  # in the output (stderr for exit 2): the reference and its file
    unsaid: tuple[str, ...] = field(default=())


A = "a.schema.json"
CASES = {
    # On the head: an error naming the reference and the file holding it.
    "json-missing-file": Case({A: _obj("address.schema.json"), "address.schema.json": ADDRESS},
                              {A: _obj("address.schema.json")}, A, 2,
                              ('$ref "address.schema.json" does not resolve', A)),
    "json-missing-file-behind-another": Case(
        {A: _obj("b.schema.json"), "b.schema.json": _obj("c.schema.json"), "c.schema.json": ADDRESS},
        {A: _obj("b.schema.json"), "b.schema.json": _obj("c.schema.json")}, A, 2,
        ('$ref "c.schema.json" does not resolve', "b.schema.json")),
    "json-missing-pointer": Case({A: _obj("defs.schema.json#/$defs/address"), "defs.schema.json": DEFS},
                                 {A: _obj("defs.schema.json#/$defs/address"), "defs.schema.json": NO_DEFS},
                                 A, 2, ('$ref "defs.schema.json#/$defs/address" does not point', A)),
    "json-missing-id": Case({A: _obj(ADDRESS_URL), "address.schema.json": BY_ID},
                            {A: _obj(ADDRESS_URL), "other.schema.json": ADDRESS}, A, 2,
                            (f'$ref "{ADDRESS_URL}" does not resolve: no schema file declares', A,
                             "address.schema.json declared it")),
    "json-relative-under-a-url-id": Case(
        {A: json.dumps({"$id": "https://example.com/a.json", **json.loads(_obj("b.schema.json"))}),
         "b.schema.json": json.dumps({"$id": "https://example.com/b.schema.json", "type": "object"})},
        {A: json.dumps({"$id": "https://example.com/a.json", **json.loads(_obj("b.schema.json"))})}, A, 2,
        ('$ref "b.schema.json" does not resolve', A)),
    "avro-unknown-type": Case({"order.avsc": ORDER, "money.avsc": MONEY},
                              {"order.avsc": ORDER.replace("shop.Money", "shop.Mony"), "money.avsc": MONEY},
                              "order.avsc", 2, ('unknown type "shop.Mony"', "order.avsc")),
    "avro-sibling-deleted": Case({"order.avsc": ORDER, "money.avsc": MONEY}, {"order.avsc": ORDER},
                                 "order.avsc", 2, ('unknown type "shop.Money"', "order.avsc")),
    "proto-missing-import": Case({**BUF, "a.proto": PROTO_A, "b.proto": PROTO_B}, {**BUF, "a.proto": PROTO_A},
                                 "a.proto", 2, ('import "b.proto" was not found', "a.proto")),
    # On the base only: the change that repairs it is not blocked, and says what was not compared.
    "json-base-missing-file": Case({A: _obj("address.schema.json")},
                                   {A: _obj("address.schema.json"), "address.schema.json": ADDRESS},
                                   A, 0, (WARNED, "address.schema.json")),
    "json-base-missing-pointer": Case({A: _obj("defs.schema.json#/$defs/address"), "defs.schema.json": NO_DEFS},
                                      {A: _obj("defs.schema.json#/$defs/address"), "defs.schema.json": DEFS},
                                      A, 0, (WARNED, "#/$defs/address")),
    "json-base-missing-id": Case({A: _obj(ADDRESS_URL)},
                                 {A: _obj(ADDRESS_URL), "address.schema.json": BY_ID}, A, 0,
                                 (WARNED, ADDRESS_URL)),
    "avro-base-unknown-type": Case({"order.avsc": ORDER}, {"order.avsc": ORDER, "money.avsc": MONEY},
                                   "order.avsc", 0, ('unknown type "shop.Money"', NOT_COMPARED)),
    "proto-base-missing-import": Case({**BUF, "a.proto": PROTO_A}, {**BUF, "a.proto": PROTO_A, "b.proto": PROTO_B},
                                      "a.proto", 0, ('import "b.proto" was not found', NOT_COMPARED)),
    # Outside the repository (no file of either set declares the URL): opaque, noted as not read.
    "json-outside-unchanged": Case({A: json.dumps(EVENT)}, {A: EVENT_PLUS}, A, 0,
                                   ("compatible (backward)", UNREAD, OUTSIDE), ("does not resolve", WARNED)),
    "json-outside-changed": Case({A: json.dumps(EVENT)}, {A: EVENT_PLUS.replace("/foo", "/bar")}, A, 1,
                                 (WARNED, UNREAD, OUTSIDE, OUTSIDE.replace("/foo", "/bar"))),
    # Resolvable, and legitimately "anything": fine.
    "json-target-true": Case({A: _obj("any.schema.json"), "any.schema.json": "true"},
                             {A: _obj("any.schema.json"), "any.schema.json": "true", "x.schema.json": "{}"},
                             A, 0, ("compatible",), ("does not resolve", WARNED)),
    "json-target-empty-object": Case(
        {A: json.dumps({"$defs": {"any": {}}, "properties": {"addr": {"type": "string"}}})},
        {A: json.dumps({"$defs": {"any": {}}, "properties": {"addr": {"$ref": "#/$defs/any"}}})},
        A, 0, ("JSONSCHEMA_TYPE_WIDENED",), ("does not resolve", WARNED)),
}


def _tree(root, files: dict[str, str]) -> None:
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text + "\n")


@pytest.mark.parametrize("door", ["files", "directories"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_a_reference_that_does_not_resolve_is_never_compatible(tmp_path, capsys, name, door):
    case = CASES[name]
    _tree(tmp_path / "old", case.old)
    _tree(tmp_path / "new", case.new)
    old, new = tmp_path / "old", tmp_path / "new"
    if door == "files":
        old, new = old / case.checked, new / case.checked
    code = main(["check", str(old), str(new)])
    out = capsys.readouterr()
    shown = out.err if case.exit == 2 else out.out
    assert code == case.exit, out
    for text in case.said:
        assert text in shown, out
    for text in case.unsaid:
        assert text not in out.out + out.err


MONEY_URL = "https://example.com/money.json"
# The declaring file sorts last; the others name the URL's last segment without declaring it.
BOUNDED = {A: _obj(MONEY_URL), **{f"b{i}.json": json.dumps({"description": "not money.json"})
                                  for i in range(3)},
           "z.json": json.dumps({"$id": MONEY_URL, "type": "integer"})}


@pytest.mark.parametrize("bound", ["rules.sources.MAX_WALKED", "rules.jsonschema.refs.MAX_SET_DOCUMENTS"])
def test_a_url_search_cut_short_by_a_bound_is_never_taken_for_outside(tmp_path, capsys, monkeypatch, bound):
    # Past the bound, the file declaring the URL may exist unread: exit 2 saying so (the
    # reference would otherwise pass as one outside the repository).
    module, _, name = bound.rpartition(".")
    monkeypatch.setattr(module + "." + name, 2)
    _tree(tmp_path / "old", BOUNDED)
    _tree(tmp_path / "new", BOUNDED)
    code = main(["check", str(tmp_path / "old" / A), str(tmp_path / "new" / A)])
    out = capsys.readouterr()
    assert code == 2, out
    assert f'$ref "{MONEY_URL}" was not checked: the search for a schema file declaring {MONEY_URL} stopped at' in out.err


@pytest.mark.parametrize("count, said", [(1, "points outside the repository (no schema file declares it); "
                                             "it was not read"),
                                         (2, "point outside the repository (no schema file declares them); "
                                             "they were not read")])
def test_the_unread_note_agrees_with_how_many_references_it_names(tmp_path, capsys, count, said):
    refs = {f"p{i}": {"$ref": f"https://example.com/unread-{i}.json"} for i in range(count)}
    schema = json.dumps({"$id": "https://example.com/a.json", "type": "object", "properties": refs})
    for side in ("old", "new"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "a.json").write_text(schema)
    assert main(["check", str(tmp_path / "old" / "a.json"), str(tmp_path / "new" / "a.json")]) == 0
    assert said in capsys.readouterr().out
