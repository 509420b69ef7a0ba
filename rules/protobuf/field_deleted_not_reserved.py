"""Flags a field deleted without reserving its number (and, under WIRE_JSON, its name).

Old data and old writers still carry the number. If a later version reuses it for another field,
readers decode old bytes as the new field: silent corruption in both directions. buf's
FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED (WIRE); with WIRE_JSON also
FIELD_NO_DELETE_UNLESS_NAME_RESERVED, because JSON payloads carry the name.

Example: `string old_status = 3;` is removed from `Order`.

Fix: reserve what the field used, where it was:
`reserved 3;` and `reserved "old_status";`.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind
from .reservation import deleted_without_reserving

IMPACT = ("nothing yet: data written with the old schema still decodes, the field is skipped. The "
          "harm comes later: a field that reuses the number (or the name, in JSON) reads old data "
          "as its own, with the wrong type or meaning, and nothing flags it then.")
SPEC = RuleSpec(id="PROTO_FIELD_DELETED_NOT_RESERVED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="a field was deleted without reserving its number (and name)",
                impact=IMPACT,
                categories=ALL)
KINDS = (Kind.FIELD,)
MESSAGE = 'Field "{path}" (number {number}) was deleted without reserving {what}.'


def check(pair, ctx):
    return deleted_without_reserving(SPEC, MESSAGE, pair, ctx)
