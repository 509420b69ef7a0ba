"""Flags a conditional (`if`/`then`/`else`) that was added, changed or removed.

Why it breaks: a new or stricter conditional makes objects that meet its `if` (or miss it)
satisfy a `then` (or `else`) that old data was never checked against, so old data fails the
new schema (BACKWARD). A conditional removed or loosened lets new data through that the old
one rejects (FORWARD). The change is an error unless it is shown to only widen: the same
`if`, and a `then` and an `else` that each accept at least what the old ones did; or a `then`
and an `else` that each accept every value the other version's schema there accepts (a `then`
whose `if` no such value meets, by a required discriminator, applies to none).

Example: `"if": {"required": ["a"]}, "then": {"required": ["b"]}` was added; an old
`{"a": "x"}` without `b` no longer validates.

Fix: add or tighten the conditional only once old data satisfies it, or enforce it in producers.
"""
from ..model import BOTH_DIRECTIONS, Direction, Format, Severity
from ..registry import RuleSpec
from . import conditions, paths
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_CONDITION_CHANGED", format=Format.JSONSCHEMA, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="an if/then/else conditional was added, changed or removed")
PAIR = SchemaPair
MESSAGE = {
    Direction.BACKWARD: 'A conditional ("if"/"then"/"else") of "{path}" was added or tightened; '
                        "old data may not satisfy it.",
    Direction.FORWARD: 'A conditional ("if"/"then"/"else") of "{path}" was removed or loosened; '
                       "new data may not satisfy the old one.",
}


def check(pair: SchemaPair, ctx):
    for condition, direction in conditions.unproven(ctx, pair.old, pair.new):
        line = getattr(condition[conditions.IF], "line", None) if direction is Direction.BACKWARD else None
        yield SPEC.finding(path=paths.keyword(pair.path, "if"), line=line or pair.new.key_line("if"),
                           message=MESSAGE[direction].format(path=pair.path), breaks=frozenset({direction}))
