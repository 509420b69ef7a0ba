"""Pair a record's old and new fields: by name, then by alias, then as a detected rename."""
from __future__ import annotations

import enum
from collections import defaultdict

from .schema import Field, Record, signature


class Link(str, enum.Enum):
    """How an old field was found for a new one."""

    NAME = "name"
    NEW_ALIAS = "new_alias"  # the new field lists the old name in its aliases (a reader alias)
    OLD_ALIAS = "old_alias"  # the old field lists the new name (helps old readers only)
    GUESSED = "guessed"  # no alias: a removed and an added field of the same type


def match(old: Record, new: Record) -> list[tuple[Field | None, Field | None, Link | None]]:
    """(old, new, link) for every field; old=None: added, new=None: removed."""
    if [f.name for f in old.fields] == [f.name for f in new.fields]:
        return [(o, n, Link.NAME) for o, n in zip(old.fields, new.fields)]  # the common case
    old_left = {f.name: f for f in old.fields}
    found: dict[str, tuple[Field, Link]] = {}
    for field in new.fields:
        if field.name in old_left:
            found[field.name] = (old_left.pop(field.name), Link.NAME)
    for field in new.fields:
        alias = field.aliases and next((a for a in field.aliases if a in old_left), None)
        if field.name not in found and alias:
            found[field.name] = (old_left.pop(alias), Link.NEW_ALIAS)
    new_left = {f.name: f for f in new.fields if f.name not in found}
    for field in list(old_left.values()):
        alias = field.aliases and next((a for a in field.aliases if a in new_left), None)
        if alias:
            found[new_left.pop(alias).name] = (old_left.pop(field.name), Link.OLD_ALIAS)
    for old_field, new_field in _guess_renames(list(old_left.values()), list(new_left.values())):
        found[new_field.name] = (old_left.pop(old_field.name), Link.GUESSED)
    pairs = [(found[f.name][0], f, found[f.name][1]) if f.name in found else (None, f, None)
             for f in new.fields]
    return pairs + [(f, None, None) for f in old.fields if f.name in old_left]


def _guess_renames(removed: list[Field], added: list[Field]) -> list[tuple[Field, Field]]:
    """Pairs of the same type: the only such pair, or else the ones at the same position."""
    if not removed or not added:
        return []
    by_type_old, by_type_new = defaultdict(list), defaultdict(list)
    for field in removed:
        by_type_old[signature(field.type)].append(field)
    for field in added:
        by_type_new[signature(field.type)].append(field)
    pairs = []
    for key, news in by_type_new.items():
        olds = by_type_old.get(key, [])
        if len(olds) == 1 and len(news) == 1:
            pairs.append((olds[0], news[0]))
            continue
        at = {f.index: f for f in olds}
        pairs.extend((at[f.index], f) for f in news if f.index in at)
    return pairs
