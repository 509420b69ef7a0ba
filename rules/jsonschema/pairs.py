"""Walk old and new side by side once, yielding the narrowest corresponding pairs."""
from __future__ import annotations

import dataclasses
import itertools
import json
from dataclasses import dataclass
from typing import Iterator

from ..jsontext import LineDict
from ..limits import MAX_WALK_DEPTH
from ..model import Direction, SchemaError
from . import content, instances, negations, old_data, paths, regex_automaton, untouched
from .drafts import ALL_REFERENCES
from .flat import Flat
from .flatten import TooManyAlternatives
from .refs import External

MAX_CANDIDATES = 8  # alternatives compared in full to find the nearest counterpart of one
MAX_HELD_DEPTH = 4  # property names below a oneOf alternative followed to ask who held them
TOO_DEEP = "schema nests deeper than {limit} levels (counting $ref steps)"


@dataclass(frozen=True)
class SchemaPair:
    """One alternative of the old schema and the new alternative it corresponds to."""

    old: Flat
    new: Flat
    path: str
    siblings: tuple = ()  # the old alternatives `old` sits among, when it is one of several
    # (the old alternative of a oneOf, its siblings, the property names from it down to here)
    anchor: tuple = ()


@dataclass(frozen=True)
class UncheckedPair:
    """A place where a side holds a `$ref` whose target was not read: the base's `unresolved`
    ones (no validator could use the base there, so what the new one has is compared with
    nothing), or, when that is empty, references outside the repository that differ."""

    old: Flat
    new: Flat
    path: str
    line: int  # where the head has it (a `$ref`'s target may sit in another file)
    unresolved: frozenset = frozenset()


@dataclass(frozen=True)
class PropertyPair:
    """A property only one side declares (old_name or new_name is None), or a rename."""

    parent: SchemaPair
    old_name: str | None
    new_name: str | None

    @property
    def path(self) -> str:
        return paths.prop(self.parent.path, self.new_name or self.old_name)


@dataclass(frozen=True)
class BranchPair:
    """An anyOf/oneOf alternative with no counterpart on the other side (old or new is None)."""

    old: Flat | None
    new: Flat | None
    path: str
    line: int


@dataclass(frozen=True)
class OverlapPair:
    """A new oneOf alternative (`added`) that old data matching `old` may also match; with
    `forward`, an old one that new data matching the new alternative `old` may also match."""

    old: Flat
    added: Flat
    path: str
    became_exclusive: bool = False  # the alternative was an anyOf one in OLD
    widened: bool = False  # OLD had an alternative at this place that accepted less
    forward: bool = False  # mirrored: `added` is the OLD oneOf's, `old` a NEW alternative


class Seen(set):
    """The pairs one trial comparison has walked, in order (`log`): a walk that cut nothing
    short is kept with the pairs it covered, and replayed where none of them was seen yet."""

    def __init__(self):
        super().__init__()
        self.log: list = []


def walk(ctx, old: tuple, new: tuple, path: str, lines: tuple, seen: set, depth: int = 0,
         anchor: tuple = ()) -> Iterator:
    """Pairs (and, for alternatives and `not`, findings already made) for two schemas."""
    key = (tuple(map(id, old)), tuple(map(id, new)))
    if key in seen:
        ctx.cuts += 1
        return  # recursive schemas: each pair of subschemas is compared once
    if not isinstance(seen, Seen) or anchor:  # (what a walk below an alternative finds depends on it)
        seen.add(key)
        yield from _walk(ctx, old, new, path, lines, seen, depth, anchor)
        return
    # Trials only count findings: a definition used in many places (tsconfig's compilerOptions
    # under each of the root's alternatives) is walked once, and replayed as it was.
    walked = ctx.memo.get(("walk", key))
    if walked is not None and seen.isdisjoint(walked[3]):
        seen.update(walked[3])
        seen.log.extend(walked[3])
        yield from walked[2]
        return
    cuts, start = ctx.cuts, len(seen.log)
    seen.add(key)
    seen.log.append(key)
    items = list(_walk(ctx, old, new, path, lines, seen, depth))
    if ctx.cuts == cuts:  # nothing depended on what this trial had walked before
        ctx.memo[("walk", key)] = (old, new, items, tuple(seen.log[start:]))
    yield from items


