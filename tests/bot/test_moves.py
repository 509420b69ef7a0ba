"""A type moved to a new file is compared with where it came from, whatever the file names."""
import pytest

from bot.config import Config
from bot.moves import identities, paired
from bot.review import FileChange, FileStatus
from rules import Format

AVRO = '{"type": "record", "name": "%s", "namespace": "acme", "fields": []}'


@pytest.mark.parametrize("fmt,text,expected", [
    (Format.AVRO, AVRO % "U", {"acme.U"}),
    (Format.AVRO, '{"type": "record", "name": "x.y.U", "namespace": "acme", "fields": []}', {"x.y.U"}),
    (Format.AVRO, '["null", "string"]', set()),
    (Format.PROTOBUF, 'syntax="proto3"; package a.v1; message M { message N {} } enum E { X = 0; }',
     {"a.v1.M", "a.v1.E"}),
    (Format.PROTOBUF, '// package fake;\nmessage M { string s = 1 [(x) = "message Y {"]; }\n', {"M"}),
    (Format.JSONSCHEMA, '{"$id": "https://acme.example/c", "type": "object"}', {"https://acme.example/c"}),
    (Format.JSONSCHEMA, '{"type": "object"}', set()),
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
