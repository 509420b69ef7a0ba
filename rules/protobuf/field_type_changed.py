"""Flags a type change that the wire and JSON both survive (buf's PACKAGE and FILE categories).

int32 and uint32, int64 and uint64, fixed32 and sfixed32, fixed64 and sfixed64 share both their
bytes and their JSON form (for values both types can hold), so WIRE and WIRE_JSON accept the
change. Generated code does not: the accessor's type changes (Go's `int64` becomes `uint64`),
so code written against one version stops compiling against the other, in both directions
(buf: FIELD_SAME_TYPE, under FILE and PACKAGE). Changes the wire or JSON notices are reported
by PROTO_FIELD_TYPE_INCOMPATIBLE and PROTO_FIELD_JSON_TYPE_CHANGED instead.

Example: `int64 total_cents = 3;` becomes `uint64 total_cents = 3;`.

Fix: restore the old type (the suggestion does), or add a new field with the new type.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import CODE
from .pairs import Kind
from .suggest import swap_on_line
from .types import describe, type_change

IMPACT = ("payloads stay readable (same bytes, same JSON for values both types hold). Code "
          "generated from the new file gives the field another type, so code written against "
          "the old accessors stops compiling, and the other way round.")
SPEC = RuleSpec(id="PROTO_FIELD_TYPE_CHANGED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="a field's type changed in a way only generated code notices (PACKAGE, FILE)",
                impact=IMPACT, categories=CODE)
KINDS = (Kind.FIELD,)
MESSAGE = ('Field "{path}" changed type from {old} to {new}: the same on the wire and in JSON, '
           'but generated code changes.')
TITLE = "Restore the type {old}"


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or type_change(old, new) is not None:
        return
    before, after = describe(old), describe(new)
    if before == after:
        return
    line, side = pair.where()
    suggestion = None if pair.imported or new.map_types else swap_on_line(
        ctx.new, new, rf"\b{after}\b", before, TITLE.format(old=before))
    yield SPEC.finding(path=pair.path, line=line, side=side, suggestion=suggestion,
                       message=MESSAGE.format(path=pair.path, old=before, new=after))
