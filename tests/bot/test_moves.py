"""A type moved to a new file is compared with where it came from, whatever the file names."""
import json
from dataclasses import replace

import pytest

from bot.review import moves
from bot.config.config import Config
from bot.review.moves import features, identities, paired, similarity
from bot.review.review import FileChange, FileStatus
from rules import Format

AVRO = '{"type": "record", "name": "%s", "namespace": "acme", "fields": []}'


@pytest.mark.parametrize("fmt,text,expected", [
    (Format.AVRO, AVRO % "U", {"acme.U"}),
    (Format.AVRO, '{"type": "record", "name": "x.y.U", "namespace": "acme", "fields": []}', {"x.y.U"}),
    (Format.AVRO, '["null", "string"]', set()),
    # a top-level union defines its named members
    (Format.AVRO, '["null", %s, {"type": "enum", "name": "x.E", "symbols": ["A"]}]' % (AVRO % "U"),
     {"acme.U", "x.E"}),
    (Format.PROTOBUF, 'syntax="proto3"; package a.v1; message M { message N {} } enum E { X = 0; }',
     {"a.v1.M", "a.v1.M.N", "a.v1.E"}),
    # protoc takes spaces around a package's dots; every nested type counts, a proto2 group
    # too, but not a field whose type or name is a keyword, nor words in an option's value
    (Format.PROTOBUF, 'package shop . orders ;\nmessage O { message message = 1; enum enum = 2; '
     'oneof k { group G = 3 [deprecated = true] { } } option (x) = { message M { } }; }\n'
     'service S { rpc R (O) returns (O) { option (y) = { }; } }',
     {"shop.orders.O", "shop.orders.O.G", "shop.orders.S"}),
    # Avro: every named type at any depth, inheriting the enclosing namespace
    (Format.AVRO, '{"type": "record", "name": "E", "namespace": "a", "fields": [{"name": "u", '
     '"type": {"type": "record", "name": "U", "fields": [{"name": "k", "type": {"type": "enum", '
     '"name": "b.K", "symbols": ["X"]}}]}}]}', {"a.E", "a.U", "b.K"}),
    # JSON Schema: the document's `$id` and its subschemas', joined onto the enclosing ones
    (Format.JSONSCHEMA, '{"$id": "https://x.example/e", "properties": {"u": {"$id": "u", "type": "object"}}}',
     {"https://x.example/e", "https://x.example/u"}),
    (Format.PROTOBUF, '// package fake;\nmessage M { string s = 1 [(x) = "message Y {"]; }\n', {"M"}),
    (Format.JSONSCHEMA, '{"$id": "https://acme.example/c", "type": "object"}', {"https://acme.example/c"}),
    (Format.JSONSCHEMA, '{"type": "object"}', set()),
    # an empty fragment names the same document
    (Format.JSONSCHEMA, '{"$id": "https://x.example/c#", "type": "object"}', {"https://x.example/c"}),
    (Format.JSONSCHEMA, '{"$id": "#", "type": "object"}', set()),
    (Format.AVRO, "{ not json", set()),
])
def test_identities(fmt, text, expected):
    assert identities(fmt, text) == expected


def change(path, old, new, status):
    return FileChange(path=path, status=status, base_text=old, head_text=new, blob_ids=("b1", "h1"))


@pytest.mark.parametrize("old_name,new_path,paired_up", [
    ("U", "s/u_v2.avsc", True),          # same full name, new file: compared as a rename
    ("V", "s/u_v2.avsc", False),         # another type: a removal and an addition
    ("U", "docs/u.txt", False),          # not a schema path under the config
])
def test_a_removed_and_an_added_file_with_one_type_are_paired(old_name, new_path, paired_up):
    gone = change("s/u.avsc", AVRO % old_name, None, FileStatus.REMOVED)
    new = change(new_path, None, AVRO % "U", FileStatus.ADDED)
    out = paired([gone, new], Config().classify)
    if paired_up:
        (moved,) = out
        assert (moved.path, moved.previous_path, moved.status) == (new_path, "s/u.avsc", "renamed")
        assert (moved.base_text, moved.head_text) == (AVRO % old_name, AVRO % "U")
    else:
        assert out == [gone, new]


@pytest.mark.parametrize("hostile", ["/*" * 100_000, '"' * 200_000, "'a" * 100_000, "{" * 200_000])
def test_hostile_protobuf_text_is_scanned_in_one_pass(hostile):
    """Unclosed comments, quotes and braces: every token pattern matches once and moves on
    (a pattern that could fail after scanning to the end would make this quadratic)."""
    assert identities(Format.PROTOBUF, hostile + "\npackage p; message M {}") <= {"p.M"}


LOOSE = ('{"type": "object", "properties": {"id": {"type": "%s"}, "a": {"type": "string"}, '
         '"b": {"type": "string"}}}')
OTHER = '{"type": "array", "items": {"enum": ["x", "y"]}, "minItems": 2}'


