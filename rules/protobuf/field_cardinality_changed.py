"""Flags a field that became repeated or singular where the wire format cannot follow.

Repeated scalars are packed in proto3 (one length-delimited record), singular ones are not, so a
singular reader cannot read repeated data and vice versa: both directions break (buf:
FIELD_WIRE_COMPATIBLE_CARDINALITY; Confluent: FIELD_NUMERIC_LABEL_CHANGED). string, bytes and
message fields are exempt on the wire (a singular reader keeps the last element or merges them);
their JSON form still changes, see PROTO_FIELD_JSON_CARDINALITY_CHANGED. Required-ness is
PROTO_REQUIRED_FIELD_CHANGED's business; optional and implicit presence are interchangeable.

Example: `int32 score = 4;` becomes `repeated int32 score = 4;`.

Fix: keep the cardinality; add a new repeated field under a new number.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind
from .types import Level, cardinality_change

SPEC = RuleSpec(id="PROTO_FIELD_CARDINALITY_CHANGED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="a field changed between singular and repeated (wire-incompatible)",
                categories=ALL)
KINDS = (Kind.FIELD,)
MESSAGE = 'Field "{path}" changed from {old} to {new}, which is not wire-compatible.'


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or cardinality_change(old, new) is not Level.WIRE:
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(path=pair.path, old=old.cardinality.value,
                                              new=new.cardinality.value))
