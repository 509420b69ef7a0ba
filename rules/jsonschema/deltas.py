"""What changed between two alternatives: types, allowed values and value constraints."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from ..model import Severity
from . import content, old_data, regex_automaton, regex_cover, values
from .flat import CONTAINS_COUNTS, LOWER_BOUNDS, Flat, bound_key

TIGHTENED, LOOSENED, CHANGED = "tightened", "loosened", "changed"
FORMAT_ANNOTATION = (' "format" is an annotation unless validators assert it, so no data is'
                     ' rejected by default (CLI: --format-assertion; App: jsonschema.format_assertion:'
                     ' true makes it an error).')
PATTERN_UNDECIDED = (" No string was found that one pattern accepts and the other rejects, and neither"
                     " was shown to accept every string the other does (compared: alternatives,"
                     " character classes, anchors, repeats, leading lookaheads); a warning until one is.")
STRICT_PATTERN = (" Confluent's registry refuses any change to a pattern (PATTERN_CHANGED), which the"
                  " strict policy follows; semantically {semantics}.")
PATTERN_WITNESS = " For example {text} is accepted by {accepting} and rejected by {rejecting}."
MAX_SHOWN = 5  # enum values quoted in a message
MAX_IMPLIED = 64  # integers a bounded integer type may stand for as an enum
# keyword -> the kind of value it constrains
COUNT_KIND = {"minLength": "string", "maxLength": "string", "minItems": "array", "maxItems": "array",
              "minContains": "array", "maxContains": "array", "minProperties": "object",
              "maxProperties": "object"}


@dataclass(frozen=True)
class Delta:
    keyword: str
    change: str  # TIGHTENED, LOOSENED or CHANGED
    old: str
    new: str
    note: str = ""  # said after the message: how sure the verdict is
    shown: bool = True  # a value shows the break (an error needs one where it is not obvious)


def types(old: Flat, new: Flat) -> tuple[frozenset, frozenset]:
    """(types old accepted that new does not, types new accepts that old did not)."""
    removed = frozenset(t for t in old.types if not values.covers(new.types, t))
    added = frozenset(t for t in new.types if not values.covers(old.types, t))
    return removed, added


def show_types(flat: Flat) -> str:
    return "anything" if flat.types == values.ALL_TYPES else values.show(flat.types)


def enum(old: Flat, new: Flat) -> tuple[bool, bool]:
    """(some value old allowed is no longer allowed, some new value was not allowed before)."""
    if old.enum is None and new.enum is None:
        return False, False
    old_values, new_values = allowed(old), allowed(new)
    if old_values is None:
        return True, False
    if new_values is None:
        return False, True
    return bool(old_values.keys() - new_values.keys()), bool(new_values.keys() - old_values.keys())


def allowed(flat: Flat) -> dict | None:
    """The values a side allows, canonical form -> value, where they are few: its `enum`/`const`,
    or what its types and bounds leave (`"type": "integer", "minimum": 1, "maximum": 1` is
    `"const": 1`); None for too many to list."""
    if flat.enum is not None:
        return flat.enum
    # Only where nothing else narrows the values (a superset on the new side would hide a break).
    if not flat.types or not flat.types <= {"null", "boolean", "integer"} or flat.multiples \
            or flat.nots or flat.conditions or flat.externals:
        return None
    found = [None] if "null" in flat.types else []
    found += [False, True] if "boolean" in flat.types else []
    if "integer" in flat.types:
        if flat.lower is None or flat.upper is None:
            return None
        if not all(_finite(bound[0]) for bound in (flat.lower, flat.upper)):
            return None
        low, high = _integer_bound(flat.lower, lower=True), _integer_bound(flat.upper, lower=False)
        if high - low >= MAX_IMPLIED:
            return None
        found += range(low, high + 1)
    return {values.canon(value): value for value in found}


def _finite(value) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, (int, Fraction)) or (isinstance(value, float) and math.isfinite(value))


def _integer_bound(bound: tuple, *, lower: bool) -> int:
    """The least (greatest) integer a lower (upper) bound lets through."""
    value, exclusive, _keyword = bound
    if lower:
        return math.floor(value) + 1 if exclusive else math.ceil(value)
    return math.ceil(value) - 1 if exclusive else math.floor(value)


def show_enum(flat: Flat) -> str:
    shown_values = allowed(flat)
    if shown_values is None:
        return "any value"
    shown = [json.dumps(v) for v in list(shown_values.values())[:MAX_SHOWN]]
    more = ", ..." if len(shown_values) > MAX_SHOWN else ""
    return "[" + ", ".join(shown) + more + "]"


def severity(delta: Delta, options) -> tuple[Severity | None, str]:
    """(severity override, message suffix): "format" is an annotation unless asserted."""
    if delta.keyword == "format" and not options.format_assertion:
        return Severity.WARNING, FORMAT_ANNOTATION
    return (None if delta.shown else Severity.WARNING), delta.note


def of(ctx, old: Flat, new: Flat) -> tuple[Delta, ...]:
    """constraints(old, new), worked out once per pair (three rules read them)."""
    key = ("deltas", old.identity, new.identity)
    if key not in ctx.memo:
        ctx.memo[key] = (old, new, tuple(constraints(old, new, strict=ctx.strict)))
    return ctx.memo[key][2]


def constraints(old: Flat, new: Flat, *, strict: bool = False) -> Iterator[Delta]:
    """Every constraint that differs, for the kinds of value both sides accept."""
    if old.empty:
        return  # nothing was valid: no constraint can reject old data, the type rules say the rest
    contains_kept = (old.contains is None) == (new.contains is None)
    for keyword, kind in COUNT_KIND.items():
        if keyword in CONTAINS_COUNTS and not contains_kept:
            continue  # counts of matches come and go with `contains`, which says so itself
        if old.has(kind) and new.has(kind):
            yield from (delta for delta in _count(keyword, old.counts.get(keyword), new.counts.get(keyword))
                        if strict or not _length_implied(delta, old))
    if old.has("number") and new.has("number"):
        yield from _bound(old.lower, new.lower, lower=True)
        yield from _bound(old.upper, new.upper, lower=False)
        yield from _multiples(old.multiples, new.multiples, exact=strict)
    if old.has("string") and new.has("string"):
        yield from _patterns(old.patterns, new.patterns, strict)
        yield from _sets("format", old.formats, new.formats)
    if old.has("array") and new.has("array"):
        if old.unique != new.unique:
            yield Delta("uniqueItems", TIGHTENED if new.unique else LOOSENED, _json(old.unique), _json(new.unique))
        if (old.contains is None) != (new.contains is None):
            yield Delta("contains", TIGHTENED if old.contains is None else LOOSENED,
                        "none" if old.contains is None else "a schema", "none" if new.contains is None else "a schema")
    if bool(old.nots) != bool(new.nots) and not (not strict and _never_matched(old, new.nots)):
        yield Delta("not", LOOSENED if old.nots else TIGHTENED, "a schema" if old.nots else "none",
                    "a schema" if new.nots else "none")


def _never_matched(old: Flat, nots: tuple) -> bool:
    """Whether no old data matches any of the new `not` schemas (lenient policy): each is an
    object schema that requires a name `old` does not declare (`"not": {"required": ["a",
    "b"]}` beside an old schema without "b"), and old data is an object or the schema says so."""
    objects = old.types <= {"object"}
    return all(isinstance(node, dict) and isinstance(node.get("required"), list)
               and (objects or node.get("type") == "object")
               and any(isinstance(name, str) and not old_data.declares(old, name)
                       for name in node["required"])
               for node in nots)


def _json(value) -> str:
    return "none" if value is None else json.dumps(value)


def _count(keyword: str, old, new) -> Iterator[Delta]:
    if old == new:
        return
    lower = keyword in LOWER_BOUNDS
    if old is None:
        tighter = True
    elif new is None:
        tighter = False
    else:
        tighter = new > old if lower else new < old
    yield Delta(keyword, TIGHTENED if tighter else LOOSENED, _json(old), _json(new))


def _length_implied(delta: Delta, old: Flat) -> bool:
    """Whether a tighter string length is one the old patterns already imposed (`minLength: 1`
    beside `"pattern": "^[^\\s]+$"`): every string they match has that length (lenient)."""
    if delta.change != TIGHTENED or delta.keyword not in ("minLength", "maxLength") or not old.patterns:
        return False
    bound = int(delta.new)
    length = f"^[\\s\\S]{{{bound},}}$" if delta.keyword == "minLength" else f"^[\\s\\S]{{0,{bound}}}$"
    return regex_automaton.escape(frozenset(old.patterns), frozenset({length})).contained


def _bound(old: tuple | None, new: tuple | None, *, lower: bool) -> Iterator[Delta]:
    if old == new or (old and new and bound_key(old, lower) == bound_key(new, lower)):
        return
    keyword = (new or old)[2]
    if old is None or new is None:
        tighter = old is None
    else:
        tighter = bound_key(new, lower) > bound_key(old, lower) if lower else bound_key(new, lower) < bound_key(old, lower)
    yield Delta(keyword, TIGHTENED if tighter else LOOSENED, _show_bound(old), _show_bound(new))


def _show_bound(bound: tuple | None) -> str:
    if bound is None:
        return "none"
    return _json(bound[0]) + (" (exclusive)" if bound[1] else "")


def _divides(small, big, exact: bool = False) -> bool:
    """Whether every multiple of `big` is one of `small`, as validators decide it: a fractional
    divisor is divided in binary floating point (jsonschema: 0.3 / 0.1 is 2.9999999999999996,
    so 0.3 is no multiple of 0.1), so only the same fractional divisor is known to divide."""
    if not exact and isinstance(small, float) and not small.is_integer():
        return small == big
    ratio = Fraction(str(big)) / Fraction(str(small))
    return ratio.denominator == 1


def _multiples(old: tuple, new: tuple, *, exact: bool = False) -> Iterator[Delta]:
    """`exact`: decimal arithmetic, as Confluent's registry compares (strict)."""
    # A new multipleOf m is implied when every old multiple is already a multiple of m.
    new_is_tighter = any(not any(_divides(m, o, exact) for o in old) for m in new)
    old_was_tighter = any(not any(_divides(m, n, exact) for n in new) for m in old)
    change = CHANGED if new_is_tighter and old_was_tighter else (
        TIGHTENED if new_is_tighter else LOOSENED if old_was_tighter else None)
    if change:
        show = lambda ms: ", ".join(map(_json, ms)) or "none"
        yield Delta("multipleOf", change, show(old), show(new))