def _walk(ctx, old: tuple, new: tuple, path: str, lines: tuple, seen: set, depth: int,
          anchor: tuple = ()) -> Iterator:
    if _same(ctx, old, new):
        return
    if depth > MAX_WALK_DEPTH:
        raise SchemaError(ctx.new.path, lines[1], TOO_DEEP.format(limit=MAX_WALK_DEPTH))
    olds = ctx.old_flats.alternatives(old, lines[0])
    news = ctx.new_flats.alternatives(new, lines[1])
    if len(olds) == 1 and len(news) == 1:
        yield from flat_pairs(ctx, olds[0], news[0], path, seen, depth, line=lines[1], anchor=anchor)
    else:
        yield from alternatives(ctx, olds, news, path, seen, depth)


def _same(ctx, old: tuple, new: tuple) -> bool:
    """Identical text without references, read by the same draft: nothing below can differ
    (the common case; each draft reads its own keywords)."""
    if len(old) != 1 or len(new) != 1 or ctx.old.draft is not ctx.new.draft:
        return False
    old_schema, new_schema = ctx.old.refs.resolve(old[0]), ctx.new.refs.resolve(new[0])
    if isinstance(old_schema, External) or isinstance(new_schema, External):
        return False
    if isinstance(old_schema, LineDict) and isinstance(new_schema, LineDict):
        # The same text parses to the same value; without an escape, a reference's key can
        # only be written as itself (most properties of a big pair are untouched: no dumps).
        old_text = old_schema.source
        if old_text == new_schema.source and "\\" not in old_text:
            return not any(f'"{keyword}"' in old_text for keyword in ALL_REFERENCES)
    old_text = json.dumps(old_schema, sort_keys=True)
    if any(f'"{keyword}"' in old_text for keyword in ALL_REFERENCES):
        return False  # a reference's target may differ even where its text does not
    return old_text == json.dumps(new_schema, sort_keys=True)


def flat_pairs(ctx, old: Flat, new: Flat, path: str, seen: set, depth: int,
               line: int | None = None, siblings: tuple = (), anchor: tuple = ()) -> Iterator:
    line = new.line if line is None else line
    unresolved = old.externals - ctx.outside
    if unresolved or old.externals != new.externals:
        yield UncheckedPair(old, new, path, line, unresolved)
        return
    # The same outside reference on both sides (or none): the same unknown constraint holds in
    # both, so comparing the rest is enough (old = E and A, new = E and B: A within B suffices).
    pair = SchemaPair(old, new, path, siblings, (old, siblings, ()) if siblings else anchor)
    yield pair
    if old.empty or new.empty:
        return  # one side accepts nothing: the type rules say so, the keywords no longer matter
    if old.has("object") and new.has("object"):
        yield from _objects(ctx, pair, seen, depth + 1)
    if old.has("array") and new.has("array"):
        yield from _arrays(ctx, pair, seen, depth + 1)
    if old.nots and new.nots:
        yield from _negated(ctx, old, new, path, seen, depth + 1)


def _negated(ctx, old: Flat, new: Flat, path: str, seen: set, depth: int) -> Iterator:
    """Both sides' `not`: a narrower negated schema is a wider schema, so each finding breaks
    the other way. A new negated alternative that no old data matches (lenient: it requires a
    name `old` does not declare) refuses nothing old data held: it is left out of what breaks it."""
    where, lines = paths.keyword(path, "not"), (old.key_line("not"), new.key_line("not"))
    news = ctx.new_flats.alternatives(new.nots, lines[1])
    held = [n for n in news if not ctx.lenient_assumes(old_data.never_matches(ctx, old, n))]
    found = ctx.flipped(ctx.run(old.nots, new.nots, where, lines, seen, depth))
    if len(held) == len(news):
        yield from found
        return
    yield from _one_way(ctx, Direction.FORWARD, found)
    if held:  # what old data may match, each against the old negated alternatives
        olds = ctx.old_flats.alternatives(old.nots, lines[0])
        nested = ctx.run_alternatives(olds, held, where, seen, depth)
        yield from _one_way(ctx, Direction.BACKWARD, ctx.flipped(nested))


