"""The compiled protobuf file as plain, package-less objects the rules can read."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from . import descriptors


class Cardinality(str, enum.Enum):
    IMPLICIT = "singular"  # proto3 scalar without presence
    OPTIONAL = "optional"  # explicit presence (proto2 optional, proto3 optional, messages)
    REQUIRED = "required"
    REPEATED = "repeated"
    MAP = "map"


@dataclass(frozen=True)
class Span:
    """Where a declaration sits: 1-based lines, 0-based columns, as protoc's source info says."""

    line: int = 0
    col: int = 0
    end_line: int = 0
    end_col: int = 0


class SpanIndex:
    """protoc's source locations by path, indexed on first use: most elements never need a line.
    `locations` holds each SourceCodeInfo.Location serialized (rules.protobuf.descriptors)."""

    def __init__(self, locations=(), file: str = ""):
        self._locations = locations
        self.file = file  # an imported file's path, as findings name it; "" for the file itself
        self._by_path: dict[bytes, bytes] | None = None

    def get(self, path: tuple) -> Span:
        if len(path) % 2 and len(path) != 1:
            return Span()  # declarations have even-length paths; the package is (2,)
        if self._by_path is None:
            self._by_path = descriptors.spans(self._locations)
        raw = descriptors.unpacked(self._by_path.get(descriptors.packed(path), b""))
        if not raw:
            return Span()
        if len(raw) == 3:
            return Span(raw[0] + 1, raw[1], raw[0] + 1, raw[2])
        return Span(raw[0] + 1, raw[1], raw[2] + 1, raw[3])


class Located:
    """An element whose span is looked up in its file's SpanIndex only when asked."""

    at: tuple
    index: SpanIndex

    @property
    def span(self) -> Span:
        return self.index.get(self.at)

    @property
    def line(self) -> int:
        return self.span.line


@dataclass(eq=False)
class Field(Located):
    name: str
    number: int
    kind: str  # scalar name ("int32", "string"...), "message", "enum" or "group"
    ref: str  # package-less name of the referenced message/enum, "" for scalars
    ref_full: str  # fully qualified name of the reference (no leading dot), "" for scalars
    cardinality: Cardinality
    oneof: str | None  # the real (non-synthetic) oneof it belongs to
    json_name: str
    default: str | None  # the explicit [default = ...], as protoc normalised it
    deprecated: bool
    at: tuple
    index: SpanIndex
    map_types: tuple["Field", "Field"] | None = None  # key and value fields of a map
    # Options that shape only generated code (FieldOptions.CType and .JSType, by name).
    ctype: str = "STRING"
    jstype: str = "JS_NORMAL"
    # A string field whose reader refuses text that is not UTF-8 (proto3, editions' VERIFY);
    # False for proto2's and editions' NONE strings, which read any bytes, and other kinds.
    utf8_verified: bool = False

    def same_as(self, other: "Field") -> bool:
        """Equal in everything a compatibility rule looks at (not in where it is written)."""
        return (self.name == other.name and self.number == other.number
                and self.kind == other.kind and self.ref == other.ref
                and self.cardinality == other.cardinality and self.oneof == other.oneof
                and self.json_name == other.json_name and self.default == other.default
                and self.deprecated == other.deprecated
                and self.ctype == other.ctype and self.jstype == other.jstype
                and self.utf8_verified == other.utf8_verified
                and _same_types(self.map_types, other.map_types))


def _same_types(mine, theirs) -> bool:
    if not mine or not theirs:
        return mine == theirs
    return all(a.kind == b.kind and a.ref == b.ref and a.utf8_verified == b.utf8_verified
               for a, b in zip(mine, theirs))


@dataclass(eq=False)
class EnumValue(Located):
    name: str
    number: int
    deprecated: bool
    at: tuple
    index: SpanIndex


@dataclass(eq=False)
class Reserved:
    """A message's or an enum's reservations; ranges are half-open [start, end)."""

    ranges: tuple[tuple[int, int], ...] = ()
    names: tuple[str, ...] = ()
    range_paths: tuple[tuple, ...] = ()  # source-info path of each range, parallel to `ranges`
    name_paths: tuple[tuple, ...] = ()

    def covers(self, number: int) -> bool:
        return any(start <= number < end for start, end in self.ranges)


@dataclass(eq=False)
class Message(Located):
    name: str  # package-less, "Outer.Inner"
    full: str
    fields: dict[int, Field]  # declaration order
    reserved: Reserved
    at: tuple
    index: SpanIndex
    syntax: str
    main: bool  # declared in the file under review (not in one of its imports)
    nested: tuple[str, ...] = ()  # package-less names of nested messages and enums
    map_entry: bool = False
    by_name: dict[str, Field] = field(default_factory=dict)


@dataclass(eq=False)
class Enum(Located):
    name: str
    full: str
    values: tuple[EnumValue, ...]
    reserved: Reserved
    at: tuple
    index: SpanIndex
    syntax: str
    main: bool
    by_number: dict[int, list[EnumValue]] = field(default_factory=dict)
    by_name: dict[str, EnumValue] = field(default_factory=dict)


@dataclass(eq=False)
class Rpc(Located):
    name: str  # "Service.Method"
    request: str
    response: str
    client_streaming: bool
    server_streaming: bool
    at: tuple
    index: SpanIndex
    idempotency: str = "IDEMPOTENCY_UNKNOWN"  # MethodOptions.idempotency_level, by name


@dataclass(eq=False)
class Service(Located):
    name: str
    full: str
    at: tuple
    index: SpanIndex


@dataclass(eq=False)
class Schema:
    """One compiled version: the file's own types by package-less name, and every type by full name."""

    path: str
    lines: list[str]
    syntax: str
    package: str
    index: SpanIndex
    messages: dict[str, Message]  # the file's own, nested included, map entries excluded
    enums: dict[str, Enum]
    rpcs: dict[str, Rpc]
    types: dict[str, Message | Enum]  # full name -> type, across the file and its imports
    services: dict[str, Service] = field(default_factory=dict)  # the file's own, by name
    # Full names of the services of the file and its imports (PACKAGE allows moving one).
    all_services: frozenset[str] = frozenset()
    # FileOptions buf compares (rules/protobuf/file_option_changed.py), as written in a .proto
    # file: name -> value (strings unquoted, "true"/"false", enum value names), defaults included.
    file_options: dict[str, str] = field(default_factory=dict)
    # The file's `extend` fields by extendee's full name, each set as a message of its own
    # (named "extend <Message>"), fields by number: compared like fields, never as a message.
    extensions: dict[str, Message] = field(default_factory=dict)
    # (extendee, number, JSON key `[p.x]`) of every extension of the file and its imports: what
    # identifies one on the wire and in JSON (PACKAGE allows moving one to an imported file).
    all_extensions: frozenset[tuple[str, int, str]] = frozenset()

    @property
    def package_span(self) -> Span:
        return self.index.get((2,))
