"""Flags a field moved alone into a new oneof, or out of a oneof it was alone in (PACKAGE, FILE).

A oneof with a single member excludes nothing, so no payload changes (for a message field; a
proto3 scalar also gains presence, PROTO_FIELD_PRESENCE_CHANGED's finding). Generated code does
change: Go wraps a oneof member in its own type behind an interface field, Java and C++ add a
case enum and `has`/`clear` methods, so code written against one version stops compiling against
the other, in both directions. buf's FIELD_SAME_ONEOF reports it in every category; here it is an
error where generated code is protected (PACKAGE, FILE) and a warning under WIRE and WIRE_JSON,
where no payload changes (a oneof that excludes other fields is PROTO_FIELD_ONEOF_CHANGED's).

Example: `Address address = 2;` becomes `oneof location { Address address = 2; }`.

Fix: leave the field where it was; add new fields to a new oneof instead.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import CODE
from .field_oneof_changed import exclusivity_change
from .pairs import Kind

IMPACT = ("no payload changes: a oneof of one field excludes nothing. Code generated from the "
          "new file reaches the field through the oneof (another type in Go, a case enum in Java "
          "and C++), so code written against the old accessors stops compiling.")
SPEC = RuleSpec(id="PROTO_FIELD_ONEOF_ALONE_CHANGED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="a field moved alone into or out of a oneof (PACKAGE, FILE)",
                impact=IMPACT, categories=CODE, outside=Severity.WARNING)
KINDS = (Kind.FIELD,)
INTO = ('Field "{path}" moved into oneof "{oneof}" (exclusive with no existing field): '
        'generated code changes.')
OUT_OF = ('Field "{path}" moved out of oneof "{oneof}" (it excluded no existing field): '
          'generated code changes.')


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or bool(old.oneof) == bool(new.oneof):
        return  # a oneof renamed around the field is PROTO_ONEOF_RENAMED's
    if any(exclusivity_change(pair)):
        return
    line, side = pair.where()
    text = INTO if new.oneof else OUT_OF
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=text.format(path=pair.path, oneof=new.oneof or old.oneof))
