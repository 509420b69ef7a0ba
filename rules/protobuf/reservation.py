"""Shared by the two deletion rules: what a deleted number/name still needs reserved, and the fix."""
from __future__ import annotations

from .suggest import anchor_in, insert, reserved_statements, survivors_before

MISSING = {(True, True): "its number and name", (True, False): "its number",
           (False, True): "its name"}
TITLE = {(True, True): 'Reserve number {number} and name "{name}"',
         (True, False): "Reserve number {number}", (False, True): 'Reserve name "{name}"'}


def missing(pair, ctx) -> tuple[bool, bool]:
    """(number unreserved, name unreserved); names only count under WIRE_JSON."""
    element, parent = pair.old, pair.new_parent
    return (not parent.reserved.covers(element.number),
            ctx.json and element.name not in parent.reserved.names)


def reserve(pair, ctx, gaps: tuple[bool, bool]):
    """Insert `reserved N;` / `reserved "name";` where the element was, in the NEW file."""
    if pair.imported:
        return None  # the element lives in an imported file, not in the one under review
    element, parent = pair.old, pair.new_parent
    statements = reserved_statements(numbers=[element.number] if gaps[0] else [],
                                     names=[element.name] if gaps[1] else [],
                                     syntax=parent.syntax)
    anchor = anchor_in(ctx.new, parent, survivors_before(pair.old_parent, parent, element))
    title = TITLE[gaps].format(number=element.number, name=element.name)
    return insert(ctx.new, anchor, statements, title)


def deleted_without_reserving(spec, message: str, pair, ctx):
    """The finding of a deleted member (field or enum value) whose number or name is not reserved."""
    if pair.old is None or pair.new is not None:
        return
    gaps = missing(pair, ctx)
    if not any(gaps):
        return
    line, side = pair.where()
    yield spec.finding(path=pair.path, line=line, side=side,
                       message=message.format(path=pair.path, number=pair.old.number, what=MISSING[gaps]),
                       suggestion=reserve(pair, ctx, gaps))


def deleted_though_reserved(spec, message: str, pair, ctx):
    """The finding of a deleted member whose number and name are reserved (generated code still
    loses it); an unreserved deletion is the NOT_RESERVED rules' finding, reported once."""
    if pair.old is None or pair.new is not None or pair.imported or any(missing(pair, ctx)):
        return
    line, side = pair.where()
    yield spec.finding(path=pair.path, line=line, side=side,
                       message=message.format(path=pair.path, number=pair.old.number))
