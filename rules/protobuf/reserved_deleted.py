"""Flags reserved numbers or names that a message or enum no longer reserves.

A reservation records that old data (binary: numbers; JSON: names) may still carry a deleted
field or value. Dropping it allows a later version to reuse the number or name and misread that
data, in both directions (buf: RESERVED_MESSAGE_NO_DELETE, RESERVED_ENUM_NO_DELETE). Widening or
splitting ranges is fine; only numbers and names that lost their reservation count.

Example: `reserved 4 to 6;` becomes `reserved 4, 5;`.

Fix: put the reservation back (the suggestion re-adds exactly what is missing).
"""
from ..model import BOTH_DIRECTIONS, Format, Severity, Side
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind
from .schema import Message
from .suggest import anchor_in, insert, reserved_statements

IMPACT = ("nothing yet: the reservation only guarded against reuse. Without it a future field or "
          "value may take the number or name and read data written long ago as its own.")
SPEC = RuleSpec(id="PROTO_RESERVED_DELETED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="reserved numbers or names were removed from a message or enum",
                impact=IMPACT,
                categories=ALL)
KINDS = (Kind.MESSAGE, Kind.ENUM)
MESSAGE = '{what} "{path}" no longer reserves {items}.'
TITLE = "Restore the reservation of {items}"


def uncovered(old: tuple, new: tuple) -> list[tuple[int, int]]:
    """Parts of the half-open ranges `old` that no range of `new` covers."""
    gaps = []
    for start, end in old:
        cursor = start
        for new_start, new_end in sorted(new):
            if new_end <= cursor or new_start >= end:
                continue
            if new_start > cursor:
                gaps.append((cursor, new_start))
            cursor = max(cursor, new_end)
        if cursor < end:
            gaps.append((cursor, end))
    return gaps


def _text(start: int, end: int) -> str:
    return str(start) if end == start + 1 else f"{start} to {end - 1}"


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None:
        return
    numbers = uncovered(old.reserved.ranges, new.reserved.ranges)
    names = sorted(set(old.reserved.names) - set(new.reserved.names))
    if not numbers and not names:
        return
    items = ", ".join([_text(*r) for r in numbers] + [f'"{n}"' for n in names])
    line = _old_line(old, numbers, names)
    yield SPEC.finding(path=pair.path, line=pair.anchor or line or old.line,
                       side=Side.NEW if pair.anchor else Side.OLD,
                       message=MESSAGE.format(what="Message" if isinstance(old, Message) else "Enum",
                                              path=pair.path, items=items),
                       suggestion=None if pair.imported else _restore(ctx, new, numbers, names, items))


def _old_line(old, numbers, names) -> int:
    """The OLD line of the first reservation that lost something."""
    for (start, end), at in zip(old.reserved.ranges, old.reserved.range_paths):
        if any(s < end and start < e for s, e in numbers):
            return old.index.get(at).line
    for name, at in zip(old.reserved.names, old.reserved.name_paths):
        if name in names:
            return old.index.get(at).line
    return 0


def _restore(ctx, new, numbers, names, items):
    members = new.fields.values() if isinstance(new, Message) else new.values
    if any(any(s <= m.number < e for s, e in numbers) or m.name in names for m in members):
        return None  # already reused: re-reserving would not compile
    statements = reserved_statements(numbers=numbers, names=names, syntax=new.syntax)
    return insert(ctx.new, anchor_in(ctx.new, new, []), statements, TITLE.format(items=items))
