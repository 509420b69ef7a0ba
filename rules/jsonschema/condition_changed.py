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

A conditional whose branch holds a `$ref` pointing outside the repository that the other
version does not hold is JSONSCHEMA_EXTERNAL_REF_CHANGED's: the target was not read, so the
change is not known to tighten; it is only not known to be compatible.

Fix: add or tighten the conditional only once old data satisfies it, or enforce it in producers.
"""
from ..model import BOTH_DIRECTIONS, Direction, Format, Severity
from ..registry import RuleSpec
from . import conditions, external_ref_changed, paths
from .flatten import TooManyAlternatives
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


UNREAD = ('A conditional ("if"/"then"/"else") of "{path}" changed where it holds $ref {refs}, which '
          'point{s} outside the repository and {was} not read, so this change is not known to be compatible.')


def check(pair: SchemaPair, ctx):
    unread: dict[Direction, tuple[int, set]] = {}
    for condition, direction in conditions.unproven(ctx, pair.old, pair.new):
        line = getattr(condition[conditions.IF], "line", None) if direction is Direction.BACKWARD else None
        line = line or pair.new.key_line("if")
        refs = _unread(ctx, direction, condition)
        if refs:  # one finding per direction, naming every reference it rests on
            unread.setdefault(direction, (line, set()))[1].update(refs)
            continue
        yield SPEC.finding(path=paths.keyword(pair.path, "if"), line=line, breaks=frozenset({direction}),
                           message=MESSAGE[direction].format(path=pair.path))
    for direction, (line, refs) in unread.items():
        many = len(refs) > 1
        yield external_ref_changed.SPEC.finding(
            path=paths.keyword(pair.path, "if"), line=line, breaks=frozenset({direction}),
            message=UNREAD.format(path=pair.path, refs=", ".join(f'"{ref}"' for ref in sorted(refs)),
                                  s="" if many else "s", was="were" if many else "was"))


def _unread(ctx, direction: Direction, condition: tuple) -> frozenset:
    """The unread references the conditional's branches hold that the other version holds
    nowhere: what the verdict would rest on."""
    source, other = (ctx.new_flats, ctx.old) if direction is Direction.BACKWARD else (ctx.old_flats, ctx.new)
    held = set()
    for branch in condition[conditions.THEN:]:
        if branch is None:
            continue
        try:
            alternatives = source.alternatives((branch,), getattr(branch, "line", 0))
        except TooManyAlternatives:
            continue
        held.update(ref for alternative in alternatives for ref in alternative.externals)
    return frozenset(held) - frozenset(other.refs.elsewhere)
