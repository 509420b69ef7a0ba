"""Which field type and cardinality changes the binary wire format and the JSON mapping survive."""
from __future__ import annotations

import enum

from .schema import Cardinality, Field


class Level(enum.IntEnum):
    """How far a change reaches, worst last."""

    RANGE = 1  # same bytes and JSON syntax, another range: signed <-> unsigned of one width
    JSON = 2  # same bytes on the wire, different JSON
    REFERENCE = 3  # a different named message or enum type
    WIRE = 4  # different bytes on the wire


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
# The signed and unsigned integer of one width and encoding. buf's WIRE_JSON table counts each
# pair as JSON-compatible (both print as numbers, or both as strings), but neither type holds
# all of the other's values: the protobuf runtime reads int32 -1's bytes as uint32 4294967295,
# and its JSON parser refuses `{"a": -1}` for a uint32 ("Value out of range"), in both
# directions (tests/rules/protobuf/test_sign_change.py). Level.RANGE.
SIGN_TWIN = {
    "int32": "uint32", "uint32": "int32", "int64": "uint64", "uint64": "int64",
    "fixed32": "sfixed32", "sfixed32": "fixed32", "fixed64": "sfixed64", "sfixed64": "fixed64",
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
    if old.kind == new.kind:
        return None
    return Level.RANGE if SIGN_TWIN.get(old.kind) == new.kind else Level.JSON


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
