"""How the content model for undeclared property names changed, direction by direction."""
from __future__ import annotations

from typing import Iterator

from ..model import Direction
from . import content, paths, regex_cover

B, F = Direction.BACKWARD, Direction.FORWARD


def changes(ctx, pair) -> Iterator[tuple[Direction, str, str, tuple, tuple]]:
    """(direction broken, path, keyword, old schemas, new schemas) for each content-model change.

    Explicit schemas on both sides are walked like any subschema; this covers the changes
    involving an absent, `true` or `false` model and added or removed patternProperties.
    """
    old, new = pair.old, pair.new
    if not (old.has("object") and new.has("object")):
        return
    keyword = "additionalProperties" if "additionalProperties" in new.lines or \
        "additionalProperties" in old.lines else "unevaluatedProperties"
    where = paths.keyword(pair.path, keyword)
    if not (content.is_schema(old.additional) and content.is_schema(new.additional)):
        yield from _compare(ctx, where, keyword, old.additional, new.additional,
                            old_declared=not content.is_open(old.additional),
                            new_declared=not content.is_open(new.additional))
    for pattern in old.pattern_props.keys() - new.pattern_props.keys():
        wider = _covering(new.pattern_props, pattern)
        # Names the old pattern matched match a wider new one: they keep a declared schema.
        target = new.additional if wider is None else new.pattern_props[wider]
        yield from _compare(ctx, paths.keyword(pair.path, "patternProperties", pattern), "patternProperties",
                            old.pattern_props[pattern], target, old_declared=True,
                            new_declared=wider is not None or not content.is_open(new.additional))
    for pattern in new.pattern_props.keys() - old.pattern_props.keys():
        yield from _compare(ctx, paths.keyword(pair.path, "patternProperties", pattern), "patternProperties",
                            old.additional, new.pattern_props[pattern],
                            old_declared=not content.is_open(old.additional), new_declared=True)


def _covering(patterns: dict, pattern: str) -> str | None:
    """A pattern in `patterns` proven to match every name `pattern` matches, if any."""
    return next((p for p in patterns if regex_cover.covers(p, pattern)), None)


def _compare(ctx, where: str, keyword: str, old: tuple, new: tuple, *, old_declared: bool,
             new_declared: bool) -> Iterator:
    found = ctx.breaks(old, new)
    # LENIENT: producers never wrote (old) or will never write (new) names nothing declares.
    if B in found and not ctx.lenient_assumes(not old_declared):
        yield B, where, keyword, old, new
    if F in found and not ctx.lenient_assumes(not new_declared):
        yield F, where, keyword, old, new
