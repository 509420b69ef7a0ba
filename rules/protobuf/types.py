"""Which field type and cardinality changes the binary wire format and the JSON mapping survive."""
from __future__ import annotations

import enum

from .schema import Cardinality, Field


class Level(enum.IntEnum):
    """How far a change reaches, worst last."""

    JSON = 1  # same bytes on the wire, different JSON
    REFERENCE = 2  # a different named message or enum type
    WIRE = 3  # different bytes on the wire


# Scalars that share an encoding (protobuf's "Updating a message type" rules). An enum is a
# varint on the wire, so it joins int32/int64/uint32/uint64/bool.
WIRE_GROUP = {
    "int32": "varint", "int64": "varint", "uint32": "varint", "uint64": "varint",
    "bool": "varint", "enum": "varint",
    "sint32": "zigzag", "sint64": "zigzag",
    "fixed32": "fixed32", "sfixed32": "fixed32",
    "fixed64": "fixed64", "sfixed64": "fixed64",
    "float": "float", "double": "double",
    "string": "bytes", "bytes": "bytes",
    "message": "message", "group": "group",
}
# Within a wire group, the kinds whose proto3 JSON form is the same (buf's WIRE_JSON table):
# 32-bit integers are JSON numbers, 64-bit ones JSON strings, bytes base64, enums names.
JSON_GROUP = {
    "int32": "int32", "uint32": "int32", "int64": "int64", "uint64": "int64",
    "fixed32": "fixed32", "sfixed32": "fixed32", "fixed64": "fixed64", "sfixed64": "fixed64",
}
NAMED = ("message", "enum", "group")
# Length-delimited and never packed: a singular reader keeps the last (or merges) elements.
LENGTH_DELIMITED = ("string", "bytes", "message")
SINGULAR = (Cardinality.IMPLICIT, Cardinality.OPTIONAL, Cardinality.REQUIRED)


def describe(field: Field, *, encoding: bool = False) -> str:
    """The type as written in the .proto file: `int32`, `Status`, `map<string, Status>`; with
    `encoding`, a group (proto2's, or an editions DELIMITED message) says so, as buf does."""
    if field.map_types:
        key, value = field.map_types
        return f"map<{describe(key, encoding=encoding)}, {describe(value, encoding=encoding)}>"
    if encoding and field.kind == "group" and field.ref:
        return f"{field.ref} (delimited encoding)"
    return field.ref if field.kind in NAMED else field.kind


def _element(old: Field, new: Field) -> Level | None:
    if old.kind in NAMED and old.kind == new.kind:
        return Level.REFERENCE if old.ref != new.ref else None
    if WIRE_GROUP[old.kind] != WIRE_GROUP[new.kind]:
        return Level.WIRE
    if old.kind != new.kind and JSON_GROUP.get(old.kind, old.kind) != JSON_GROUP.get(new.kind, new.kind):
        return Level.JSON
    return None


def type_change(old: Field, new: Field) -> Level | None:
    """The worst level at which the field's type changed, or None when it did not."""
    if old.map_types and new.map_types:
        levels = [_element(o, n) for o, n in zip(old.map_types, new.map_types)]
        return max((level for level in levels if level), default=None)
    return _element(old, new)


def cardinality_change(old: Field, new: Field) -> Level | None:
    """JSON or WIRE when repeated-ness changed; required-ness has its own rule."""
    before, after = old.cardinality, new.cardinality
    if before == after or (before in SINGULAR and after in SINGULAR):
        return None
    if {before, after} == {Cardinality.REPEATED, Cardinality.MAP}:
        return Level.JSON  # a map is a repeated entry message on the wire
    if WIRE_GROUP[old.kind] == WIRE_GROUP[new.kind] and old.kind in LENGTH_DELIMITED:
        return Level.JSON
    return Level.WIRE