def _objects(ctx, pair: SchemaPair, seen: set, depth: int) -> Iterator:
    old, new, path = pair.old, pair.new, pair.path
    for name in new.props:
        if name in old.props:
            lines = (old.prop_lines.get(name, old.line), new.prop_lines.get(name, new.line))
            anchor = _below(pair.anchor, name)
            yield from _unless_held_elsewhere(ctx, anchor, _property(
                ctx, old, new, name, paths.prop(path, name), lines, seen, depth, anchor))
    removed = [name for name in old.props if name not in new.props]
    added = [name for name in new.props if name not in old.props]
    renames = content.renames(old, new, removed, added)
    for old_name, new_name in renames.items():
        yield PropertyPair(pair, old_name, new_name)
    for name in removed:
        if name not in renames:
            yield PropertyPair(pair, name, None)
    taken = set(renames.values())
    for name in added:
        if name not in taken:
            yield PropertyPair(pair, None, name)
    if content.is_schema(old.additional) and content.is_schema(new.additional):
        yield from walk(ctx, old.additional, new.additional, path + ".*",
                        (old.key_line("additionalProperties"), new.key_line("additionalProperties")), seen, depth)
    for keyword, old_map, new_map in (("patternProperties", old.pattern_props, new.pattern_props),
                                      ("dependentSchemas", old.dep_schemas, new.dep_schemas)):
        for name in new_map.keys() & old_map.keys():
            yield from walk(ctx, old_map[name], new_map[name], paths.keyword(path, keyword, name),
                            (old.key_line(keyword), new.key_line(keyword)), seen, depth)
    if old.property_names or new.property_names:
        # An absent propertyNames accepts any name: one added is compared with that.
        names = (old.property_names, new.property_names, paths.keyword(path, "propertyNames"),
                 (old.key_line("propertyNames"), new.key_line("propertyNames")), seen, depth)
        if _names_kept(ctx, old, new):
            # Lenient: every name old data holds still passes, so only new data's names can
            # break (FORWARD), and those are old data's again under a `not`.
            yield from _one_way(ctx, Direction.FORWARD, ctx.run(*names))
        else:
            yield from walk(ctx, *names)


def _property(ctx, old: Flat, new: Flat, name: str, path: str, lines: tuple, seen: set, depth: int,
              anchor: tuple = ()):
    """A property both sides declare, with all that applies to it (content.applying). What
    applies besides its declarations (patterns, another object's additionalProperties) is left
    out where it is the same on both sides (A within B implies A and P within B and P, and an
    unchanged pattern with many alternatives multiplies nothing). A pattern both sides have is
    compared on its own (_objects): old P within new P' and A within B imply A and P within B
    and P'; where it is not, that comparison already reports the break."""
    declared = (old.props[name], new.props[name])
    both = frozenset(old.pattern_props.keys() & new.pattern_props.keys())
    old_all, new_all = (content.applying(flat, name, compared=both) for flat in (old, new))
    old_extra, new_extra = old_all[len(declared[0]):], new_all[len(declared[1]):]
    if content.is_closed(old_extra):
        # Another object's content model refused the name (a closed base beside the property):
        # no old document held it, so nothing about it breaks backward, nor forward where the
        # new object refuses it too.
        if not content.is_closed(new_extra):
            yield from _one_way(ctx, Direction.FORWARD, ctx.check(walk(ctx, *declared, path, lines, seen, depth, anchor)))
        return
    if len(old_extra) == len(new_extra) and all(map(lambda a, b: untouched.same(ctx, a, b), old_extra, new_extra)):
        yield from _backward_confirmed(ctx, old, name, both, declared, path, lines, depth, anchor,
                                       walk(ctx, *declared, path, lines, seen, depth, anchor))
        return
    try:
        ctx.old_flats.alternatives(old_all, lines[0])
        ctx.new_flats.alternatives(new_all, lines[1])
    except TooManyAlternatives:
        # Together they combine into too many alternatives: compared apart, each extra against
        # the other side's declarations, in the direction it can break (this may say more).
        yield from walk(ctx, *declared, path, lines, seen, depth)
        for extra in new_extra:
            if not any(untouched.same(ctx, kept, extra) for kept in old_extra):
                yield from _one_way(ctx, Direction.BACKWARD, ctx.run(declared[0], (extra,), path, lines, seen, depth))
        for extra in old_extra:
            if not any(untouched.same(ctx, extra, kept) for kept in new_extra):
                yield from _one_way(ctx, Direction.FORWARD, ctx.run((extra,), declared[1], path, lines, seen, depth))
        return
    yield from _backward_confirmed(ctx, old, name, both, (old_all, new_all), path, lines, depth, anchor,
                                   walk(ctx, old_all, new_all, path, lines, seen, depth, anchor))


