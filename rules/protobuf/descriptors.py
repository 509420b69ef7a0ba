"""Read protoc's FileDescriptorSet through a view: only the fields the model uses, as upb messages."""
from __future__ import annotations

from functools import lru_cache

# Why a view and not google.protobuf's descriptor_pb2: importing descriptor_pb2 pulls in
# google.protobuf's Python layer (descriptor_pool, python_message, text_format, ...), which
# costs more than comparing a 10,000-field file, and its SourceCodeInfo hands out one Python
# object per location (40,000 of them for such a file). The view declares, under the names and
# numbers of google/protobuf/descriptor.proto, the fields parse.py reads; the rest is skipped.
# Enum fields are int32 here, with descriptor.proto's defaults (its first enum values).
# tests/rules/protobuf/test_descriptors.py holds every field to descriptor_pb2's.
PACKAGE = "schema_review.view"
STRING, BOOL, INT32, BYTES = 9, 8, 5, 12  # FieldDescriptorProto.Type; a str names a message
OPTIONAL, REPEATED = 1, 3
VIEW: dict[str, tuple] = {  # message -> (field, number, type[, label[, default]])
    "FileDescriptorSet": (("file", 1, "FileDescriptorProto", REPEATED),),
    "FileDescriptorProto": (
        ("name", 1, STRING), ("package", 2, STRING),
        ("message_type", 4, "DescriptorProto", REPEATED),
        ("enum_type", 5, "EnumDescriptorProto", REPEATED),
        ("service", 6, "ServiceDescriptorProto", REPEATED),
        ("extension", 7, "FieldDescriptorProto", REPEATED), ("options", 8, "FileOptions"),
        ("source_code_info", 9, "SourceCodeInfo"), ("syntax", 12, STRING)),
    # The options buf's FILE_SAME_* rules compare (generated code's names and shape).
    "FileOptions": (
        ("java_package", 1, STRING), ("java_outer_classname", 8, STRING),
        ("optimize_for", 9, INT32, OPTIONAL, "1"), ("java_multiple_files", 10, BOOL),
        ("go_package", 11, STRING), ("cc_generic_services", 16, BOOL),
        ("java_generic_services", 17, BOOL), ("py_generic_services", 18, BOOL),
        ("cc_enable_arenas", 31, BOOL, OPTIONAL, "true"),
        ("objc_class_prefix", 36, STRING), ("csharp_namespace", 37, STRING),
        ("swift_prefix", 39, STRING), ("php_class_prefix", 40, STRING),
        ("php_namespace", 41, STRING), ("php_metadata_namespace", 44, STRING),
        ("ruby_package", 45, STRING), ("features", 50, "FeatureSet")),
    "DescriptorProto": (
        ("name", 1, STRING), ("field", 2, "FieldDescriptorProto", REPEATED),
        ("nested_type", 3, "DescriptorProto", REPEATED),
        ("enum_type", 4, "EnumDescriptorProto", REPEATED),
        ("extension", 6, "FieldDescriptorProto", REPEATED), ("options", 7, "MessageOptions"),
        ("oneof_decl", 8, "OneofDescriptorProto", REPEATED),
        ("reserved_range", 9, "ReservedRange", REPEATED), ("reserved_name", 10, STRING, REPEATED)),
    "ReservedRange": (("start", 1, INT32), ("end", 2, INT32)),
    "MessageOptions": (("map_entry", 7, BOOL), ("features", 12, "FeatureSet")),
    "OneofDescriptorProto": (("name", 1, STRING),),
    "FieldDescriptorProto": (
        ("name", 1, STRING), ("extendee", 2, STRING), ("number", 3, INT32),
        ("label", 4, INT32, OPTIONAL, "1"),
        ("type", 5, INT32, OPTIONAL, "1"), ("type_name", 6, STRING),
        ("default_value", 7, STRING), ("options", 8, "FieldOptions"),
        ("oneof_index", 9, INT32), ("json_name", 10, STRING), ("proto3_optional", 17, BOOL)),
    "FieldOptions": (("ctype", 1, INT32), ("deprecated", 3, BOOL), ("jstype", 6, INT32),
                     ("features", 21, "FeatureSet")),
    "FeatureSet": (("field_presence", 1, INT32), ("utf8_validation", 4, INT32),
                   ("message_encoding", 5, INT32)),
    "EnumDescriptorProto": (
        ("name", 1, STRING), ("value", 2, "EnumValueDescriptorProto", REPEATED),
        ("reserved_range", 4, "ReservedRange", REPEATED), ("reserved_name", 5, STRING, REPEATED)),
    "EnumValueDescriptorProto": (
        ("name", 1, STRING), ("number", 2, INT32), ("options", 3, "EnumValueOptions")),
    "EnumValueOptions": (("deprecated", 1, BOOL),),
    "ServiceDescriptorProto": (
        ("name", 1, STRING), ("method", 2, "MethodDescriptorProto", REPEATED)),
    "MethodDescriptorProto": (
        ("name", 1, STRING), ("input_type", 2, STRING), ("output_type", 3, STRING),
        ("options", 4, "MethodOptions"), ("client_streaming", 5, BOOL),
        ("server_streaming", 6, BOOL)),
    "MethodOptions": (("idempotency_level", 34, INT32),),
    # Each SourceCodeInfo.Location as its serialized bytes: `spans` indexes them in bulk.
    "SourceCodeInfo": (("location", 1, BYTES, REPEATED),),
    # Locations laid end to end read as one message: every path, then every span, in order.
    "Locations": (("path", 1, BYTES, REPEATED), ("span", 2, BYTES, REPEATED)),
}


