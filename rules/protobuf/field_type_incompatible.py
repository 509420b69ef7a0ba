"""Flags a field whose type changed to one with a different wire encoding.

Compatible groups (same bytes): int32/int64/uint32/uint64/bool and enums; sint32/sint64;
fixed32/sfixed32; fixed64/sfixed64; string/bytes. Anything else (int32 to sint32, float to
double, string to a message, a scalar to a map) makes each side misread the other's bytes, in
both directions (buf: FIELD_WIRE_COMPATIBLE_TYPE; Confluent: FIELD_KIND_CHANGED,
FIELD_SCALAR_KIND_CHANGED). Map fields compare their key and value types.

Example: `int32 quantity = 3;` becomes `sint32 quantity = 3;`.

Fix: keep the type; add a new field (new number) with the new type and deprecate the old one.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind
from .types import Level, describe, type_change

SPEC = RuleSpec(id="PROTO_FIELD_TYPE_INCOMPATIBLE", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="a field's type changed to a wire-incompatible one",
                categories=ALL)
KINDS = (Kind.FIELD,)
MESSAGE = 'Field "{path}" changed type from {old} to {new}, which is not wire-compatible.'


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or type_change(old, new) is not Level.WIRE:
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(path=pair.path, old=describe(old, encoding=True),
                                              new=describe(new, encoding=True)))