def _backward_confirmed(ctx, old: Flat, name: str, both: frozenset, compared: tuple, path: str,
                        lines: tuple, depth: int, anchor: tuple, items) -> Iterator:
    """The findings of comparing `compared` (a property's schemas, less the patterns both sides
    have), each breaking backward only where old data that also met those old patterns breaks:
    A within B is not needed for A and P within B and P' (an old pattern for every name may
    already narrow `type` on each array item as the new declaration does). Such data breaks
    at the same path, though maybe by another rule (the pattern declares what was added)."""
    shared = tuple(s for pattern, schemas in old.pattern_props.items()
                   if pattern in both and content.find(pattern, name) for s in schemas)
    if not shared or ctx.memo.get("confirming"):  # (one confirmation at a time: they nest deep)
        yield from items
        return
    found = list(ctx.check(items))
    if not any(Direction.BACKWARD in ctx.breaks_of(f) for f in found):
        yield from found
        return
    whole = compared[0] + shared
    ctx.memo["confirming"] = True
    try:
        again = {f.path for f in ctx.check(walk(ctx, whole, compared[1], path, lines, set(), depth, anchor))
                 if Direction.BACKWARD in ctx.breaks_of(f)}
    except (SchemaError, RecursionError):  # (below, too many alternatives, or too deep)
        yield from found
        return
    finally:
        ctx.memo["confirming"] = False
    for finding in found:
        if Direction.BACKWARD in ctx.breaks_of(finding) and finding.path not in again:
            yield from _one_way(ctx, Direction.FORWARD, (finding,))
        else:
            yield finding


def _below(anchor: tuple, name: str) -> tuple:
    """The anchor of a property of the pair anchored at `anchor` (none too deep below it)."""
    if not anchor or len(anchor[2]) >= MAX_HELD_DEPTH:
        return ()
    return (*anchor[:2], anchor[2] + (name,))


def _unless_held_elsewhere(ctx, anchor: tuple, items) -> Iterator:
    """A property's findings, but only those breaking forward where every old document that
    held it also matched a sibling of its oneOf alternative: no valid old document held it.
    Asked only when something breaks backward (each question is a comparison)."""
    if not anchor:
        yield from items
        return
    found = list(ctx.check(items))
    if any(Direction.BACKWARD in ctx.breaks_of(f) for f in found) and old_data.held_elsewhere(ctx, *anchor):
        found = list(_one_way(ctx, Direction.FORWARD, found))
    yield from found


def _one_way(ctx, direction: Direction, found) -> Iterator:
    """The findings that break in `direction`, said to break in it alone."""
    return (dataclasses.replace(f, breaks=frozenset({direction})) for f in found if direction in ctx.breaks_of(f))


def _names_kept(ctx, old: Flat, new: Flat) -> bool:
    """Lenient: whether the new propertyNames surely accepts every name old data may hold."""
    if ctx.strict or not new.property_names or content.is_schema(old.additional):
        return False
    names = set(old.props) | set(old.required) | set(old_data.conditional_names(ctx, old))
    accepted = ctx.new_flats.alternatives(new.property_names, new.key_line("propertyNames"))
    return ctx.lenient_assumes(
        all(any(instances.accepts(flat, name, format_assertion=ctx.options.format_assertion)
                for flat in accepted) for name in names)
        and all(_pattern_kept(pattern, accepted) for pattern in old.pattern_props))


def _pattern_kept(pattern: str, accepted: list[Flat]) -> bool:
    """Whether every name matching a patternProperties pattern is a string the one new
    propertyNames alternative accepts (its patterns and length bounds, decided on the regexes)."""
    if len(accepted) != 1:
        return False
    flat = accepted[0]
    if flat.enum is not None or flat.formats or flat.nots or flat.externals or flat.conditions \
            or "string" not in flat.types:
        return False
    rules = set(flat.patterns)
    low, high = flat.counts.get("minLength", 0), flat.counts.get("maxLength")
    if low or high is not None:
        rules.add(f"^[\\s\\S]{{{low},{'' if high is None else high}}}$")
    return not rules or regex_automaton.escape(frozenset({pattern}), frozenset(rules)).contained


