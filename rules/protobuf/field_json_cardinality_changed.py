"""Flags a wire-compatible cardinality change that changes the JSON mapping (WIRE_JSON only).

A string, bytes or message field may switch between singular and repeated on the wire, and a
map is a repeated entry message there. In JSON, though, a value becomes an array (or an array
an object), which the other version rejects, in both directions (buf:
FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY).

Example: `string tag = 6;` becomes `repeated string tag = 6;`.

Fix: keep the cardinality, or run with the WIRE category only if no consumer uses JSON.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import JSON
from .pairs import Kind
from .types import Level, cardinality_change

SPEC = RuleSpec(id="PROTO_FIELD_JSON_CARDINALITY_CHANGED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="a field changed between singular, repeated and map in a way only JSON notices (WIRE_JSON)",
                categories=JSON)
KINDS = (Kind.FIELD,)
MESSAGE = 'Field "{path}" changed from {old} to {new}: wire-compatible, but its JSON form changed.'


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or cardinality_change(old, new) is not Level.JSON:
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(path=pair.path, old=old.cardinality.value,
                                              new=new.cardinality.value))
