"""What every protobuf rule may read besides its pair: both schemas and the chosen categories."""
from __future__ import annotations

from dataclasses import dataclass

from .categories import DEFAULT, FILE, checks_code, checks_json
from .schema import Schema


@dataclass(frozen=True)
class Context:
    old: Schema
    new: Schema
    categories: frozenset[str] = DEFAULT  # buf's breaking categories selected (categories.py)
    buf_off: frozenset[str] = frozenset()  # buf rule ids a buf.yaml left out (Options)

    def buf_checks(self, *ids: str) -> bool:
        """Whether one of the buf ids standing for a change is in use (all are, without a buf.yaml)."""
        return not set(ids) <= self.buf_off

    @property
    def json(self) -> bool:
        """Whether the JSON mapping is protected (names, JSON types, name reservations)."""
        return checks_json(self.categories)

    @property
    def code(self) -> bool:
        """Whether generated code is protected (FILE or PACKAGE)."""
        return checks_code(self.categories)

    def extension_moved(self, extendee: str, field) -> bool:
        """An extension gone from this file that NEW still declares, in a file it imports, on the
        same message with the same number and full name: payloads read as before."""
        return (extendee, field.number, field.json_name) in self.new.all_extensions

    def moved_within_package(self, full: str) -> bool:
        """A type or service gone from this file that the NEW side still defines (in a file it
        imports): PACKAGE allows moving them between files of a package, FILE does not. One
        moved to a file this one does not import is not visible here and counts as deleted."""
        return FILE not in self.categories and (full in self.new.types
                                                or full in self.new.all_services)
