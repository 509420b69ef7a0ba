"""Facts about object content models: fallbacks for undeclared names, renames, overlaps."""
from __future__ import annotations

from difflib import SequenceMatcher
from functools import lru_cache

from . import regex_cover, values
from .flat import Flat

# Annotations do not change what a property accepts, so they do not stop a rename match.
MAX_RENAME_CANDIDATES = 16
NOT_SHAPE = frozenset({"title", "description", "deprecated", "$comment", "examples", "default"})


@lru_cache(maxsize=1024)
def _regex(pattern: str):
    import regress
    return regress.Regex(pattern)


def find(pattern: str, text: str) -> bool:
    """Whether an ECMA-262 pattern matches somewhere in `text`, as validators apply it."""
    return bool(_regex(pattern).find(text))


def is_open(schemas: tuple) -> bool:
    """Absent or `true`: the default, open content model (nothing declared about extra names)."""
    return all(s is True or (isinstance(s, dict) and not s) for s in schemas)


def is_closed(schemas: tuple) -> bool:
    return any(s is False for s in schemas)


def is_schema(schemas: tuple) -> bool:
    """An explicit, non-boolean schema for extra names (a partially open content model)."""
    return bool(schemas) and all(isinstance(s, dict) for s in schemas) and not is_open(schemas)


def pattern_match(flat: Flat, name: str) -> tuple:
    """The patternProperties schemas a property name matches."""
    return tuple(s for pattern, schemas in flat.pattern_props.items()
                 if find(pattern, name) for s in schemas)


def applying(flat: Flat, name: str, *, compared: frozenset = frozenset()) -> tuple:
    """Every schema a present property `name` must match: its declarations, each pattern it
    matches (patternProperties apply to declared names too) but those `compared` on their own,
    and each `additionalProperties` whose own object neither declares it nor has a pattern for
    it (one merged in by allOf or $ref does not see the declarations beside it)."""
    matched = tuple(s for pattern, schemas in flat.pattern_props.items()
                    if pattern not in compared and find(pattern, name) for s in schemas)
    return flat.props.get(name, ()) + matched + closing(flat, name) + flat.triggered.get(name, ())


def fallback(flat: Flat, name: str) -> tuple[tuple, bool]:
    """The schemas a name not in `properties` must match, and whether they were declared: the
    patterns it matches, else the content model, each `unevaluatedProperties` only where it
    surely meets the name (an inner one takes it first, an outer one then never sees it), all
    of them where that cannot be told."""
    matched = pattern_match(flat, name)
    if matched:
        return matched, True
    declared = not is_open(flat.additional)
    if flat.unevaluated:
        met, unsure = unevaluated(flat, name)
        if not unsure:
            return additional_closing(flat, name) + met, declared
    return flat.additional, declared


def closing(flat: Flat, name: str) -> tuple:
    """The part of applying() that closes the name out: each `additionalProperties` whose own
    object neither declares `name` nor has a pattern for it, each `unevaluatedProperties` sure
    to meet it (unevaluated)."""
    return additional_closing(flat, name) + unevaluated(flat, name)[0]


def additional_closing(flat: Flat, name: str) -> tuple:
    """Each `additionalProperties` whose own object neither declares `name` nor has a pattern
    for it."""
    return tuple(s for names, patterns, schemas in flat.closures
                 if name not in names and not any(find(p, name) for p in patterns) for s in schemas)


def unevaluated(flat: Flat, name: str) -> tuple[tuple, bool]:
    """The `unevaluatedProperties` schemas a present `name` surely meets, and whether another
    may meet it (what an `if`, another option or a dependency evaluates cannot be told)."""
    met, unsure, known = [], False, {}
    for closure in flat.unevaluated:
        meets = _meets(closure, name, known)
        if meets:
            met.extend(closure.schemas)
        unsure = unsure or meets is None
    return tuple(met), unsure


def _meets(closure, name: str, known: dict) -> bool | None:
    """Whether `closure` validates a present `name`: not when its object evaluates the name
    first, nor when an inner one meets it first (it evaluates what it takes, and what it refuses
    fails the object anyway); None when that cannot be told. `known`: the answers so far, by
    closure (each is asked once: the inner ones of nested objects are shared)."""
    if id(closure) not in known:
        known[id(closure)] = _decided(closure, name, known)
    return known[id(closure)]


def _decided(closure, name: str, known: dict) -> bool | None:
    if closure.evaluates_all or name in closure.names or any(find(p, name) for p in closure.patterns):
        return False
    inner = [_meets(each, name, known) for each in closure.inner]
    if any(inner):
        return False
    if None in inner or closure.may_evaluate is None or name in closure.may_evaluate:
        return None
    return True


def cannot_hold(flat: Flat, name: str) -> bool:
    """Whether no object valid under `flat` holds the property `name` (a closed content model
    that lacks it)."""
    return name not in flat.props and name not in flat.required and closes_out(flat, name)


def holds_no_object(flat: Flat) -> bool:
    """Whether `flat` requires a name it cannot hold: no object is valid under it."""
    return any(name not in flat.props and closes_out(flat, name) for name in flat.required)


