"""Walk two Schemas side by side once, yielding the narrowest old/new pair of each element."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Iterator

from ..model import Side
from .schema import Enum, Message, Schema


class Kind(enum.Enum):
    FILE = "file"
    MESSAGE = "message"
    FIELD = "field"  # paired by number; a different name on the same number is a rename
    FIELD_MOVED = "field moved"  # paired by name because the number changed
    EXTENSION = "extension"  # an extension deleted (changes are FIELD, renumbering FIELD_MOVED)
    ENUM = "enum"
    ENUM_VALUE = "enum value"
    ENUM_VALUE_MOVED = "enum value moved"
    RPC = "rpc"
    SERVICE = "service"


@dataclass(frozen=True)
class Pair:
    """old=None: added; new=None: removed. Parents are the enclosing message or enum."""

    kind: Kind
    old: Any
    new: Any
    old_parent: Any = None
    new_parent: Any = None
    # For a type declared in an import: the NEW line of the field of this file that uses it,
    # where findings sit when the import's path is unknown (else they move to the definition:
    # rules/protobuf/__init__.py `_at_definition`).
    anchor: int = 0

    @property
    def imported(self) -> bool:
        return bool(self.anchor)

    @property
    def path(self) -> str:
        """"Message.field" for members, "Message" for types; package-less."""
        element = self.new if self.new is not None else self.old
        parent = self.new_parent if self.new_parent is not None else self.old_parent
        return f"{parent.name}.{element.name}" if parent is not None else element.name

    @property
    def old_path(self) -> str:
        return f"{self.old_parent.name}.{self.old.name}" if self.old_parent else self.old.name

    def where(self) -> tuple[int, Side]:
        """Line and side a finding about this pair points at."""
        if self.anchor:
            return self.anchor, Side.NEW
        if self.new is not None and self.new.line:
            return self.new.line, Side.NEW
        return self.old.line, Side.OLD


def walk(old: Schema, new: Schema) -> Iterator[Pair]:
    """Every pair of the two versions, the imported types the file's fields use included."""
    yield Pair(Kind.FILE, old, new)
    pending: list[tuple[Any, Any, int]] = []
    for name, message in old.messages.items():
        outer = name.rpartition(".")[0]
        if name in new.messages:
            yield from _message(message, new.messages[name], 0, pending)
        elif not (outer in old.messages and outer not in new.messages):
            yield Pair(Kind.MESSAGE, message, None)  # only the outermost deleted message
    for name, enum_ in old.enums.items():
        outer = name.rpartition(".")[0]
        if name in new.enums:
            yield from _enum(enum_, new.enums[name], 0)
        elif not (outer in old.messages and outer not in new.messages):
            yield Pair(Kind.ENUM, enum_, None)
    for extendee, fields in old.extensions.items():
        yield from _extensions(fields, new.extensions.get(extendee), pending)
    yield from _referenced(pending, old.types, new.types)
    for name, service in old.services.items():
        yield Pair(Kind.SERVICE, service, new.services.get(name))
    for name, rpc in old.rpcs.items():
        yield Pair(Kind.RPC, rpc, new.rpcs.get(name))


def _message(old: Message, new: Message, anchor: int, pending: list) -> Iterator[Pair]:
    yield Pair(Kind.MESSAGE, old, new, anchor=anchor)
    moved_to = set()
    for number, field in old.fields.items():
        twin = new.fields.get(number)
        if twin is not None:
            # An unchanged field cannot break anything: every field rule compares the
            # attributes `same_as` compares, so the pair is not handed to them at all; but an
            # enum field's implicit default is its enum's first value, which a closed enum
            # (never in proto3, whose enums start at 0) may have moved.
            if not field.same_as(twin) or (field.kind == "enum" and old.syntax != "proto3"):
                yield Pair(Kind.FIELD, field, twin, old, new, anchor)
            if field.ref_full:
                _follow(field, twin, anchor or twin.line, pending)
            continue
        renumbered = new.by_name.get(field.name)
        if renumbered is not None and renumbered.number not in old.fields:
            moved_to.add(renumbered.number)
            yield Pair(Kind.FIELD_MOVED, field, renumbered, old, new, anchor)
        else:
            yield Pair(Kind.FIELD, field, None, old, new, anchor)
    for number, field in new.fields.items():
        if number not in old.fields and number not in moved_to:
            yield Pair(Kind.FIELD, None, field, old, new, anchor)


def _extensions(old: Message, new: Message | None, pending: list) -> Iterator[Pair]:
    """A file's extensions of one message (`new`: None when the file has none left), paired by
    number as the wire pairs them: a change is a field's change (type, name, label); the same
    name on a new number was renumbered; one gone is deleted. One added is not judged."""
    for number, field in old.fields.items():
        twin = new.fields.get(number) if new is not None else None
        if twin is not None:
            if not field.same_as(twin):
                yield Pair(Kind.FIELD, field, twin, old, new)
            if field.ref_full:
                _follow(field, twin, twin.line, pending)
            continue
        moved = new.by_name.get(field.name) if new is not None else None
        if moved is not None and moved.number not in old.fields:
            yield Pair(Kind.FIELD_MOVED, field, moved, old, new)
        else:
            yield Pair(Kind.EXTENSION, field, None, old, new)


def _enum(old: Enum, new: Enum, anchor: int) -> Iterator[Pair]:
    yield Pair(Kind.ENUM, old, new, anchor=anchor)
    for number, values in old.by_number.items():
        twins = new.by_number.get(number)
        if twins:
            # JSON writers emit a number's first-declared name and parsers take any of its
            # names: a first name the other version lacks for the number changed its JSON (a
            # rename, an alias declared before it or its first name removed). Later aliases may
            # come and go (rules/protobuf/enum_value_renamed.py).
            if (values[0].name not in {v.name for v in twins}
                    or twins[0].name not in {v.name for v in values}):
                yield Pair(Kind.ENUM_VALUE, values[0], twins[0], old, new, anchor)
            continue
        for value in values:
            moved = new.by_name.get(value.name)
            if moved is not None and moved.number not in old.by_number:
                yield Pair(Kind.ENUM_VALUE_MOVED, value, moved, old, new, anchor)
            else:
                yield Pair(Kind.ENUM_VALUE, value, None, old, new, anchor)


def _follow(old_field, new_field, anchor: int, pending: list) -> None:
    """Queue a same-named type pair to compare when either side comes from an import."""
    elements = [(old_field, new_field)]
    if old_field.map_types and new_field.map_types:
        elements.append((old_field.map_types[1], new_field.map_types[1]))
    for old_el, new_el in elements:
        if old_el.kind == new_el.kind and old_el.kind in ("message", "enum", "group") \
                and old_el.ref == new_el.ref:
            pending.append((old_el.ref_full, new_el.ref_full, anchor))


def _referenced(pending: list, old_types: dict, new_types: dict) -> Iterator[Pair]:
    """Compare the imported types this file's fields use (a change there changes its wire format)."""
    seen: set[tuple[str, str]] = set()
    while pending:
        old_full, new_full, anchor = pending.pop()
        old_type, new_type = old_types.get(old_full), new_types.get(new_full)
        if old_type is None or new_type is None or (old_type.main and new_type.main):
            continue  # both in this file: the main walk compares them by name already
        if (old_full, new_full) in seen or type(old_type) is not type(new_type):
            continue
        seen.add((old_full, new_full))
        if isinstance(old_type, Message):
            yield from _message(old_type, new_type, anchor, pending)
        else:
            yield from _enum(old_type, new_type, anchor)

