"""Whether a field's default is a valid JSON encoding of a value of the field's type."""
from __future__ import annotations

from .schema import Array, Enum, Fixed, Map, Record, Type, Union

INT_RANGE = range(-2**31, 2**31)
LONG_RANGE = range(-2**63, 2**63)
SPECIAL_FLOATS = frozenset({"NaN", "Infinity", "-Infinity"})


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _float(value) -> bool:
    """A number, or the string spelling of NaN or an infinity (never a list: unhashable)."""
    return _number(value) or (isinstance(value, str) and value in SPECIAL_FLOATS)


def _octets(value, size: int | None = None) -> bool:
    """bytes and fixed defaults are strings of code points 0-255, one per byte."""
    return (isinstance(value, str) and all(ord(c) < 256 for c in value)
            and (size is None or len(value) == size))


PRIMITIVE_CHECKS = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool) and v in INT_RANGE,
    "long": lambda v: isinstance(v, int) and not isinstance(v, bool) and v in LONG_RANGE,
    "float": _float,
    "double": _float,
    "bytes": _octets,
    "string": lambda v: isinstance(v, str),
}


def first_branch_only(schema: Type, value) -> bool:
    """Whether a valid union default is a value of a later branch only: Avro 1.12 takes it,
    Java before 1.12 and Apache's Python library refuse the schema (the spec said "the first")."""
    return isinstance(schema, Union) and bool(schema.branches) and valid(schema, value) \
        and not valid(schema.branches[0], value)


def valid(schema: Type, value) -> bool:
    """True when `value` (parsed JSON) encodes a value of `schema`.

    Union defaults may match any branch, not only the first: fastavro, Avro 1.12 and Confluent's
    registry accept them (Confluent's tests require `["null", "string"]` with default "null" to
    parse); one that matches a later branch only is reported anyway (first_branch_only).
    Recursion follows the value, whose depth the JSON depth limit bounds.
    """
    if isinstance(schema, Union):
        return any(valid(branch, value) for branch in schema.branches)
    if isinstance(schema, Record):
        return isinstance(value, dict) and all(
            valid(f.type, value[f.name]) if f.name in value else f.has_default for f in schema.fields)
    if isinstance(schema, Enum):
        return isinstance(value, str) and value in schema.symbols
    if isinstance(schema, Fixed):
        return _octets(value, schema.size)
    if isinstance(schema, Array):
        return isinstance(value, list) and all(valid(schema.items, v) for v in value)
    if isinstance(schema, Map):
        return isinstance(value, dict) and all(valid(schema.values, v) for v in value.values())
    return PRIMITIVE_CHECKS[schema.kind](value)
