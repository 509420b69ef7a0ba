"""Directions in which adding or removing one property breaks, under the chosen policy."""
from __future__ import annotations

from ..model import Direction
from . import content, old_data

B, F = Direction.BACKWARD, Direction.FORWARD


def added(ctx, parent, name: str) -> tuple[frozenset, bool]:
    """(breaks, whether the old schema declared the name: via patternProperties/additional*,
    or by requiring it)."""
    fallback, declared = content.fallback(parent.old, name)
    lines = (parent.old.line, parent.new.prop_lines.get(name, parent.new.line))
    # all the new object asks of it: a pattern, or a closure (allOf, $ref) that does not see it
    now = content.applying(parent.new, name)
    found = ctx.breaks(fallback, now, lines)
    breaks = set()
    if name in parent.old.required and name not in old_data.conditional_names(ctx, parent.old):
        declared = True  # required, declared nowhere else: every old document holds it, any value
    if B in found and not declared and not ctx.strict and _conditional_clash(ctx, parent, name, now, lines):
        declared = True  # a `then`, `else` or dependency declares it: old data holds it there
    # Old data may hold the name only where the old schema let it (STRICT: anywhere open).
    if B in found and not ctx.lenient_assumes(not declared):
        breaks.add(B)
    if F in found:
        breaks.add(F)  # new producers write it; old consumers check it against the fallback
    return frozenset(breaks), declared


def _conditional_clash(ctx, parent, name: str, now: tuple, lines: tuple) -> bool:
    """Whether old data holding `name` where a conditional branch of the old object declares
    it may hold a value the new object (`now`: what it asks of the name) rejects."""
    held = content.applying(parent.old, name)
    return any(B in ctx.breaks(held + declared, now, lines)
               for declared in old_data.conditional_names(ctx, parent.old).get(name, ()))


def removed(ctx, parent, name: str) -> tuple[frozenset, bool]:
    """(breaks, whether the new schema declares the name via patternProperties/additional*)."""
    fallback, declared = content.fallback(parent.new, name)
    # A declared name also meets every patternProperties schema its name matches, and each
    # additionalProperties or unevaluatedProperties that does not see its declaration.
    old_schema = content.applying(parent.old, name)
    if content.is_closed(old_schema) or (not ctx.strict and content.holds_no_object(parent.old)):
        # The name was forbidden, or the old object required a name it closed out: no data
        # held it (strict keeps Confluent's verdict).
        return frozenset(), declared
    lines = (parent.old.prop_lines.get(name, parent.old.line), parent.new.line)
    found = ctx.breaks(old_schema, fallback, lines)
    breaks = set()
    if B in found:
        breaks.add(B)  # old data holds the name; the new schema's fallback rejects its value
    # New producers may write the name only where the new schema lets them.
    if F in found and not ctx.lenient_assumes(not declared):
        breaks.add(F)
    return frozenset(breaks), declared
