"""rules/protobuf/descriptors.py: the view reads protoc's output as descriptor_pb2 does."""
from __future__ import annotations

import pytest
from google.protobuf import descriptor_pb2
from google.protobuf.descriptor import FieldDescriptor

from rules.protobuf import descriptors
from rules.protobuf.compile import Compilation
from tests.rules.protobuf.support import source

# Comments (leading, trailing, detached) end up in the source locations next to paths and spans.
TEXT = '''// detached
syntax = "proto2";
package a.b;

// leading
message Outer {
  optional int32 id = 1 [default = 7, deprecated = true];  // trailing
  map<string, Outer> children = 2;
  oneof choice { string name = 3; bytes data = 4; }
  message Inner { repeated int64 values = 1 [packed = true]; }
  enum Kind { KIND_UNKNOWN = 0; KIND_A = 1 [deprecated = true]; reserved 5 to 9; reserved "OLD"; }
  reserved 10 to 20, 30;
  reserved "gone";
  required string must = 5;
  extensions 100 to 200;
}

extend Outer { optional int32 first = 100; }
extend Outer { optional int32 second = 101; }  // a second extend block: its path again

service Things {
  rpc Get(Outer) returns (stream Outer) { option idempotency_level = NO_SIDE_EFFECTS; }
}
'''


EDITION = '''edition = "2023";
message M { int32 a = 1 [features.field_presence = LEGACY_REQUIRED]; int32 b = 2; }
'''


def _compiled(text: str = TEXT) -> tuple[bytes, str]:
    run = Compilation(source(text, path="thing.proto"))
    return run.result(), run.name


def _main(files, name):
    return next(f for f in files if f.name == name)


def test_every_view_field_is_descriptor_protos_field():
    for message, fields in descriptors.VIEW.items():
        if message == "Locations":
            continue  # not in descriptor.proto: SourceCodeInfo.Location's records end to end
        real = getattr(descriptor_pb2, message, None) or descriptor_pb2.SourceCodeInfo
        if message == "ReservedRange":
            real = descriptor_pb2.DescriptorProto.ReservedRange
        for name, number, kind, *rest in fields:
            field = real.DESCRIPTOR.fields_by_name[name]
            label = rest[0] if rest else descriptors.OPTIONAL
            assert field.number == number, (message, name)
            assert field.is_repeated == (label == descriptors.REPEATED), (message, name)
            if isinstance(kind, str):
                assert field.message_type.name in (kind, "EnumReservedRange"), (message, name)
            elif field.type == FieldDescriptor.TYPE_ENUM:
                assert kind == descriptors.INT32
                assert str(field.default_value) == (rest[1] if len(rest) > 1 else "0"), name
            elif message == "SourceCodeInfo":
                assert field.type == FieldDescriptor.TYPE_MESSAGE  # each location kept serialized
            else:
                assert field.type == kind, (message, name)


def _same(view, real) -> None:
    """Every field the view declares reads the same on both, recursively."""
    for field in view.DESCRIPTOR.fields:
        if field.name == "source_code_info":
            assert list(view.source_code_info.location) == [
                each.SerializeToString() for each in real.source_code_info.location]
            continue
        if not field.is_repeated:
            assert view.HasField(field.name) == real.HasField(field.name), field.name
        mine, theirs = getattr(view, field.name), getattr(real, field.name)
        if field.type != FieldDescriptor.TYPE_MESSAGE:
            assert (list(mine) if field.is_repeated else mine) == (
                list(theirs) if field.is_repeated else theirs), field.name
        elif field.is_repeated:
            assert len(mine) == len(theirs), field.name
            for a, b in zip(mine, theirs):
                _same(a, b)
        else:
            _same(mine, theirs)


@pytest.mark.parametrize("text", [TEXT, EDITION], ids=["proto2", "editions"])
def test_the_view_reads_protocs_output_as_descriptor_pb2_does(text):
    data, name = _compiled(text)
    real = descriptor_pb2.FileDescriptorSet.FromString(data)
    _same(descriptors.read(data), real)
    public = descriptors._public_classes()[0].FromString(data)  # the fallback's classes
    _same(public, real)
    if text is EDITION:
        fields = _main(descriptors.read(data).file, name).message_type[0].field
        assert [f.options.features.field_presence for f in fields] == [3, 0]  # LEGACY_REQUIRED


def _first_wins(locations) -> dict:
    index: dict = {}
    for location in locations:
        index.setdefault(tuple(location.path), tuple(location.span))
    return index


def _decoded(spans: dict) -> dict:
    return {descriptors.unpacked(path): descriptors.unpacked(span) for path, span in spans.items()}


def test_spans_index_every_location_the_first_of_a_path_winning():
    data, name = _compiled()
    real = _main(descriptor_pb2.FileDescriptorSet.FromString(data).file, name).source_code_info
    view = _main(descriptors.read(data).file, name).source_code_info
    expected = _first_wins(real.location)
    assert () in expected and len(real.location) > len(expected)  # the file; repeated paths
    assert _decoded(descriptors.spans(view.location)) == expected


def test_spans_read_each_location_alone_when_the_records_do_not_line_up():
    data, name = _compiled()
    real = _main(descriptor_pb2.FileDescriptorSet.FromString(data).file, name).source_code_info
    odd = descriptor_pb2.SourceCodeInfo.Location(span=[1, 2, 3], leading_comments="\n\x0a\x01")
    locations = [each.SerializeToString() for each in real.location]
    locations[5:5] = [odd.SerializeToString()] * 2  # two path-less locations in the middle
    expected = _first_wins([*real.location[:5], odd, odd, *real.location[5:]])
    assert _decoded(descriptors.spans(locations)) == expected
    assert descriptors.spans([]) == {}


def test_packed_round_trips_through_unpacked():
    values = (0, 1, 127, 128, 300, 16_383, 16_384, 2**31 - 1)
    assert descriptors.unpacked(descriptors.packed(values)) == values
    assert descriptors.packed((4, 300)) == b"\x04\xac\x02"