def prepare() -> None:
    """Build the view's classes ahead of the first read (parse.py: while protoc runs)."""
    _classes()


def read(data: bytes):
    """A serialized FileDescriptorSet as the view's message (attributes as in descriptor_pb2)."""
    return _classes()[0].FromString(data)


def spans(locations) -> dict[bytes, bytes]:
    """Packed path -> packed span of each SourceCodeInfo location, the first of a path winning.

    protoc writes a location's path, then its span, each as one packed record (an empty path
    not at all: the whole file's location, first). When the counts say so, the records of all
    locations at once line up with the locations; else each location is read on its own."""
    locations = list(locations)
    flat = _classes()[1].FromString(b"".join(locations))
    paths, found = list(flat.path), list(flat.span)
    if len(paths) == len(locations) - 1 and not locations[0].startswith(b"\n"):
        paths.insert(0, b"")
    if len(paths) != len(locations) or len(found) != len(locations):
        each = [_classes()[1].FromString(location) for location in locations]
        paths, found = [b"".join(e.path) for e in each], [b"".join(e.span) for e in each]
    paths.reverse()
    found.reverse()
    return dict(zip(paths, found))


def packed(values) -> bytes:
    """A packed repeated int32's bytes (non-negative values: source paths)."""
    out = bytearray()
    for value in values:
        while value > 0x7F:
            out.append(value & 0x7F | 0x80)
            value >>= 7
        out.append(value)
    return bytes(out)


def unpacked(data: bytes) -> tuple[int, ...]:
    values, value, shift = [], 0, 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            values.append(value)
            value, shift = 0, 0
    return tuple(values)


@lru_cache(maxsize=None)
def _classes() -> tuple:
    """The FileDescriptorSet and Locations message classes of the view."""
    try:
        # upb's extension module: it builds classes without google.protobuf's Python layer.
        from google._upb import _message
        from google.protobuf.message import Message
    except ImportError:  # another protobuf implementation: the same view through the public API
        return _public_classes()
    pool = _message.DescriptorPool()
    pool.AddSerializedFile(file_descriptor())
    return tuple(_message.MessageMeta(name, (Message,), {
        "DESCRIPTOR": pool.FindMessageTypeByName(f"{PACKAGE}.{name}")})
        for name in ("FileDescriptorSet", "Locations"))


def _public_classes() -> tuple:
    from google.protobuf import descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(file_descriptor())
    return tuple(message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{PACKAGE}.{name}"))
                 for name in ("FileDescriptorSet", "Locations"))


def file_descriptor() -> bytes:
    """The view as a serialized FileDescriptorProto (proto2), encoded here by hand: the classes
    that would encode it are the ones being built."""
    messages = b"".join(_record(4, _record(1, name) + b"".join(
        _record(2, _field(*spec)) for spec in fields)) for name, fields in VIEW.items())
    return _record(1, "schema_review/view.proto") + _record(2, PACKAGE) + messages


def _field(name: str, number: int, kind, label: int = OPTIONAL, default: str | None = None) -> bytes:
    out = _record(1, name) + _varint_field(3, number) + _varint_field(4, label)
    if isinstance(kind, str):
        return out + _varint_field(5, 11) + _record(6, f".{PACKAGE}.{kind}")
    return out + _varint_field(5, kind) + (_record(7, default) if default is not None else b"")


def _record(number: int, value: str | bytes) -> bytes:
    data = value.encode() if isinstance(value, str) else value
    return packed((number << 3 | 2, len(data))) + data


def _varint_field(number: int, value: int) -> bytes:
    return packed((number << 3, value))
