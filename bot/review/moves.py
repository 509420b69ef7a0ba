"""A schema moved to a new file: GitHub lists a removal and an addition when the two files share
too little text to call it a rename, yet the type is the same (an Avro full name, a protobuf
`package.Message`, a JSON Schema `$id`). Paired up, they are compared like a rename, so moving a
type cannot hide its breaking change (a removal alone is a warning, an addition has no base).

A file leaves the review by deletion or by a rename to a name the config does not review (a
`.bak`, a path under `exclude` or outside `paths`): either way it is a removal of what it
defined, paired over the pull request's added files whatever the names are. The types are all
a file defines, nested ones included (rules/type_names.py): one that moved below an added file's
top level is compared where it now sits; one that moved into a changed file fails closed.

A file without an identity (a JSON Schema without `$id`, an Avro file of unnamed types) or an
addition without one is paired by content instead: the files' features (JSON: every scalar with
the object keys leading to it, list positions left out so a removed field shifts nothing;
Protobuf: its tokens, comments aside) shared by both, over the larger file's count, at least
SIMILAR (git's rename threshold); every such addition is compared with it, not only the most
alike (an identical copy beside a broken one must not pick the copy silently). A removal still unpaired while such an addition is unpaired
too is ambiguous: it fails closed (`SCHEMA_NOT_REVIEWED`), never a silent pass."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Callable, Iterator

from rules import type_names
from rules.likeness import MAX_COMPARISONS, SIMILAR, features, identities, similarity

RENAMED = "renamed"  # the files API's status (bot.review.review.FileStatus.RENAMED)
AMBIGUOUS = ('it was removed and "{added}" added, one of them without a type name to follow '
             "(an Avro full name, a protobuf `package.Message`, a JSON Schema `$id`), and their "
             "contents not found alike enough to call it a move")
MOVED_INTO_CHANGED = ('its type {name} is now defined in "{host}", which the pull request changes too: a '
                      "type moved into a changed file is not compared with the version it left")


def leaves_review(change, classify: Callable) -> bool:
    """Whether a change takes a reviewed file out of the review: deleted, or renamed to a name
    the config does not review."""
    return change.base_text is not None and (
        change.head_text is None or classify(change.previous_path or change.path) is not None
        and classify(change.path) is None)


def paired(changes: list, classify: Callable) -> list:
    """`changes` with each file leaving the review that defines a type an added file of the
    same format defines too (or, without identities, is alike: see the module's docstring)
    replaced by one renamed change from the first to the second; an ambiguous one is marked
    not reviewable (its `problem`)."""
    removed = [side for c in changes if leaves_review(c, classify)
               if (side := _Side(c, classify(c.previous_path or c.path), c.base_text)).fmt is not None]
    added = [side for c in changes if c.base_text is None and c.head_text is not None
             if (side := _Side(c, classify(c.path), c.head_text)).fmt is not None]
    if not removed:
        return changes
    pairs: list[tuple[_Side, _Side]] = []
    for gone in removed:  # by identity first: a shared type name is the strongest evidence
        # Each added file that took some of its types (they may have split up) is compared.
        for new in [a for a in added if not a.used and a.fmt is gone.fmt and gone.names & a.names]:
            pairs.append(gone.pair(new))
    if _weak_candidates(removed, added) <= MAX_COMPARISONS:
        scored = sorted(((similarity(g.features, a.features), i, g, a)
                         for i, (g, a) in enumerate(_weak_pairs(removed, added))),
                        key=lambda item: (-item[0], item[1]))
        by_content: set[int] = set()  # removals paired by content: each alike addition is compared
        for score, _index, gone, new in scored:
            if score >= SIMILAR and not new.used and (not gone.used or id(gone) in by_content):
                by_content.add(id(gone))
                pairs.append(gone.pair(new))
    problems = _moved_into_changed(changes, removed, classify)
    # An unpaired removal beside an unpaired addition that may be it: whether it moved is not known.
    for gone, new in _weak_pairs(removed, added):
        if id(gone.change) not in problems:
            problems[id(gone.change)] = AMBIGUOUS.format(added=new.change.path)
    merged = {id(new.change): _renamed(gone, new) for gone, new in pairs}
    # Each now the base of its additions, unless it was paired by type names and one of them
    # went nowhere: then its removal stays listed too (a type that an unrelated file shares
    # must not hide it); a pair by content has no names to follow.
    moved_to: dict[int, set] = {}
    for gone, new in pairs:
        moved_to.setdefault(id(gone.change), set()).update(new.names if gone.names & new.names else gone.names)
    left = {id(gone.change) for gone, _new in pairs if gone.names <= moved_to[id(gone.change)]}
    out = []
    for c in changes:
        key = id(c)
        if key in left:
            continue
        if key in problems:
            c = replace(c, problem=c.problem or problems[key])
        out.append(merged.get(key, c))
    return out


def _moved_into_changed(changes: list, removed: list[_Side], classify: Callable) -> dict[int, str]:
    """Unpaired removals whose types a changed file now defines (its head, not its base): that
    file is compared with its own base, so the move fails closed rather than pass unseen."""
    problems: dict[int, str] = {}
    left = [gone for gone in removed if not gone.used and gone.names]
    if not left:
        return problems
    hosts = [side for c in changes if c.base_text is not None and c.head_text is not None
             and not c.context and not leaves_review(c, classify)
             if (side := _Side(c, classify(c.path), c.head_text)).fmt is not None and side.names]
    for host in hosts:
        arrived = host.names - identities(host.fmt, host.change.base_text)
        for gone in left:
            if gone.fmt is host.fmt and (moved := gone.names & arrived):
                problems.setdefault(id(gone.change), MOVED_INTO_CHANGED.format(
                    name=min(moved), host=host.change.path))
    return problems


def _weak_pairs(removed: list[_Side], added: list[_Side]) -> Iterator[tuple[_Side, _Side]]:
    """Unpaired removals and additions of one format, one of them without an identity."""
    return ((g, a) for g in removed if not g.used for a in added
            if not a.used and a.fmt is g.fmt and not (g.names and a.names))


def _weak_candidates(removed: list[_Side], added: list[_Side]) -> int:
    """How many _weak_pairs there are, counted without forming them (a pull request lists up
    to 3,000 files)."""
    unnamed, every = Counter(), Counter()
    for a in added:
        if not a.used:
            every[a.fmt] += 1
            unnamed[a.fmt] += not a.names
    return sum(unnamed[g.fmt] if g.names else every[g.fmt] for g in removed if not g.used)


class _Side:
    """One file of a possible move: its format, its type names, its features when needed."""

    def __init__(self, change, classified, text):
        self.change, self.text, self.used = change, text, False
        self.fmt = classified.format if classified is not None else None
        self.defined = type_names.defined(self.fmt, text) if self.fmt is not None else type_names.NOTHING
        self.names = frozenset(self.defined.names)
        self._features = None

    @property
    def features(self) -> Counter:
        if self._features is None:
            self._features = features(self.fmt, self.text)
        return self._features

    def pair(self, new: _Side) -> tuple[_Side, _Side]:
        self.used = new.used = True
        return self, new


def _renamed(gone: _Side, new: _Side):
    """The addition, compared with the version the removal took away, like a rename; when
    the types moved below the new file's top level, with the new file holding the old
    definitions of those types (rules/type_names.py), every version of the history alike."""
    def base(text):
        moved = type_names.moved_base(new.fmt, type_names.defined(new.fmt, text, located=True), new.defined)
        return text if moved is None else moved

    old, added = gone.change, new.change
    history = tuple((sha, date, base(text), *rest) for sha, date, text, *rest in old.history)
    return replace(added, status=RENAMED, previous_path=old.previous_path or old.path,
                   base_text=base(old.base_text), base_imports=old.base_imports,
                   base_withheld=old.base_withheld, history=history,
                   blob_ids=(old.blob_ids[0], added.blob_ids[1]), problem=old.problem or added.problem)