def closes_out(flat: Flat, name: str) -> bool:
    """Whether a present `name` that `properties` does not declare surely fails: a `false` it
    surely meets (an `unevaluatedProperties` that may not meet it does not count)."""
    return is_closed(pattern_match(flat, name) or closing(flat, name))


def _shape(schemas: tuple) -> str | None:
    if len(schemas) != 1:
        return None
    schema = schemas[0]
    if isinstance(schema, dict):
        schema = {k: v for k, v in schema.items() if k not in NOT_SHAPE}
    return values.canon(schema)


def renames(old: Flat, new: Flat, removed: list[str], added: list[str]) -> dict[str, str]:
    """Removed name -> added name, pairing properties whose schemas are the same."""
    free: dict[str, list[str]] = {}
    for name in added:
        shape = _shape(new.props[name])
        if shape is not None:
            free.setdefault(shape, []).append(name)
    out = {}
    for name in removed:
        candidates = free.get(_shape(old.props[name]) or "", [])
        if candidates:
            # Of several alike, the closest name: `noproxy` became `noProxy`, not `httpProxy`.
            # (among the first few: a huge rewrite must not cost removed x added comparisons)
            best = max(candidates[:MAX_RENAME_CANDIDATES], key=lambda added: _likeness(name, added))
            candidates.remove(best)
            out[name] = best
    return out


def _likeness(old: str, new: str) -> tuple:
    """How alike two property names are: the same but for case and separators, then by letters."""
    fold = lambda name: name.lower().replace("_", "").replace("-", "")
    return fold(old) == fold(new), SequenceMatcher(None, old.lower(), new.lower()).ratio()


def literals(schemas: tuple) -> set | None:
    """The values the `const`s and `enum`s among `schemas` all allow (all must hold), or None
    when none says."""
    allowed = None
    for schema in schemas:
        if isinstance(schema, dict) and "const" in schema:
            these = {values.canon(schema["const"])}
        elif isinstance(schema, dict) and isinstance(schema.get("enum"), list):
            these = {values.canon(v) for v in schema["enum"]}
        else:
            continue
        allowed = these if allowed is None else allowed & these
    return allowed


def may_overlap(a: Flat, b: Flat) -> bool:
    """Whether some value could match both (conservative: True unless clearly disjoint)."""
    if not values.meet(a.types, b.types):
        return False
    if a.enum is not None and b.enum is not None and not a.enum.keys() & b.enum.keys():
        return False
    for name in a.props.keys() & b.props.keys():
        left, right = literals(a.props[name]), literals(b.props[name])
        if left is not None and right is not None and not left & right:
            return False  # a discriminator property tells the alternatives apart
    if values.meet(a.types, b.types) == {"object"} and (_excludes(a, b) or _excludes(b, a)):
        return False  # one requires a property the other forbids
    return True


def _excludes(a: Flat, b: Flat) -> bool:
    """Whether `a` rejects every object that has all the properties `b` requires."""
    return any(_forbids(a, name) for name in b.required)


def _forbids(flat: Flat, name: str) -> bool:
    if name in flat.props:
        return any(s is False or (isinstance(s, dict) and s.get("not") in ({}, True)) for s in flat.props[name])
    return not pattern_match(flat, name) and is_closed(flat.additional)


def describe(schemas: tuple) -> str:
    """How a content model reads in a message: absent, true, false or a schema."""
    if not schemas:
        return "absent (open)"
    if len(schemas) == 1 and isinstance(schemas[0], bool):
        return "true" if schemas[0] else "false"
    return "a schema"


def may_contain(sub: Flat, sup: Flat) -> bool:
    """Cheap necessary conditions for every value of `sub` to be valid under `sup`."""
    if sub.empty:
        return True
    if any(not values.covers(sup.types, t) for t in sub.types):
        return False
    if sup.enum is not None and (sub.enum is None or not sub.enum.keys() <= sup.enum.keys()):
        return False
    if sub.has("string") and sup.patterns and _string_escapes(sub, sup):
        return False
    return not (sub.has("object") and not sup.required.keys() <= sub.required.keys())


def _string_escapes(sub: Flat, sup: Flat) -> bool:
    """Alternatives told apart by their patterns (`^ES5$`, `^DOM$`) need no full comparison."""
    if sub.enum is not None or sub.formats or not sub.patterns:
        return False
    low, high = sub.counts.get("minLength", 0), sub.counts.get("maxLength")
    return escaping_sample(sub.patterns, sup.patterns, low, high) is not None


def escaping_sample(accepting, rejecting, low: int = 0, high: int | None = None) -> str | None:
    """A sample string of the `accepting` patterns (lengths low..high) that they all match and
    some of the `rejecting` patterns does not, checked by the ECMA-262 engine; None if none."""
    for text in (t for pattern in sorted(accepting) for t in _short_samples(pattern)):
        if low <= len(text) and (high is None or len(text) <= high) \
                and all(find(p, text) for p in accepting) and not all(find(p, text) for p in rejecting):
            return text
    return None


def _short_samples(pattern: str) -> list[str]:
    """The pattern's samples within the size cap; none when every one is longer (not proven)."""
    try:
        return regex_cover.samples(pattern)
    except regex_cover.TooLong:
        return []
