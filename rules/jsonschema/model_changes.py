"""How the content model for undeclared property names changed, direction by direction."""
from __future__ import annotations

from typing import Iterator, NamedTuple

from ..model import Direction
from . import content, instances, old_data, paths, regex_automaton, regex_cover
from .flat import Flat

B, F = Direction.BACKWARD, Direction.FORWARD


class Change(NamedTuple):
    direction: Direction  # the one broken
    where: str
    keyword: str
    old: tuple  # schemas
    new: tuple
    name: str | None = None  # a name old data holds that the new model rejects
    added: str | None = None  # the added pattern that also matches `name`, as an old one does
    required: bool = False  # `name` is one the old object requires: every old document holds it


def changes(ctx, pair) -> Iterator[Change]:
    """The content-model changes, one per direction broken.

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
        closed = _held_name_closed(ctx, old, new, pair.path)
        found = list(_compare(ctx, where, keyword, old.additional, new.additional,
                              old_declared=not content.is_open(old.additional) or closed is not None
                              or _sibling_name_closed(ctx, old, new),
                              new_declared=not content.is_open(new.additional)))
        # A name old data holds that the model now rejects says more than "narrowed", and holds
        # where the model did not narrow (`unevaluatedProperties: false` became `additional...`).
        yield from (change for change in found if closed is None or change.direction is not B)
        if closed is not None:
            yield closed._replace(where=closed.where or where, keyword=closed.keyword or keyword)
    for pattern in old.pattern_props.keys() - new.pattern_props.keys():
        wider = _covering(new.pattern_props, pattern)
        # Names the old pattern matched match a wider new one: they keep a declared schema.
        target = new.additional if wider is None else new.pattern_props[wider]
        yield from _compare(ctx, paths.keyword(pair.path, "patternProperties", pattern), "patternProperties",
                            old.pattern_props[pattern], target, old_declared=True,
                            new_declared=wider is not None or not content.is_open(new.additional))
    for pattern in new.pattern_props.keys() - old.pattern_props.keys():
        where = paths.keyword(pair.path, "patternProperties", pattern)
        yield from _compare(ctx, where, "patternProperties", old.additional, new.pattern_props[pattern],
                            old_declared=not content.is_open(old.additional), new_declared=True)
        yield from _overlap(ctx, where, old, new, pattern)


def _overlap(ctx, where: str, old, new, added: str) -> Iterator:
    """An added pattern that an old pattern overlaps: a name both match (`x-id` for `^x-` and
    `-id$`) kept the old pattern's schema and must now meet the added one's too. The name is a
    declared one (a pattern declares the names it matches), so the lenient policy counts it.
    Names a wider new pattern took over from a removed one were compared above."""
    found = set()
    for pattern in old.pattern_props:
        if pattern not in new.pattern_props and _covering(new.pattern_props, pattern) == added:
            continue
        name = regex_automaton.common(frozenset({pattern, added}))
        if name is None or name in old.props or name in new.props:
            continue  # a declared property is compared as a property, with every pattern it matches
        for change in _compare(ctx, where, "patternProperties", content.applying(old, name),
                               content.applying(new, name), old_declared=True, new_declared=True):
            if change.direction not in found:
                found.add(change.direction)
                yield change._replace(name=name, added=added)


def _sibling_name_closed(ctx, old, new) -> bool:
    """LENIENT: whether the new model rejects a name another anyOf option of the old one
    declares. Old data may match this option and still hold that name (anyOf options do not
    exclude each other, and one that declares a name can fail on another keyword)."""
    for keyword, options, index in old.choices:
        if keyword != "anyOf":
            continue
        for option in options[:index] + options[index + 1:]:
            for other in ctx.old_flats.alternatives((option,), old.line):
                for name in other.props.keys() - old.props.keys():
                    held, declared = content.fallback(old, name)
                    if not declared and B in ctx.breaks(held, content.fallback(new, name)[0]) \
                            and not _takes_every_holder(ctx, other, name):
                        return True
    return False


def _held_name_closed(ctx, old, new, path: str) -> Change | None:
    """A new `additionalProperties` or added pattern that rejects a name old data holds though
    `properties` does not declare it, if any: one the old object requires (every old document
    holds it), or one a `then`, `else` or dependency of the old model declares or requires (old
    data holds it where that applies). Either policy: such a name is declared.
    `additionalProperties` sees only the properties beside it; `unevaluatedProperties` also
    sees those a branch, `if` or dependency evaluated, so it counts only where nothing of the
    kind could have (content.unevaluated). Names and patterns are taken in the file's order: the
    finding a push shows is the one the next push shows."""
    conditional = old_data.conditional_names(ctx, old)
    for name in old.required:
        if name in old.props or name in new.props or name in conditional:
            continue  # a property, or a conditional name (below: its branch says what it holds)
        held = content.applying(old, name)

        def rejects(schemas: tuple) -> bool:
            return B in ctx.breaks(held, schemas) and not _pinned_taken(ctx, old, name, schemas)

        closing = content.additional_closing(new, name)
        if rejects(closing):
            return Change(B, paths.keyword(path, "additionalProperties"), "additionalProperties", held,
                          closing, name=name, required=True)
        left = content.unevaluated(new, name)[0]
        # an old unevaluatedProperties that may meet the name: what old data holds is unknown
        if left and not content.unevaluated(old, name)[1] and rejects(left):
            return Change(B, paths.keyword(path, "unevaluatedProperties"), "unevaluatedProperties", held,
                          left, name=name, required=True)
        for pattern, schemas in new.pattern_props.items():
            if pattern not in old.pattern_props and content.find(pattern, name) and rejects(schemas):
                return Change(B, paths.keyword(path, "patternProperties", pattern), "patternProperties",
                              held, schemas, name=name, required=True)
    for name, each in conditional.items():
        if name in old.props or name in new.props:
            continue  # compared as a property
        held, now = content.applying(old, name), content.applying(new, name)
        if any(B in ctx.breaks(held + declared, now) for declared in each):
            return Change(B, "", "", held, now, name=name)
    return None


def _pinned_taken(ctx, old, name: str, schemas: tuple) -> bool:
    """Whether an `enum` or `const` of the old object itself pins `name` to values `schemas`
    (of the new document) surely take: old data holds nothing else there."""
    if old.enum is None or len(old.enum) > instances.MAX_VALUES:
        return False
    targets = ctx.new_flats.alternatives(schemas, old.line)
    if any(keyword == "oneOf" for target in targets for keyword, _options, _index in target.choices):
        return False  # a value two options accept fails oneOf: one accepting it is not enough
    return all(any(instances.accepts(target, document[name], format_assertion=ctx.options.format_assertion)
                   for target in targets)
               for document in old.enum.values() if isinstance(document, dict) and name in document)


def _takes_every_holder(ctx, option, name: str) -> bool:
    """Whether an old option accepts every object holding `name`: then it matches, and so
    evaluates the name, wherever the name is present."""
    holders = Flat(line=option.line, types=frozenset({"object"}), required={name: option.line},
                   sources=(("objects holding", name),))
    return B not in ctx.within_old().strict_twin().trial(holders, option)


def _covering(patterns: dict, pattern: str) -> str | None:
    """A pattern in `patterns` proven to match every name `pattern` matches, if any."""
    return next((p for p in patterns if regex_cover.covers(p, pattern)), None)


def _compare(ctx, where: str, keyword: str, old: tuple, new: tuple, *, old_declared: bool,
             new_declared: bool) -> Iterator:
    found = ctx.breaks(old, new)
    # LENIENT: producers never wrote (old) or will never write (new) names nothing declares.
    if B in found and not ctx.lenient_assumes(not old_declared):
        yield Change(B, where, keyword, old, new)
    if F in found and not ctx.lenient_assumes(not new_declared):
        yield Change(F, where, keyword, old, new)
