"""Whether an alternative surely accepts one concrete value (conservative: False if unsure)."""
from __future__ import annotations

from fractions import Fraction

from . import content, values

MAX_VALUES = 2000  # enum values checked one by one against the other side's alternatives


def accepts(flat, value, *, format_assertion: bool) -> bool:
    """True only when every keyword `flat` states is checked and holds for `value`."""
    kind = values.type_of(value)
    if not values.covers(flat.types, kind) or flat.nots or flat.externals or flat.conditions:
        return False
    if flat.enum is not None and values.canon(value) not in flat.enum:
        return False
    if kind == "string":
        return _string(flat, value, format_assertion)
    if kind in ("integer", "number"):
        return _number(flat, value)
    return kind in ("null", "boolean")  # objects and arrays: too many keywords to be sure


def _string(flat, value: str, format_assertion: bool) -> bool:
    if format_assertion and flat.formats:
        return False
    low, high = flat.counts.get("minLength", 0), flat.counts.get("maxLength")
    return (len(value) >= low and (high is None or len(value) <= high)
            and all(content.find(pattern, value) for pattern in flat.patterns))


def _number(flat, value) -> bool:
    for bound, lower in ((flat.lower, True), (flat.upper, False)):
        if bound is not None:
            limit, exclusive, _keyword = bound
            if (value < limit or (exclusive and value == limit)) if lower else \
                    (value > limit or (exclusive and value == limit)):
                return False
    return all((Fraction(str(value)) / Fraction(str(m))).denominator == 1 for m in flat.multiples)


def each_accepted(source, targets, *, format_assertion: bool) -> bool:
    """Whether each value of an enum alternative is accepted by some target alternative."""
    if source.enum is None or len(source.enum) > MAX_VALUES:
        return False
    return all(any(accepts(t, value, format_assertion=format_assertion) for t in targets)
               for value in source.enum.values())