def _arrays(ctx, pair: SchemaPair, seen: set, depth: int) -> Iterator:
    old, new, path = pair.old, pair.new, pair.path
    lines = (old.key_line("items"), new.key_line("items"))
    for index in range(max(len(old.prefix), len(new.prefix))):
        yield from walk(ctx, old.item(index), new.item(index), f"{path}[{index}]", lines, seen, depth)
    if old.rest or new.rest:
        yield from walk(ctx, old.rest, new.rest, f"{path}[]", lines, seen, depth)
    if old.contains is not None and new.contains is not None:
        where, lines = paths.keyword(path, "contains"), (old.key_line("contains"), new.key_line("contains"))
        if "maxContains" in old.counts or "maxContains" in new.counts:
            # Under maxContains, `contains` bounds from above too: a schema that matches more
            # items refuses arrays old data held, as one that matches fewer does.
            yield from ctx.both_ways(ctx.run(old.contains, new.contains, where, lines, seen, depth))
        else:
            yield from walk(ctx, old.contains, new.contains, where, lines, seen, depth)


def alternatives(ctx, olds: list[Flat], news: list[Flat], path: str, seen: set, depth: int) -> Iterator:
    """anyOf/oneOf: every old alternative must fit some new one (backward), and vice versa."""
    for direction, sources, targets in ((Direction.BACKWARD, olds, news),
                                        (Direction.FORWARD, news, olds)):
        for whole in (source for source in sources if not source.empty):  # no data to carry
            if direction is Direction.BACKWARD:
                whole = old_data.as_matched(ctx, whole)
            unmatched = []  # the parts (by type) like no target at all: one finding names them all
            for source in _parts(ctx, direction, whole, targets):
                if _fits(ctx, direction, source, targets):
                    continue
                best = _closest(ctx, direction, source, targets)
                if best is None:
                    unmatched.append(source)
                    continue
                old, new = _order(direction, source, best)
                found = ctx.run_flat(old, new, path + new.label, seen, depth + 1, tuple(olds))
                # Only this direction is known to break: another alternative may cover the other.
                yield from (dataclasses.replace(f, breaks=frozenset({direction}))
                            for f in found if direction in ctx.breaks_of(f))
            if unmatched:
                source = dataclasses.replace(unmatched[0], types=frozenset().union(
                    *(part.types for part in unmatched))).finish()
                old, new = _order(direction, source, None)
                yield BranchPair(old, new, path + source.label, source.line)
    yield from _overlaps(ctx, olds, news, path)
    # Mirrored: new data matching two of the old oneOf's alternatives fails the old schema
    # (a oneOf became an anyOf, an alternative split in two overlapping ones). Only where two
    # of them may overlap at all: disjoint ones (task kinds told apart by a required key) are
    # the common case, and the comparisons would recurse through each of them again.
    exclusive = [o for o in olds if "/oneOf[" in o.label]
    if any(content.may_overlap(a, b) for a, b in itertools.combinations(exclusive, 2)):
        yield from (dataclasses.replace(found, forward=True) for found in _overlaps(ctx, news, olds, path))


def _fits(ctx, direction: Direction, source: Flat, targets: list[Flat]) -> bool:
    # A finite alternative fits when each of its values is valid under some target, even if
    # no single target takes them all (the sibling alternatives of the one that changed).
    # Asked once per comparison: a definition used in many places has the same alternatives.
    key = ("fits", direction, source.identity, tuple(t.identity for t in targets))
    if key not in ctx.memo:
        ctx.memo[key] = (source, targets, instances.each_accepted(
            source, targets, format_assertion=ctx.options.format_assertion) or any(
            content.may_contain(*_order(direction, source, t))
            and direction not in ctx.trial(*_order(direction, source, t)) for t in targets))
    return ctx.memo[key][2]


def _parts(ctx, direction: Direction, source: Flat, targets: list[Flat]) -> list[Flat]:
    """The alternative itself, or split by type when no single target takes all its types
    (`"type": ["null", "string"]` fits `oneOf: [{"type": "null"}, {"type": "string"}]`), or
    in two halves by a negated property (`_halves`)."""
    if _fits(ctx, direction, source, targets):
        return [source]
    if len(source.types) < 2:
        return _halves(ctx, direction, source, targets)
    return [dataclasses.replace(source, types=frozenset({kind})).finish() for kind in sorted(source.types)]


