"""Flags a wire-compatible type change that changes the JSON mapping (WIRE_JSON only).

Proto3 JSON writes 32-bit integers as numbers, 64-bit integers as strings, bytes as base64,
enums by name. So int32 to int64, string to bytes or an enum to int32 keep the binary format but
JSON written by one version is read wrongly (or rejected) by the other (buf:
FIELD_WIRE_JSON_COMPATIBLE_TYPE).

Example: `int32 count = 2;` becomes `int64 count = 2;` (JSON `2` becomes `"2"`).

Fix: keep the type if any consumer uses JSON, or run with the WIRE category only.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import JSON
from .pairs import Kind
from .types import Level, describe, type_change

SPEC = RuleSpec(id="PROTO_FIELD_JSON_TYPE_CHANGED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="a field's type changed in a way only JSON notices (WIRE_JSON)",
                categories=JSON)
KINDS = (Kind.FIELD,)
MESSAGE = 'Field "{path}" changed type from {old} to {new}: wire-compatible, but its JSON form changed.'


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or type_change(old, new) is not Level.JSON:
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(path=pair.path, old=describe(old),
                                              new=describe(new)))
