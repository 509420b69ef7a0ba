"""Build the Avro model from parsed JSON: resolve names and namespaces, enforce the spec's rules."""
from __future__ import annotations

import json
import re
from collections import Counter

from ..model import SchemaError, Unresolved
from .library import Library
from .logical import annotation
from .schema import (NAMED_KINDS, NO_DEFAULT, PRIMITIVES, Array, Enum, Field, Fixed, Map, Named,
                     Record, Type, Union)

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
NOT_A_TYPE = "not an Avro type: {value}"
UNKNOWN_TYPE = 'unknown type "{name}" (named types must be defined before they are used)'
MISSING = '{what} has no "{key}"'
BAD_NAME = ('invalid name {name}: names start with a letter or _ and contain only letters, '
            'digits and _')
REDEFINED = 'named type "{name}" is defined twice'
NOT_LIST = '"{key}" of {what} must be a JSON array'
NOT_STRINGS = '"{key}" of {what} must be a list of strings'
DUPLICATE_FIELD = 'record "{record}" has two fields named "{name}"'
DUPLICATE_SYMBOL = 'enum "{name}" lists symbol "{symbol}" twice'
ENUM_DEFAULT = 'enum "{name}" has default {default}, which is not one of its symbols'
BAD_SIZE = 'fixed "{name}" needs a non-negative integer "size"'
NESTED_UNION = "a union may not directly contain another union"
DUPLICATE_BRANCH = 'a union may not contain "{name}" twice'
BAD_NAMESPACE = 'namespace of "{name}" must be a string'


# A primitive named by a string carries nothing but its kind, so one instance serves them all
# (the walker passes positions along itself); 10,000-field schemas make this worth it.
SHARED_PRIMITIVES = {kind: Type(kind=kind, line=0) for kind in PRIMITIVES}
_ABSENT = object()  # a key the JSON object does not have (null is a value)