def _sets(keyword: str, old: frozenset, new: frozenset) -> Iterator[Delta]:
    added, removed = new - old, old - new
    if added or removed:
        change = CHANGED if added and removed else TIGHTENED if added else LOOSENED
        show = lambda items: ", ".join(map(json.dumps, sorted(items))) or "none"
        yield Delta(keyword, change, show(old), show(new))


def _patterns(old: frozenset, new: frozenset, strict: bool = False) -> Iterator[Delta]:
    """All patterns must hold. A change is an error only with a string in hand that shows it:
    old data the new patterns reject (tightened), or new data the old ones reject (loosened).
    Strict: Confluent's registry refuses any pattern replaced by another (PATTERN_CHANGED)."""
    if old == new:
        return
    back, forth = _escape(old, new), _escape(new, old)
    if strict and old and new:
        yield _confluent_change(old, new, back, forth)
        return
    if back.contained and forth.contained:
        return  # the same strings, spelled differently
    change = LOOSENED if back.contained else TIGHTENED if forth.contained else CHANGED
    old_side, new_side = _side("old", old), _side("new", new)
    notes = [PATTERN_WITNESS.format(text=json.dumps(found.witness), accepting=accepting, rejecting=rejecting)
             for found, accepting, rejecting, breaks in ((back, old_side, new_side, change != LOOSENED),
                                                         (forth, new_side, old_side, change != TIGHTENED))
             if breaks and found.witness is not None]
    show = lambda items: ", ".join(map(json.dumps, sorted(items))) or "none"
    yield Delta("pattern", change, show(old), show(new), "".join(notes) or PATTERN_UNDECIDED, shown=bool(notes))


