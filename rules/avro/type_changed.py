"""Flags a type replaced by one that readers cannot resolve against it.

Avro readers accept a different writer type only through the spec's promotions (int -> long ->
float -> double, string <-> bytes); anything else fails with a type mismatch. The directions are
worked out per change: `long` -> `int` breaks **backward** only (new `int` readers cannot read old
longs, old `long` readers promote new ints); `int` -> `string` breaks both. Widening promotions
have their own rule, `AVRO_TYPE_PROMOTED`. Records, enums and fixed types of the same kind are
compared member by member instead (renames, symbols, sizes); unions branch by branch.

Example: OLD `{"name": "age", "type": "int"}`, NEW `{"name": "age", "type": "string"}` ->
`Type of "User.age" was changed from int to string.`

Fix: keep the old type, or add a new field with the new type (with a default) and deprecate the
old one.
"""
from ..model import BOTH_DIRECTIONS, Direction, Format, Severity
from ..registry import RuleSpec
from .pairs import TypePair
from .resolution import matches
from .schema import branches, describe

SPEC = RuleSpec(id="AVRO_TYPE_CHANGED", format=Format.AVRO, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="A type was changed to one readers cannot resolve.")
PAIR = TypePair
MESSAGE = 'Type of "{path}" was changed from {old} to {new}.'


def readable(reader, writer) -> bool:
    """Every writer branch finds a reader branch it matches (shallowly, as unions choose)."""
    return all(any(matches(r, w) for r in branches(reader)) for w in branches(writer))


def check(pair: TypePair, ctx):
    old, new = pair.old, pair.new
    if old.kind == new.kind and old.kind != "union":
        return  # same kind: logical types, names and members have their own rules
    if readable(new, old):
        return  # a promotion
    breaks = {Direction.BACKWARD} | (set() if readable(old, new) else {Direction.FORWARD})
    yield SPEC.finding(path=pair.path, line=pair.line, breaks=frozenset(breaks),
                       message=MESSAGE.format(path=pair.at, old=describe(old), new=describe(new)))
