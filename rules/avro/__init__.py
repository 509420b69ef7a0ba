"""Avro support: parse, pair old/new elements once, run the Avro rules (listed in RULES).

Paths name elements by where they are declared: `Record.field` (the record's unqualified name,
or its full name when two named types share it), `Enum.SYMBOL`, a named type by its name, and
below a field `[]` for array items, `{}` for map values and `<type>` for a union branch
(`Order.lines[]`, `Event.value<int>`). An unnamed top-level schema is `$`.
"""
from __future__ import annotations

import dataclasses
from collections import defaultdict
from itertools import chain
from collections.abc import Iterable

from ..model import BOTH_DIRECTIONS, Finding, Options, Side
from . import (decimal_changed, enum_symbol_added, enum_symbol_removed,
               field_added_without_default, field_default_invalid, field_deleted_not_deprecated,
               field_alias_ambiguous, field_removed_without_default, field_renamed_with_alias,
               field_renamed_without_alias, fixed_size_changed, logical_type_changed,
               named_type_renamed_with_alias, named_type_renamed_without_alias,
               nullable_made_non_nullable, type_changed, type_promoted, union_branch_added,
               union_branch_removed)
from .gc_pause import gc_paused
from .pairs import Context, TypePair, default_pairs, walk
from .parse import parse
from .schema import Named, Parsed

RULES = (
    field_added_without_default,
    field_removed_without_default,
    field_deleted_not_deprecated,
    field_renamed_without_alias,
    field_renamed_with_alias,
    field_alias_ambiguous,
    type_changed,
    type_promoted,
    union_branch_removed,
    union_branch_added,
    nullable_made_non_nullable,
    enum_symbol_removed,
    enum_symbol_added,
    fixed_size_changed,
    named_type_renamed_without_alias,
    named_type_renamed_with_alias,
    decimal_changed,
    logical_type_changed,
    field_default_invalid,
)

__all__ = ["RULES", "parse", "compare"]


def compare(old: Parsed, new: Parsed, options: Options) -> Iterable[Finding]:
    """Every rule's findings for one old/new pair; each rule sees only the pairs it inspects."""
    with gc_paused():
        return list(_findings(old, new))


def _findings(old: Parsed, new: Parsed) -> Iterable[Finding]:
    checks = defaultdict(list)
    for rule in RULES:
        checks[rule.PAIR].append(rule)
    ctx = Context(old=old, new=new)
    within = [old.path, new.path]
    for pair in chain(walk(old.root, new.root, within), default_pairs(old, new)):
        for rule in checks[type(pair)]:
            for finding in rule.check(pair, ctx):
                finding = _attributed(finding, pair, within, old=old.path, new=new.path)
                yield from _within(finding, rule.SPEC, getattr(pair, "directions", BOTH_DIRECTIONS))


def _attributed(finding: Finding, pair, within: list, *, old: str, new: str) -> Finding:
    """A finding about a type defined in another file names that file (its line is there).
    Suggestions are made from the checked file's own text, so one for another file is dropped."""
    if isinstance(pair, TypePair) and isinstance(pair.old, Named) and isinstance(pair.new, Named):
        files = (pair.old.file, pair.new.file)
    else:
        files = within
    file = files[0] if finding.side is Side.OLD else files[1]
    if file in ("", old, new):
        return finding
    return dataclasses.replace(finding, file=file, suggestion=None)


def _within(finding: Finding, spec, directions) -> Iterable[Finding]:
    """Keep only the breaks in directions whose readers actually resolve the pair."""
    breaks = spec.breaks if finding.breaks is None else finding.breaks
    if directions == BOTH_DIRECTIONS or not breaks:
        yield finding
    elif breaks & directions:
        yield dataclasses.replace(finding, breaks=breaks & directions)
