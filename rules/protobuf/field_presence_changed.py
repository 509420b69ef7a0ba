"""Flags a field that gained or lost explicit presence (buf's PACKAGE and FILE categories).

A field with explicit presence (proto3 `optional`, a oneof member, a message) has a generated
`has_...()` accessor and a "not set" state; one without it reads as its zero value when absent.
The wire and JSON forms do not change, so buf's WIRE and WIRE_JSON categories (the default) stay
silent; generated code does change, and buf's FILE and PACKAGE categories report it
(FIELD_SAME_CARDINALITY): code calling `has_...()` stops compiling, or a field that could tell
"unset" from zero no longer can. Required-ness is PROTO_REQUIRED_FIELD_CHANGED's business and
repeated-ness PROTO_FIELD_CARDINALITY_CHANGED's.

Example: `int32 retries = 4;` becomes `optional int32 retries = 4;`.

Fix: keep the field's presence; add a new field (new number) with the presence you want.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import CODE
from .pairs import Kind
from .schema import Cardinality

IMPACT = ("no payload: the binary and JSON forms are the same. Generated code gains or loses the "
          "field's presence accessor (`has_...`), so code that calls it stops compiling, and a "
          "reader may no longer tell an unset field from its zero value.")
SPEC = RuleSpec(id="PROTO_FIELD_PRESENCE_CHANGED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="a field gained or lost explicit presence (PACKAGE, FILE)",
                impact=IMPACT, categories=CODE)
KINDS = (Kind.FIELD,)
PRESENCE = {Cardinality.IMPLICIT: "implicit presence", Cardinality.OPTIONAL: "explicit presence"}
MESSAGE = 'Field "{path}" changed from {old} to {new}.'


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or old.cardinality == new.cardinality:
        return
    if old.cardinality not in PRESENCE or new.cardinality not in PRESENCE:
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(path=pair.path, old=PRESENCE[old.cardinality],
                                              new=PRESENCE[new.cardinality]))
