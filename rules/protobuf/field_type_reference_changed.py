"""Flags a field that now refers to a differently named message or enum type.

A message field's bytes are only meaningful as the message they were written as; an enum field's
numbers only as the enum they were written with. Pointing the field at another type reinterprets
old data, in both directions (buf: FIELD_WIRE_COMPATIBLE_TYPE; Confluent:
FIELD_NAMED_TYPE_CHANGED). Types are compared by their package-less name: a type that moved to
another package keeps its identity and is compared member by member instead.

Example: `Address shipping = 5;` becomes `PostalAddress shipping = 5;`.

Fix: keep the type; add a new field (new number) for the new type and deprecate the old one.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind
from .types import Level, describe, type_change

SPEC = RuleSpec(id="PROTO_FIELD_TYPE_REFERENCE_CHANGED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="a field now refers to a different message or enum type",
                categories=ALL)
KINDS = (Kind.FIELD,)
MESSAGE = 'Field "{path}" changed type from {old} to {new}.'


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or type_change(old, new) is not Level.REFERENCE:
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(path=pair.path, old=describe(old),
                                              new=describe(new)))
