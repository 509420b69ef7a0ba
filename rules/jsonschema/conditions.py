"""Conditionals (`if`/`then`/`else`) of two alternatives: which ones are not shown compatible.

A conditional is shown to take all old data (BACKWARD) only when the old alternative has one
with the same `if` whose `then` and `else` each accept no more than the new one's (compared
as any other subschemas). Anything else is reported: the sound default. The comparison of
the branches runs under the strict policy: a branch is applied to the whole object, so the
names it declares say nothing about what producers of that object wrote.
"""
from __future__ import annotations

from typing import Iterator

from ..model import Direction
from . import content, untouched
from .flat import Flat

IF, THEN, ELSE = 0, 1, 2


def unproven(ctx, old: Flat, new: Flat) -> Iterator[tuple[tuple, Direction]]:
    """(conditional, direction) for each conditional of one side not shown implied by the
    other's: a new one old data may fail (BACKWARD), an old one new data may fail (FORWARD)."""
    for direction, sources, targets in ((Direction.BACKWARD, new.conditions, old.conditions),
                                        (Direction.FORWARD, old.conditions, new.conditions)):
        for condition in sources:
            if not _implied(ctx, direction, condition, targets):
                yield condition, direction


def _implied(ctx, direction: Direction, condition: tuple, others: tuple) -> bool:
    """Whether every value satisfying one of `others` satisfies `condition` (same `if`, branches
    that accept at least as much)."""
    if _constrains_nothing(condition):
        return True
    return any(_same_if(ctx, direction, condition, other)
               and all(_branch_within(ctx, direction, condition[part], other[part]) for part in (THEN, ELSE))
               for other in others)


def _constrains_nothing(condition: tuple) -> bool:
    return all(branch is None or content.is_open((branch,)) for branch in condition[THEN:])


def _same_if(ctx, direction: Direction, condition: tuple, other: tuple) -> bool:
    old, new = (other, condition) if direction is Direction.BACKWARD else (condition, other)
    return untouched.same(ctx, old[IF], new[IF])


def _branch_within(ctx, direction: Direction, branch, other) -> bool:
    """Whether `branch` (of the conditional checked) accepts all that `other` accepts."""
    if branch is None or content.is_open((branch,)):
        return True
    old, new = (other, branch) if direction is Direction.BACKWARD else (branch, other)
    return direction not in ctx.strict_twin().breaks(*(() if s is None else (s,) for s in (old, new)))