def _confluent_change(old: frozenset, new: frozenset, back, forth) -> Delta:
    """A pattern replaced, as Confluent classifies it, saying what the semantics would."""
    if back.contained and forth.contained:
        semantics = "both accept the same strings"
    elif back.contained:
        semantics = "the new pattern accepts every string the old one does"
    elif forth.contained:
        semantics = "the old pattern accepts every string the new one does"
    else:
        semantics = "neither accepts every string the other does"
    show = lambda items: ", ".join(map(json.dumps, sorted(items)))
    return Delta("pattern", CHANGED, show(old), show(new), STRICT_PATTERN.format(semantics=semantics))


def _side(version: str, patterns: frozenset) -> str:
    if not patterns:
        return f"the {version} version (no pattern)"
    return f"the {version} pattern" + ("s" if len(patterns) > 1 else "")


def _escape(accepting: frozenset, rejecting: frozenset) -> regex_automaton.Verdict:
    """A sample string of the accepting patterns first (cheap: unrelated alternatives are
    compared by the hundred), then automata, then the common-shape proof."""
    text = content.escaping_sample(accepting, rejecting)
    if text is not None and text.isascii() and text.isprintable():
        return regex_automaton.Verdict(False, text)
    verdict = regex_automaton.escape(accepting, rejecting)  # a readable string, if it finds one
    if verdict.contained or verdict.witness is not None:
        return verdict
    if text is not None:
        return regex_automaton.Verdict(False, text)
    if all(any(regex_cover.covers(r, a) for a in accepting) for r in rejecting):
        return regex_automaton.Verdict(True)
    return verdict
