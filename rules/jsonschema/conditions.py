"""Conditionals (`if`/`then`/`else`) of two alternatives: which ones are not shown compatible.

A conditional is shown to take all old data (BACKWARD) when the old alternative has one
with the same `if` whose `then` and `else` each accept no more than the new one's (compared
as any other subschemas), or when its `then` and `else` each accept all that the whole old
alternative does (whatever the `if` says). Anything else is reported: the sound default. A
branch compared with a branch runs under the strict policy: a branch is applied to the whole
object, so the names it declares say nothing about what producers of that object wrote (under
lenient, a name the old document declares nowhere is still in no old data). The
whole alternative does declare them: compared with it, a branch runs under the policy given
(under lenient, an `else` forbidding a name the old object never declared takes all old data).
"""
from __future__ import annotations

import json
from typing import Iterator

from ..model import Direction
from . import content, paths, untouched
from .flat import Flat
from .flatten import TooManyAlternatives

IF, THEN, ELSE = 0, 1, 2
PROPERTY_ADDED = "JSONSCHEMA_PROPERTY_ADDED"


def unproven(ctx, old: Flat, new: Flat) -> Iterator[tuple[tuple, Direction]]:
    """(conditional, direction) for each conditional of one side not shown implied by the
    other's: a new one old data may fail (BACKWARD), an old one new data may fail (FORWARD)."""
    for direction, sources, whole in ((Direction.BACKWARD, new, old), (Direction.FORWARD, old, new)):
        for condition in sources.conditions:
            if not _implied(ctx, direction, condition, whole):
                yield condition, direction


def _implied(ctx, direction: Direction, condition: tuple, whole: Flat) -> bool:
    """Whether every value `whole` (the other side) accepts satisfies `condition`: its branches
    take all of `whole`, or one of its conditionals has the same `if` and branches that accept
    no more."""
    if _constrains_nothing(condition) or _takes_whole(ctx, direction, condition, whole):
        return True
    others = whole.conditions
    return any(_same_if(ctx, direction, condition, other)
               and all(_branch_within(ctx, direction, condition[part], other[part]) for part in (THEN, ELSE))
               for other in others)


def _constrains_nothing(condition: tuple) -> bool:
    return all(branch is None or content.is_open((branch,)) for branch in condition[THEN:])


def _takes_whole(ctx, direction: Direction, condition: tuple, whole: Flat) -> bool:
    """Whether each branch of `condition` accepts every value `whole` accepts (a branch of
    several alternatives is left to the comparison of conditionals); a `then` whose `if` no
    value of `whole` meets applies to none. Not where `whole` has conditionals or dependent
    schemas of its own: the names their branches declare are data too, which `whole`'s own
    properties do not show."""
    if whole.conditions or any(map(_may_declare, whole.dep_schemas.values())):
        return False
    flats = ctx.new_flats if direction is Direction.BACKWARD else ctx.old_flats
    for part in (THEN, ELSE):
        branch = condition[part]
        if branch is None or content.is_open((branch,)) \
                or part == THEN and _never_met(flats, condition[IF], whole):
            continue
        try:
            alternatives = flats.alternatives((branch,), getattr(branch, "line", whole.line))
        except TooManyAlternatives:
            return False
        if len(alternatives) != 1:
            return False
        old, new = (whole, alternatives[0]) if direction is Direction.BACKWARD else (alternatives[0], whole)
        if direction in ctx.trial(old, new):
            return False
    return True


def _may_declare(schemas: tuple) -> bool:
    """Whether dependent schemas may declare names (a `not: {required}` alone declares none)."""
    text = json.dumps(schemas, default=str)
    return any(f'"{keyword}"' in text for keyword in ("properties", "$ref", "if", "allOf", "anyOf", "oneOf"))


def _never_met(flats, test, whole: Flat) -> bool:
    """Whether no value of `whole` meets the `if` `test`: a name `whole` requires holds a
    value (const/enum) that the `if` never allows there (a version discriminator)."""
    try:
        tests = flats.alternatives((test,), getattr(test, "line", whole.line))
    except TooManyAlternatives:
        return False
    return all(any(_apart(whole.props.get(name, ()), alternative.props[name])
                   for name in alternative.props if name in whole.required) for alternative in tests)


def _apart(held: tuple, tested: tuple) -> bool:
    left, right = content.literals(held), content.literals(tested)
    return left is not None and right is not None and not left & right


def _same_if(ctx, direction: Direction, condition: tuple, other: tuple) -> bool:
    old, new = (other, condition) if direction is Direction.BACKWARD else (condition, other)
    return untouched.same(ctx, old[IF], new[IF])


def _branch_within(ctx, direction: Direction, branch, other) -> bool:
    """Whether `branch` (of the conditional checked) accepts all that `other` accepts."""
    if branch is None or content.is_open((branch,)):
        return True
    old, new = (other, branch) if direction is Direction.BACKWARD else (branch, other)
    schemas = tuple(() if s is None else (s,) for s in (old, new))
    twin = ctx.strict_twin()
    if direction not in twin.breaks(*schemas):
        return True
    if ctx.strict or direction is not Direction.BACKWARD or any(map(content.is_closed, schemas)) \
            or direction in ctx.breaks(*schemas):
        return False
    # Under lenient, what only the strict policy refuses is a name added to an open model:
    # harmless where the old document declares that name nowhere (no producer wrote it).
    unheld = _declared(ctx, ctx.new) - _declared(ctx, ctx.old)
    return all(f.rule == PROPERTY_ADDED and any(f.path.endswith(paths.prop("", n)) for n in unheld)
               for f in twin.schema_findings(*schemas) if direction in twin.breaks_of(f))


def _declared(ctx, parsed) -> frozenset:
    """Every property name a document declares anywhere (`properties`, `required`)."""
    key = ("declared names", parsed is ctx.old)
    if key not in ctx.memo:
        ctx.memo[key] = _names(parsed.root)
    return ctx.memo[key]


def _names(root) -> frozenset:
    found = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("properties"), dict):
                found.update(node["properties"])
            if isinstance(node.get("required"), list):
                found.update(n for n in node["required"] if isinstance(n, str))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(found)