@pytest.mark.parametrize("old,old_path,new,outcome", [
    # no $id on either side, near-identical content: compared as a rename
    (LOOSE % "integer", "s/c.schema.json", LOOSE % "string", "paired"),
    # the old file had an $id, the new one dropped it: alike, so still followed
    ('{"$id": "https://x/c", ' + (LOOSE % "integer")[1:], "s/c.schema.json", LOOSE % "string", "paired"),
    # renamed out of the review (a .bak) rather than deleted: the same
    (LOOSE % "integer", "s/c.schema.json.bak", LOOSE % "string", "paired"),
    # no identity and unlike: whether it moved cannot be told, so the removal fails closed
    (LOOSE % "integer", "s/c.schema.json", OTHER, "ambiguous"),
    # both name their type, differently: a removal and an unrelated addition
    ('{"$id": "https://x/a", "type": "string"}', "s/c.schema.json",
     '{"$id": "https://x/b", "type": "string"}', "apart"),
])
def test_files_without_an_identity_are_paired_by_content_or_fail_closed(old, old_path, new, outcome):
    gone = (change(old_path, old, old, FileStatus.RENAMED) if old_path.endswith(".bak")
            else change(old_path, old, None, FileStatus.REMOVED))
    if old_path.endswith(".bak"):
        gone = replace(gone, previous_path="s/c.schema.json")
    added = change("s/v2/c.schema.json", None, new, FileStatus.ADDED)
    out = paired([gone, added], Config().classify)
    if outcome == "paired":
        (moved,) = out
        assert (moved.previous_path, moved.base_text, moved.head_text) == ("s/c.schema.json", old, new)
    elif outcome == "ambiguous":
        assert [c.path for c in out] == [old_path, "s/v2/c.schema.json"]
        assert 'added, one of them without a type name' in out[0].problem
        assert out[1] == added
    else:
        assert out == [gone, added]


def test_similarity_ignores_layout_and_list_positions():
    fields = [{"name": n, "type": "int"} for n in "abcd"]
    old = features(Format.AVRO, json.dumps({"type": "record", "name": "R", "fields": fields}, indent=4))
    new = features(Format.AVRO, json.dumps({"type": "record", "name": "R", "fields": fields[1:]}))
    assert similarity(old, new) == 8 / 10  # one field (two leaves) of ten gone, nothing shifted
    assert similarity(features(Format.AVRO, "{ not json"), new) == 0
    proto = 'syntax = "proto3";\npackage a; // was b\nmessage M { string id = 1; }\n'
    assert similarity(features(Format.PROTOBUF, proto),
                      features(Format.PROTOBUF, proto.replace("// was b", "/* moved */"))) == 1


def test_too_many_comparisons_fail_closed_instead(monkeypatch):
    monkeypatch.setattr(moves, "MAX_COMPARISONS", 0)
    gone = change("s/c.schema.json", LOOSE % "integer", None, FileStatus.REMOVED)
    added = change("s/v2/c.schema.json", None, LOOSE % "string", FileStatus.ADDED)
    first, second = paired([gone, added], Config().classify)
    assert first.problem and second == added


# A type moved below another file's top level is compared in place: the new file holding the
# old definition, written on the lines the removed file had it (so old-side findings name them).
USER = '{\n  "type": "record",\n  "name": "U",%s\n  "fields": [\n    {"name": "id", "type": "long"}\n  ]\n}\n'
HOST = ('{"type": "record", "name": "Host", "namespace": "h", "fields": [{"name": "s", "type": "string"}, '
        '{"name": "u", "type": {"type": "record", "name": "U",%s "fields": [{"name": "id", "type": "string"}]}}]}')


@pytest.mark.parametrize("old,new,name,expected_namespace", [
    (USER % '\n  "namespace": "h",', HOST % "", "h.U", "h"),      # inherits the host's namespace
    (USER % "", HOST % ' "namespace": "",', "U", ""),              # none: written in as empty
])
def test_a_type_moved_into_another_file_is_compared_in_place(old, new, name, expected_namespace):
    assert name in identities(Format.AVRO, new)
    gone = change("s/u.avsc", old, None, FileStatus.REMOVED)
    host = change("s/host.avsc", None, new, FileStatus.ADDED)
    (moved,) = paired([gone, host], Config().classify)
    assert (moved.previous_path, moved.head_text) == ("s/u.avsc", new)
    base = json.loads(moved.base_text)
    (user,) = [f["type"] for f in base["fields"] if f["name"] == "u"]
    assert user["namespace"] == expected_namespace and user["fields"] == [{"name": "id", "type": "long"}]
    assert base["fields"][0] == {"name": "s", "type": "string"}  # the rest is the new file's
    assert moved.base_text.splitlines()[1:6] == old.splitlines()[1:6]  # on its own lines



@pytest.mark.parametrize("host_base,fails", [
    (HOST % "", False),                                  # the changed file defined it already
    ('{"type": "record", "name": "Host", "namespace": "h", "fields": []}', True),  # it arrived
])
def test_a_type_moved_into_a_changed_file_fails_closed(host_base, fails):
    """A changed file is compared with its own base, not with the file the type left."""
    gone = change("s/u.avsc", USER % '\n  "namespace": "h",', None, FileStatus.REMOVED)
    host = change("s/host.avsc", host_base, HOST % "", FileStatus.MODIFIED)
    out = paired([gone, host], Config().classify)
    assert out[1] == host
    assert (out[0].problem is not None) == fails, out[0].problem
    if fails:
        assert '"s/host.avsc"' in out[0].problem and "h.U" in out[0].problem


def test_a_removal_stays_listed_when_only_a_type_inside_it_moved():
    """An added file that defines a copy of a nested type of a removed one is compared there,
    but the removed file's own type went nowhere: its removal is still reported."""
    money = '{"type": "record", "name": "Money", "fields": [{"name": "cents", "type": "long"}]}'
    order = '{"type": "record", "name": "Order", "namespace": "h", "fields": [{"name": "m", "type": %s}]}'
    gone = change("s/order.avsc", order % money, None, FileStatus.REMOVED)
    invoice = change("s/invoice.avsc", None, (order % money).replace("Order", "Invoice"), FileStatus.ADDED)
    out = paired([gone, invoice], Config().classify)
    assert [(c.path, c.status) for c in out] == [("s/order.avsc", FileStatus.REMOVED),
                                                ("s/invoice.avsc", "renamed")]
