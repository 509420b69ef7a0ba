"""Flags an enum value deleted without reserving its number (and, under WIRE_JSON, its name).

Old data still carries the number; reusing it later makes old payloads mean the new value. JSON
payloads carry the value's name. buf's ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED (WIRE) and
ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED (WIRE_JSON).

Example: `STATUS_ARCHIVED = 4;` is removed from `enum Status`.

Fix: `reserved 4;` and `reserved "STATUS_ARCHIVED";` inside the enum.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind
from .reservation import deleted_without_reserving

IMPACT = ("nothing yet: data written with the old schema still decodes, the enum value is "
          "skipped. The harm comes later: a enum value that reuses the number (or the name, in "
          "JSON) reads old data as its own, with the wrong type or meaning, and nothing flags it "
          "then.")
SPEC = RuleSpec(id="PROTO_ENUM_VALUE_DELETED_NOT_RESERVED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="an enum value was deleted without reserving its number (and name)",
                impact=IMPACT,
                categories=ALL)
KINDS = (Kind.ENUM_VALUE,)
MESSAGE = 'Enum value "{path}" (number {number}) was deleted without reserving {what}.'


def check(pair, ctx):
    return deleted_without_reserving(SPEC, MESSAGE, pair, ctx)
