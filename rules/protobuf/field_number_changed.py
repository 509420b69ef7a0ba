"""Flags a field that kept its name but moved to a new number.

On the wire a field *is* its number. Data written with the old schema carries the old number,
which the new schema no longer knows, so the value is dropped; data written with the new schema
is dropped by old readers. The change breaks both directions even if the old number is reserved
(buf sees a deletion plus an addition; Confluent FIELD_REMOVED plus FIELD_ADDED). An extension
renumbered on the same message counts alike: its JSON, keyed by name, still parses, but its
binary value is lost both ways (`buf breaking` reports nothing for it in any category).

Example: `string email = 4;` becomes `string email = 9;`.

Fix: keep the original number. To change the representation, add a new field with a new name and
number and deprecate the old one.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind
from .suggest import swap_on_line

SPEC = RuleSpec(id="PROTO_FIELD_NUMBER_CHANGED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="a field kept its name but changed its number",
                categories=ALL)
KINDS = (Kind.FIELD_MOVED,)
MESSAGE = 'Field "{path}" changed its number from {old} to {new}.'
TITLE = 'Restore number {old} for "{name}"'


def check(pair, ctx):
    old, new = pair.old, pair.new
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(path=pair.path, old=old.number, new=new.number),
                       suggestion=_restore(pair, ctx))


def _restore(pair, ctx):
    old, new, parent = pair.old, pair.new, pair.new_parent
    if pair.imported or old.number in parent.fields or parent.reserved.covers(old.number):
        return None  # the old number is taken or reserved in NEW: restoring would not compile
    return swap_on_line(ctx.new, new, rf"=\s*{new.number}\b", f"= {old.number}",
                        TITLE.format(old=old.number, name=new.name))