class Builder:
    """Turns one JSON document into model types; raises SchemaError naming the line at fault."""

    def __init__(self, file: str, library: Library | None = None):
        self.file, self.library = file, library
        self._loading: set[str] = set()
        self.named: dict[str, Named] = {}
        self.defaulted: list[Field] = []  # fields with a default, checked once all types exist
        self.names_ok: set[str] = set()

    def fail(self, line: int | None, problem: str):
        raise SchemaError(self.file, line, problem)

    def type(self, value, namespace: str, line: int) -> Type:
        if isinstance(value, str):
            return self.reference(value, namespace, line)
        if isinstance(value, list):
            return self.union(value, namespace, line)
        if isinstance(value, dict):
            return self.complex(value, namespace)
        self.fail(line, NOT_A_TYPE.format(value=_short(value)))

    def reference(self, name: str, namespace: str, line: int) -> Type:
        if name in PRIMITIVES:
            return SHARED_PRIMITIVES[name]
        full = name if "." in name or not namespace else f"{namespace}.{name}"
        found = self.named.get(full) or self.load(full)
        if found is None:  # defined nowhere in the set: no Avro library can parse the file
            raise Unresolved(self.file, line, UNKNOWN_TYPE.format(name=name))
        return found

    def load(self, full: str) -> Named | None:
        """Build the other file that defines `full` into this model, once."""
        hit = self.library.lookup(full) if self.library else None
        if hit is None or hit[0] in self._loading:
            return None
        path, document = hit
        self._loading.add(path)
        file, self.file = self.file, path  # its errors name its own file
        try:
            self.type(document, "", getattr(document, "line", 1))
        finally:
            self.file = file
        return self.named.get(full)

    def union(self, values: list, namespace: str, line: int) -> Union:
        branches = tuple(self.type(value, namespace, line) for value in values)
        seen = Counter(b.fullname if isinstance(b, Named) else b.kind for b in branches)
        if "union" in seen:
            self.fail(line, NESTED_UNION)
        for name, count in seen.items():
            if count > 1:
                self.fail(line, DUPLICATE_BRANCH.format(name=name))
        return Union(kind="union", line=line, branches=branches)

    def complex(self, obj: dict, namespace: str) -> Type:
        kind, line = obj.get("type"), obj.line
        if kind is None:
            self.fail(line, MISSING.format(what="schema object", key="type"))
        if not isinstance(kind, str):
            self.fail(obj.key_line("type"), NOT_A_TYPE.format(value=_short(kind)))
        logical = annotation(obj, kind)  # an invalid decimal: none, the plain type is used
        if kind in PRIMITIVES:
            return Type(kind=kind, line=line, logical=logical)
        if kind == "array":
            items = self.type(self.require(obj, "items", "array"), namespace, obj.key_line("items"))
            return Array(kind=kind, line=line, items=items, items_line=obj.key_line("items"))
        if kind == "map":
            values = self.type(self.require(obj, "values", "map"), namespace, obj.key_line("values"))
            return Map(kind=kind, line=line, values=values, values_line=obj.key_line("values"))
        if kind in NAMED_KINDS or kind == "error":
            return self.named_type(obj, "record" if kind == "error" else kind, namespace, logical)
        self.fail(obj.key_line("type"), UNKNOWN_TYPE.format(name=kind))

    def require(self, obj: dict, key: str, what: str):
        if key not in obj:
            self.fail(obj.line, MISSING.format(what=what, key=key))
        return obj[key]

    def named_type(self, obj: dict, kind: str, outer: str, logical: tuple) -> Named:
        name = self.require(obj, "name", kind)
        line = obj.key_line("name")
        namespace = obj.get("namespace", outer)
        if not isinstance(name, str):
            self.fail(line, BAD_NAME.format(name=_short(name)))
        if namespace is not None and not isinstance(namespace, str):
            self.fail(obj.key_line("namespace"), BAD_NAMESPACE.format(name=name))
        namespace, _, short = name.rpartition(".") if "." in name else (namespace or "", "", name)
        for part in [short, *filter(None, namespace.split("."))]:
            if not NAME.match(part):
                self.fail(line, BAD_NAME.format(name=_short(part)))
        full = f"{namespace}.{short}" if namespace else short
        if full in self.named or short in PRIMITIVES:
            self.fail(line, REDEFINED.format(name=full))
        aliases = frozenset(a if "." in a or not namespace else f"{namespace}.{a}"
                            for a in self.strings(obj, "aliases", kind))
        common = dict(kind=kind, line=obj.line, logical=logical, name=short, fullname=full,
                      namespace=namespace, aliases=aliases, node=obj, file=self.file)
        made = {"record": Record, "enum": Enum, "fixed": Fixed}[kind](**common)
        self.named[full] = made  # registered before its fields, so it may refer to itself
        getattr(self, f"fill_{kind}")(made, obj)
        return made

    def strings(self, obj: dict, key: str, what: str) -> list[str]:
        value = obj.get(key, [])
        if not isinstance(value, list):
            self.fail(obj.key_line(key), NOT_LIST.format(key=key, what=what))
        if not all(isinstance(v, str) for v in value):
            self.fail(obj.key_line(key), NOT_STRINGS.format(key=key, what=what))
        return value

    def fill_record(self, record: Record, obj: dict) -> None:
        fields = self.require(obj, "fields", f'record "{record.name}"')
        if not isinstance(fields, list):
            self.fail(obj.key_line("fields"), NOT_LIST.format(key="fields", what=record.name))
        # The hot loop of a big schema: lines are looked up only on failure, names checked once.
        names, made, names_ok, defaulted = set(), record.fields, self.names_ok, self.defaulted
        for index, node in enumerate(fields):
            if not isinstance(node, dict):
                self.fail(obj.key_line("fields"), NOT_A_TYPE.format(value=_short(node)))
            name = node.get("name", _ABSENT)
            if name is _ABSENT:
                self.fail(node.line, MISSING.format(what="field", key="name"))
            if not (isinstance(name, str) and (name in names_ok or self.valid_name(name))):
                self.fail(node.key_line("name"), BAD_NAME.format(name=_short(name)))
            if name in names:
                self.fail(node.line, DUPLICATE_FIELD.format(record=record.name, name=name))
            names.add(name)
            value = node.get("type", _ABSENT)
            if value is _ABSENT:
                self.fail(node.line, MISSING.format(what=f'field "{name}"', key="type"))
            schema = SHARED_PRIMITIVES.get(value) if isinstance(value, str) else None
            if schema is None:
                schema = self.type(value, record.namespace, node.key_line("type"))
            aliases = (tuple(self.strings(node, "aliases", f'field "{name}"'))
                       if "aliases" in node else ())
            default = node.get("default", NO_DEFAULT)
            field = Field(name, schema, index, node, default, aliases)
            made.append(field)
            if default is not NO_DEFAULT:
                defaulted.append(field)

    def valid_name(self, name: str) -> bool:
        """NAME.match, remembered: field names repeat across records."""
        if not NAME.match(name):
            return False
        self.names_ok.add(name)
        return True

    def fill_enum(self, enum: Enum, obj: dict) -> None:
        symbols = self.strings(obj, "symbols", f'enum "{enum.name}"')
        if "symbols" not in obj:
            self.fail(obj.line, MISSING.format(what=f'enum "{enum.name}"', key="symbols"))
        for symbol, count in Counter(symbols).items():
            if not NAME.match(symbol):
                self.fail(obj.key_line("symbols"), BAD_NAME.format(name=_short(symbol)))
            if count > 1:
                self.fail(obj.key_line("symbols"),
                          DUPLICATE_SYMBOL.format(name=enum.name, symbol=symbol))
        enum.symbols = tuple(symbols)
        enum.default = obj.get("default")
        if "default" in obj and enum.default not in symbols:
            self.fail(obj.key_line("default"),
                      ENUM_DEFAULT.format(name=enum.name, default=_short(enum.default)))

    def fill_fixed(self, fixed: Fixed, obj: dict) -> None:
        size = obj.get("size")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            self.fail(obj.key_line("size"), BAD_SIZE.format(name=fixed.name))
        fixed.size = size

    def finish(self) -> None:
        """Give each named type the name paths show: unqualified unless two types share it."""
        shared = Counter(named.name for named in self.named.values())
        for named in self.named.values():
            named.display = named.name if shared[named.name] == 1 else named.fullname


def _short(value) -> str:
    """The value as JSON (quoted once, as the file has it), cut to a readable length."""
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."
