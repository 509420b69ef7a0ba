"""Walk the old and new schema side by side once, yielding the narrowest old/new pairs."""
from __future__ import annotations

from collections import deque
from operator import attrgetter, is_
from collections.abc import Iterator

from ..model import BOTH_DIRECTIONS, Direction
from .build import SHARED_PRIMITIVES
from .fields import Link, match
from .resolution import pair_branches, related
from .schema import Array, Field, Map, Named, Parsed, Record, Type, Union, branches

ROOT = "$"  # the path of an unnamed top-level schema (a primitive, array, map or union)
ROOT_LINE = 1  # where a top-level type written as a bare string sits
# Primitives named by a string are one object per kind; the only types both versions share.
_SHARED = frozenset(SHARED_PRIMITIVES.values())
_NAME, _TYPE = attrgetter("name"), attrgetter("type")


# The pairs are plain slotted classes, not frozen dataclasses: building those classes costs a
# whole-process run more than all the pairs a 10,000-field schema yields. Rules only read them.
class TypePair:
    """Two types at the same position; named types are paired once, at their definitions.

    `line` is in NEW; `at` is the position without a union-branch suffix, for messages;
    `directions` are those in which a reader resolves this position against the other version:
    both, except below a field linked only by an alias, which only one side's readers know.
    """

    __slots__ = ("old", "new", "path", "line", "old_line", "at", "directions")

    def __init__(self, old: Type, new: Type, path: str, line: int, old_line: int, at: str = "",
                 directions: frozenset[Direction] = BOTH_DIRECTIONS):
        self.old, self.new, self.path, self.line, self.old_line = old, new, path, line, old_line
        self.at, self.directions = at, directions


class FieldPair:
    """A renamed field, or one in only one version: old=None added, new=None removed.

    Fields kept under the same name are not yielded as pairs; their types are. `path` is
    Record.field, with the new name when the field exists in NEW.
    """

    __slots__ = ("old", "new", "path", "old_path", "link")

    def __init__(self, old: Field | None, new: Field | None, path: str, old_path: str,
                 link: Link | None):
        self.old, self.new, self.path, self.old_path, self.link = old, new, path, old_path, link


class DefaultPair:
    """A NEW field whose default is not a value of its type; `old` is the same field in OLD
    when its default there was invalid too (the same value), else None."""

    __slots__ = ("old", "new", "path")

    def __init__(self, old: Field | None, new: Field, path: str):
        self.old, self.new, self.path = old, new, path


def default_pairs(old: Parsed, new: Parsed) -> Iterator[DefaultPair]:
    """NEW's invalid defaults, each with OLD's identical one if there was one."""
    before = {(record.fullname, field.name): field for record, field in old.bad_defaults}
    for record, field in new.bad_defaults:
        same = before.get((record.fullname, field.name))
        unchanged = same is not None and same.default == field.default and same.type.label == field.type.label
        yield DefaultPair(same if unchanged else None, field, f"{record.label}.{field.name}")


class BranchPair:
    """A union branch present on one side only; the other side's branches come along.

    `at` is the union's position, `path` the position and the branch: Record.field<int>.
    """

    __slots__ = ("old", "new", "old_branches", "new_branches", "at", "path", "line", "directions")

    def __init__(self, old: Type | None, new: Type | None, old_branches: tuple[Type, ...],
                 new_branches: tuple[Type, ...], at: str, path: str, line: int,
                 directions: frozenset[Direction] = BOTH_DIRECTIONS):
        self.old, self.new, self.at, self.path, self.line = old, new, at, path, line
        self.old_branches, self.new_branches, self.directions = old_branches, new_branches, directions


class Context:
    """What rules may consult besides the pair: both parsed versions (the new one's text)."""

    __slots__ = ("old", "new")

    def __init__(self, old: Parsed, new: Parsed):
        self.old, self.new = old, new


def walk(old: Type, new: Type, within: list | None = None) -> Iterator[TypePair | FieldPair | BranchPair]:
    """The pairs; `within`, if given, is kept set to the (old, new) files that define the
    records whose fields are being walked (their lines are in those files)."""
    walker = _Walker()
    path = new.display if isinstance(new, Named) else ROOT
    yield from walker.types(old, new, path, new.line or ROOT_LINE, old.line or ROOT_LINE)
    while walker.records:  # a queue, not recursion: named types may nest or refer to themselves
        old_record, new_record = walker.records.popleft()
        if within is not None:
            within[:] = (old_record.file, new_record.file)
        yield from walker.fields(old_record, new_record)


