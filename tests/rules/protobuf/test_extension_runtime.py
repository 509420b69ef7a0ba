"""Deleted, renumbered and moved extensions, judged by the protobuf runtime on the rule cases.

The example search builds a message's own fields only (rules/examples/protobuf.py
EXTENSION_UNSHOWN), so these cases' verdicts are proven here instead: protoc (grpc_tools)
compiles each case's two versions, and the Python runtime writes the extension with one and
reads it with the other, in binary and in proto3 JSON.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
from grpc_tools import protoc

CASES = Path(__file__).parent.parent / "cases" / "protobuf"
DELETED = CASES / "PROTO_EXTENSION_DELETED"


def _version(folder: Path, side: str, tmp_path: Path):
    """The case's Order message class and its extensions by JSON key, as `side` declares them."""
    out = tmp_path / f"{side}.pb"
    roots = [f"-I{folder}"] + ([f"-I{folder / 'imports'}"] if (folder / "imports").exists() else [])
    assert protoc.main(["protoc", *roots, "--include_imports", f"--descriptor_set_out={out}",
                        str(folder / f"{side}.proto")]) == 0
    pool = descriptor_pool.DescriptorPool()
    for proto in descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file:
        pool.Add(proto)
    order = pool.FindMessageTypeByName("shop.Order")
    found = {}
    for file in (pool.FindFileByName(f"{side}.proto"), *_imported(pool)):
        found |= {f"[{e.full_name}]": e for e in file.extensions_by_name.values()}
        for message in file.message_types_by_name.values():
            found |= {f"[{e.full_name}]": e for e in message.extensions_by_name.values()}
    return message_factory.GetMessageClass(order), found


def _imported(pool):
    for name in ("shop/gift.proto",):
        try:
            yield pool.FindFileByName(name)
        except KeyError:
            pass


def _written(cls, extension):
    record = cls()
    if extension.message_type is not None:  # a message extension: one field set in it
        record.Extensions[extension].note = "wrapped"
    else:
        record.Extensions[extension] = "hi" if extension.type == extension.TYPE_STRING else 7
    return record


@pytest.mark.parametrize("case", ["deleted", "deprecated-first-still-refused-in-json",
                                  "last-extension-of-a-message", "message-scoped"])
def test_a_deleted_extension_is_unknown_in_binary_and_refused_in_json(case, tmp_path):
    old_cls, old_ext = _version(DELETED / case, "old", tmp_path)
    new_cls, new_ext = _version(DELETED / case, "new", tmp_path)
    deleted = old_ext.keys() - new_ext.keys()
    assert deleted
    for key in deleted:
        record = _written(old_cls, old_ext[key])
        data = record.SerializeToString()
        read = new_cls.FromString(data)
        assert read.ListFields() == [] and read.SerializeToString() == data  # kept aside, unread
        with pytest.raises(json_format.ParseError, match="has no field named"):
            json_format.Parse(json_format.MessageToJson(record), new_cls())
        # Old readers never miss it: new data cannot carry it, and they parse new JSON.
        json_format.Parse(json_format.MessageToJson(new_cls()), old_cls())


@pytest.mark.parametrize("case", ["moved-to-imported-file", "moved-to-imported-file-under-file"])
def test_an_extension_moved_to_an_imported_file_reads_as_before(case, tmp_path):
    old_cls, old_ext = _version(DELETED / case, "old", tmp_path)
    new_cls, new_ext = _version(DELETED / case, "new", tmp_path)
    record = _written(old_cls, old_ext["[shop.gift_note]"])
    read = new_cls.FromString(record.SerializeToString())
    assert read.Extensions[new_ext["[shop.gift_note]"]] == "hi"
    parsed = json_format.Parse(json_format.MessageToJson(record), new_cls())
    assert parsed.Extensions[new_ext["[shop.gift_note]"]] == "hi"


def test_a_renumbered_extension_loses_its_binary_value_both_ways_and_keeps_its_json(tmp_path):
    folder = CASES / "PROTO_FIELD_NUMBER_CHANGED" / "extension-renumbered"
    versions = {side: _version(folder, side, tmp_path) for side in ("old", "new")}
    for writer, reader in (("old", "new"), ("new", "old")):
        (w_cls, w_ext), (r_cls, r_ext) = versions[writer], versions[reader]
        record = _written(w_cls, w_ext["[shop.gift_note]"])
        data = record.SerializeToString()
        read = r_cls.FromString(data)
        assert not read.HasExtension(r_ext["[shop.gift_note]"]) and read.SerializeToString() == data
        parsed = json_format.Parse(json_format.MessageToJson(record), r_cls())
        assert parsed.Extensions[r_ext["[shop.gift_note]"]] == "hi"  # JSON keys it by name