def _halves(ctx, direction: Direction, source: Flat, targets: list[Flat]) -> list[Flat]:
    """The alternative in two halves split by a property a target negates, when they compare
    better one by one (`"type": {"not": {"enum": ["project"]}}` in one target, `"enum":
    ["project"]` in another: old data of either kind has its own counterpart), or itself."""
    best = _closest(ctx, direction, source, targets)
    whole = _issues(ctx, direction, source, best) if best is not None else None
    for halves in negations.splits(source, targets):
        found, fitting = set(), True
        for half in (h for h in halves if not _fits(ctx, direction, h, targets)):
            near = _closest(ctx, direction, half, targets)
            if near is None:
                break
            fitting, found = False, found | _issues(ctx, direction, half, near)
        else:
            # Each half's own changes only: the whole compared with one target reports the
            # other half's place in another target as a change too.
            if fitting or whole is not None and found < whole:
                return list(halves)
    return [source]


def _issues(ctx, direction: Direction, source: Flat, target: Flat) -> set:
    """(rule, path) of what breaks `direction` between an alternative and a target."""
    found = ctx.trial_findings(*_order(direction, source, target))
    return {(f.rule, f.path) for f in found if direction in ctx.breaks_of(f)}


def _order(direction: Direction, source, target) -> tuple:
    return (source, target) if direction is Direction.BACKWARD else (target, source)


def _closest(ctx, direction: Direction, source: Flat, targets: list[Flat]) -> Flat | None:
    """The alternative sharing values with `source` that needs the fewest changes, if any."""
    key = ("closest", direction, source.identity, tuple(t.identity for t in targets))
    if key not in ctx.memo:
        ctx.memo[key] = (source, targets, _nearest(ctx, direction, source, targets))
    found = ctx.memo[key][2]
    return None if found is None else targets[found]


def _nearest(ctx, direction: Direction, source: Flat, targets: list[Flat]) -> int | None:
    near = [t for t in targets if content.may_overlap(source, t)]
    # Compare in full only with the few most alike by property names (alternatives can be many).
    near = sorted(near, key=lambda t: -len(source.props.keys() & t.props.keys()))[:MAX_CANDIDATES]
    scored = [(len(ctx.trial_findings(*_order(direction, source, t))), i, t) for i, t in enumerate(near)]
    return next(i for i, t in enumerate(targets) if t is min(scored)[2]) if scored else None


def _overlaps(ctx, olds: list[Flat], news: list[Flat], path: str) -> Iterator:
    exclusive = [n for n in news if "/oneOf[" in n.label]
    # Only an old *oneOf* alternative vouches that old data matched it alone: an anyOf one
    # that became a oneOf one (same schema) may now match together with its neighbours.
    # Each old alternative vouches for one new one: a copy of it added beside it is added.
    vouching = [o for o in olds if "/oneOf[" in o.label]
    added = []
    for n in exclusive:
        same = next((o for o in vouching if _equivalent(ctx, o, n)), None)
        if same is not None:
            vouching.remove(same)
        elif not _narrowed_in_place(ctx, olds, n):
            added.append(n)
    for old in olds:
        if old.empty or not added:
            continue
        matched = [n for n in exclusive if content.may_contain(old, n)
                   and Direction.BACKWARD not in ctx.trial(old, n)]
        for extra in added:
            # Old data another alternative takes whole may match this one too.
            others = [n for n in matched if n is not extra]
            if others and (extra in matched or content.may_overlap(old, extra)) \
                    and not old_data.cannot_match(ctx, old, extra):
                yield OverlapPair(old, extra, path + extra.label, _was_any_of(olds, extra),
                                  any(o.label == extra.label for o in olds))


def _was_any_of(olds: list[Flat], new: Flat) -> bool:
    """Whether OLD had this alternative at the same place under anyOf where NEW says oneOf."""
    return any(o.label != new.label and o.label.replace("/anyOf[", "/oneOf[") == new.label.replace("/anyOf[", "/oneOf[")
               for o in olds)


def _equivalent(ctx, old: Flat, new: Flat) -> bool:
    return content.may_contain(old, new) and content.may_contain(new, old) and not ctx.trial(old, new)


def _narrowed_in_place(ctx, olds: list[Flat], new: Flat) -> bool:
    """A changed oneOf alternative that accepts nothing its old self (same position) did not:
    old data it matches matched that alternative alone, so it cannot match two now."""
    return any(o.label == new.label and content.may_contain(new, o)
               and Direction.FORWARD not in ctx.trial(o, new) for o in olds)