class _Walker:
    def __init__(self):
        self.seen: set[tuple[str, str]] = set()
        self.records: deque[tuple[Record, Record]] = deque()

    def types(self, old: Type, new: Type, path: str, line: int, old_line: int,
              directions=BOTH_DIRECTIONS, at: str = ""):
        if isinstance(old, Union) or isinstance(new, Union):
            yield from self.unions(old, new, path, line, old_line, directions)
        elif isinstance(old, Named) and isinstance(new, Named) and old.kind == new.kind:
            yield from self.named(old, new)
        elif isinstance(old, Array) and isinstance(new, Array):
            yield from self.types(old.items, new.items, f"{path}[]", new.items_line,
                                  old.items_line, directions)
        elif isinstance(old, Map) and isinstance(new, Map):
            yield from self.types(old.values, new.values, f"{path}{{}}", new.values_line,
                                  old.values_line, directions)
        elif _differs(old, new):
            yield TypePair(old, new, path, line, old_line, at or path, directions)

    def named(self, old: Named, new: Named):
        if (old.fullname, new.fullname) in self.seen:
            return  # each pair of named types is compared once, wherever it is referenced
        self.seen.add((old.fullname, new.fullname))
        yield TypePair(old, new, new.display, new.node.key_line("name"), old.node.key_line("name"),
                       new.display)
        if isinstance(old, Record):
            self.records.append((old, new))

    def unions(self, old: Type, new: Type, path: str, line: int, old_line: int, directions):
        old_branches, new_branches = branches(old), branches(new)
        if len(old_branches) == len(new_branches) and all(map(related, old_branches, new_branches)):
            matched, removed, added = list(zip(old_branches, new_branches)), [], []  # the common case
        else:
            matched, removed, added = pair_branches(old_branches, new_branches)
        if not matched:  # nothing in common: report the type as a whole
            yield TypePair(old, new, path, line, old_line, path, directions)
            return
        for o, n in matched:
            yield from self.types(o, n, f"{path}<{n.label}>", line, old_line, directions, at=path)
        for o in removed:
            yield BranchPair(o, None, old_branches, new_branches, path, f"{path}<{o.label}>",
                             line, directions)
        for n in added:
            yield BranchPair(None, n, old_branches, new_branches, path, f"{path}<{n.label}>",
                             line, directions)

    def fields(self, old: Record, new: Record):
        if _unchanged(old.fields, new.fields):
            return  # most records of a big schema: the per-field loop below would find nothing
        for old_field, new_field, link in match(old, new):
            if link is Link.NAME and old_field.type in _SHARED and old_field.type is new_field.type:
                continue  # the same primitive under the same name: nothing to compare
            old_path = f"{old.display}.{old_field.name}" if old_field else ""
            path = f"{new.display}.{new_field.name}" if new_field else old_path
            if link is not Link.NAME:  # an unchanged name has nothing to report by itself
                yield FieldPair(old_field, new_field, path, old_path, link)
            directions = _linked(old_field, new_field)
            if directions:
                yield from self.types(old_field.type, new_field.type, path,
                                      new_field.type_line, old_field.type_line, directions)


def _unchanged(old: list[Field], new: list[Field]) -> bool:
    """The same names in the same order, each with the very same (shared) primitive type."""
    types = list(map(_TYPE, new))
    return (len(old) == len(new) and list(map(_NAME, old)) == list(map(_NAME, new))
            and all(map(_SHARED.__contains__, types)) and all(map(is_, map(_TYPE, old), types)))


def _differs(old: Type, new: Type) -> bool:
    """Whether a pair left over by the walker says anything: a change of kind or logical type."""
    return (isinstance(old, Named) or isinstance(new, Named)
            or (old.kind, old.logical) != (new.kind, new.logical))


def _linked(old: Field | None, new: Field | None) -> frozenset[Direction]:
    """Directions whose readers resolve the new field against the old one (by name or own alias)."""
    if old is None or new is None:
        return frozenset()
    if old.name == new.name:
        return BOTH_DIRECTIONS
    return frozenset({Direction.BACKWARD} if old.name in new.aliases else set()) | frozenset(
        {Direction.FORWARD} if new.name in old.aliases else set())
