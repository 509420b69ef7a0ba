"""buf's breaking categories: their names, strictness, and which of them a selection turns on.

buf files each breaking rule under the categories it protects, from the most lenient to the
strictest: WIRE (the binary encoding), WIRE_JSON (also the JSON mapping), PACKAGE (also generated
code, per package) and FILE (also generated code, per file). A rule runs when one of the selected
categories holds it. Every rule that protects a lenient category also sits in every stricter one,
so selecting FILE also runs what WIRE runs (tests/rules/protobuf/test_categories.py keeps it so).

The default is WIRE_JSON: schema-review guards data (what readers and writers of two versions
make of each other's payloads), and JSON is how much protobuf data travels (buf: "we recommend
this as the minimum level"). FILE and PACKAGE add generated code's stability (a deleted message,
a renamed oneof) and are opt-in; buf's own default is FILE.
"""
from __future__ import annotations

WIRE, WIRE_JSON, PACKAGE, FILE = "WIRE", "WIRE_JSON", "PACKAGE", "FILE"
ORDER = (WIRE, WIRE_JSON, PACKAGE, FILE)  # most lenient first
DEFAULT = frozenset({WIRE, WIRE_JSON})


def from_(lenient: str) -> frozenset[str]:
    """A rule's categories: `lenient` and every stricter one (buf never skips a level)."""
    return frozenset(ORDER[ORDER.index(lenient):])


ALL = from_(WIRE)
JSON = from_(WIRE_JSON)  # the categories that protect the JSON mapping
CODE = from_(PACKAGE)  # the categories that protect generated code


def checks_json(selected: frozenset[str]) -> bool:
    return bool(selected & JSON)


def checks_code(selected: frozenset[str]) -> bool:
    return bool(selected & CODE)
