"""The Avro schema model the rules read: resolved named types and fields, with their lines."""
from __future__ import annotations

from ..textlines import file_lines

PRIMITIVES = frozenset({"null", "boolean", "int", "long", "float", "double", "bytes", "string"})
NAMED_KINDS = frozenset({"record", "enum", "fixed"})
# Logical-type attributes that change how a value is read; other attributes are documentation.
LOGICAL_KEYS = ("logicalType", "precision", "scale")
# The deprecation convention: `"deprecated": true` on the field, or a doc starting with one of these.
DEPRECATED_DOC_PREFIXES = ("deprecated", "@deprecated")


class _Missing:
    """The absent default (JSON null is a real default, so None cannot mean "none")."""

    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT = _Missing()


# The model types are plain slotted classes, not dataclasses: a 10,000-field schema builds
# thousands of them, and creating the dataclasses alone cost a whole-process check more than
# building them all (as for the pairs, rules/avro/pairs.py). They compare by identity.
class Type:
    """One schema node; `line` is where it is declared (a definition or a type reference)."""

    __slots__ = ("kind", "line", "logical")

    def __init__(self, *, kind: str, line: int, logical: tuple = ()):
        # kind: a primitive name, "record", "enum", "fixed", "array", "map" or "union"
        self.kind, self.line = kind, line
        self.logical = logical  # ((key, value), ...) of LOGICAL_KEYS present on the node

    def __repr__(self) -> str:
        return f"{type(self).__name__}(kind={self.kind!r}, line={self.line!r})"

    @property
    def label(self) -> str:
        """How messages name this type: its kind, or a named type's display name."""
        return self.kind


class Named(Type):
    __slots__ = ("name", "fullname", "namespace", "aliases", "node", "display", "file")

    def __init__(self, *, name: str, fullname: str, namespace: str,
                 aliases: frozenset[str] = frozenset(), node: dict | None = None, display: str = "",
                 file: str = "", **common):
        super().__init__(**common)
        self.name, self.fullname, self.namespace = name, fullname, namespace  # name: unqualified
        self.aliases = aliases  # fully qualified, as the spec resolves them
        self.node = {} if node is None else node  # the defining JSON object (a jsontext.LineDict)
        self.display = display  # the name paths use: unqualified unless two types share it
        self.file = file  # where it is defined: the schema's own file, or another one that it uses

    @property
    def label(self) -> str:
        return self.display or self.name


class Field:
    """A record field; its lines are read from its JSON object only when something asks."""

    __slots__ = ("name", "type", "index", "node", "default", "aliases")

    def __init__(self, name: str, type: Type, index: int, node: dict,
                 default: object = NO_DEFAULT, aliases: tuple[str, ...] = ()):
        self.name, self.type, self.index, self.node = name, type, index, node  # node: a LineDict
        self.default, self.aliases = default, aliases

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, type={self.type.kind!r}, index={self.index})"

    @property
    def line(self) -> int:
        return self.node.line

    @property
    def type_line(self) -> int:
        return self.node.key_line("type")

    @property
    def has_default(self) -> bool:
        return self.default is not NO_DEFAULT

    @property
    def deprecated(self) -> bool:
        doc = self.node.get("doc")
        by_doc = isinstance(doc, str) and doc.lstrip().lower().startswith(DEPRECATED_DOC_PREFIXES)
        return self.node.get("deprecated") is True or by_doc


class Record(Named):
    __slots__ = ("fields",)

    def __init__(self, *, fields: list[Field] | None = None, **named):
        super().__init__(**named)
        self.fields = [] if fields is None else fields


class Enum(Named):
    __slots__ = ("symbols", "default")

    def __init__(self, *, symbols: tuple[str, ...] = (), default: str | None = None, **named):
        super().__init__(**named)
        self.symbols, self.default = symbols, default


class Fixed(Named):
    __slots__ = ("size",)

    def __init__(self, *, size: int = 0, **named):
        super().__init__(**named)
        self.size = size


class Array(Type):
    __slots__ = ("items", "items_line")

    def __init__(self, *, items: Type | None = None, items_line: int = 0, **common):
        super().__init__(**common)
        # items_line: where "items" is written (a named type's own line is its definition)
        self.items, self.items_line = items, items_line


class Map(Type):
    __slots__ = ("values", "values_line")

    def __init__(self, *, values: Type | None = None, values_line: int = 0, **common):
        super().__init__(**common)
        self.values, self.values_line = values, values_line


class Union(Type):
    __slots__ = ("branches",)

    def __init__(self, *, branches: tuple[Type, ...] = (), **common):
        super().__init__(**common)
        self.branches = branches


class Parsed:
    """One parsed version: the root type, its named types, and the text lines for suggestions."""

    __slots__ = ("path", "root", "named", "text", "_lines", "bad_defaults")

    def __init__(self, path: str, root: Type, named: dict[str, Named], text: str,
                 bad_defaults: tuple = ()):
        self.path, self.root, self.named, self.text, self._lines = path, root, named, text, None
        # (record, field) whose default is not a value of the field's type: reported, not fatal
        self.bad_defaults = bad_defaults

    @property
    def lines(self) -> list[str]:
        # Split only when a suggestion needs them: an old version never does.
        if self._lines is None:
            self._lines = file_lines(self.text)
        return self._lines


def branches(schema: Type) -> tuple[Type, ...]:
    """A union's branches, or the type itself as the only branch."""
    return schema.branches if isinstance(schema, Union) else (schema,)


def signature(schema: Type, depth: int = 0) -> str:
    """A structural key for rename detection: equal when two fields have the same type."""
    if isinstance(schema, Named):
        return f"@{schema.fullname}"
    if depth > 32:  # anonymous nesting is bounded by the JSON depth; this only caps the cost
        return "..."
    if isinstance(schema, Array):
        return f"[{signature(schema.items, depth + 1)}]"
    if isinstance(schema, Map):
        return f"{{{signature(schema.values, depth + 1)}}}"
    if isinstance(schema, Union):
        return "|".join(signature(b, depth + 1) for b in schema.branches)
    return schema.kind + repr(schema.logical) if schema.logical else schema.kind


def describe(schema: Type, depth: int = 0) -> str:
    """A short human form of a type for messages: int, Address, array<string>, [null, int]."""
    if depth > 3:
        return "..."
    if isinstance(schema, Array):
        return f"array<{describe(schema.items, depth + 1)}>"
    if isinstance(schema, Map):
        return f"map<{describe(schema.values, depth + 1)}>"
    if isinstance(schema, Union):
        return "[" + ", ".join(describe(b, depth + 1) for b in schema.branches) + "]"
    return schema.label
