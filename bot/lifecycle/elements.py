"""A schema text's fields (properties), named by the rule engine's paths (`User.email`), and
whether each is optional and deprecated."""
from __future__ import annotations

import itertools
import json
import re
from typing import Iterable, NamedTuple

from rules import Format, SchemaError
from rules.jsontext import loads as located_json

from bot.lifecycle.jsonwalk import MAX_NODES, objects

MAX_REF_DEPTH = 8  # local `$ref`s followed inside one another
# Elements read from one version at most: the calendar reads up to 30 versions in the App's
# process. An element left out is never in a state, so a date is only ever later, never earlier.
MAX_ELEMENTS = 10_000
PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
PROTO_DEPRECATED_OPTION = re.compile(r"\bdeprecated\s*=\s*true")
# The rule engine's Avro convention, which JSON Schema authors use in descriptions too.
DOC_PREFIXES = ("deprecated", "@deprecated")
# Protobuf, read left to right: comments and strings (skipped, so their braces do not count),
# a block's opening, a lone brace, a field (a map's too), or an enum value. Every repeated part
# is anchored at a word or a delimiter, so hostile text is read in linear time.
PROTO_TOKEN = re.compile(
    r"//[^\n]*|/\*(?:[^*]|\*(?!/))*(?:\*/|\Z)|\"[^\"\n]*\"?|'[^'\n]*'?"
    r"|\b(?P<block>message|enum|oneof|service|extend)\s+(?P<name>[\w.]+)\s*\{"
    r"|(?P<brace>[{}])"
    r"|(?<![\w.])(?:(?P<label>optional|required|repeated)\s+)?(?P<type>map\s*<[^<>]*>|[\w.]+)\s+"
    r"(?P<field>\w+)\s*=\s*\d+\s*(?:\[(?P<options>[^\[\]]*)\])?\s*;"
    r"|(?<![\w.])(?P<value>\w+)\s*=\s*-?\d+\s*(?:\[(?P<value_options>[^\[\]]*)\])?\s*;")
PROTO_SYNTAX = re.compile(r"^\s*(syntax|edition)\s*=\s*[\"']([^\"'\n]*)", re.MULTILINE)
LEGACY_REQUIRED = "LEGACY_REQUIRED"


class Element(NamedTuple):
    path: str
    optional: bool  # a writer may omit it, and it could be made required
    deprecated: bool
    parent: str  # the path of the record, message or object it is declared in
    # What stays the same across versions whatever else the file declares (an Avro record's
    # full name, a JSON Schema path from `$`, whatever the title); "" when it is the path.
    key: str = ""
    line: int = 0  # where the text declares it: protobuf always, JSON when asked; 0 otherwise

    @property
    def identity(self) -> str:
        return self.key or self.path


def elements(text: str, *, fmt: Format, limit: int | None = MAX_ELEMENTS,
             lines: bool = False) -> dict[str, Element]:
    """Every field (property, enum value) of the text by its path. A path seen twice (a property
    declared again in an `allOf` member) is optional only if optional everywhere: never guessed
    so. `limit` None reads them all (the two sides of one change, compared once); `lines` says
    where JSON declares each (protobuf's are always known)."""
    if fmt is Format.PROTOBUF:
        found = _proto(text)
    else:
        try:
            document = located_json(text, "") if lines else json.loads(text)
        except (ValueError, RecursionError, SchemaError):
            return {}
        found = _avro(document) if fmt is Format.AVRO else _jsonschema(document)
    out: dict[str, Element] = {}
    for element in itertools.islice(found, limit):
        seen = out.get(element.path, element)
        out[element.path] = element._replace(optional=seen.optional and element.optional,
                                             deprecated=seen.deprecated or element.deprecated)
    return out


def optional_paths(text: str, *, fmt: Format) -> frozenset[str]:
    """Paths of the fields (properties) the text lets a writer omit and could make required."""
    return frozenset(path for path, element in elements(text, fmt=fmt).items() if element.optional)


def _avro(document: object) -> Iterable[Element]:
    """`Record.field` for each field; optional when its type is a union with "null"."""
    records = []
    for value, namespace in objects(document, "", _namespace):
        full = _fullname(value, namespace)
        if full and value.get("type") in ("record", "error"):
            records.append((full, value.get("fields")))
    # Paths use the short name unless two types share it (the engine's display name).
    shorts = [full.rpartition(".")[2] for full, _fields in records]
    for (full, fields), short in zip(records, shorts):
        display = short if shorts.count(short) == 1 else full
        for field in fields if isinstance(fields, list) else ():
            if isinstance(field, dict) and isinstance(field.get("name"), str):
                yield Element(f"{display}.{field['name']}", _nullable(field.get("type")),
                              marked(field), display, key=f"{full}.{field['name']}",
                              line=getattr(field, "line", 0))


def _fullname(value: dict, namespace: str) -> str | None:
    name = value.get("name")
    if not isinstance(name, str):
        return None
    namespace = value["namespace"] if isinstance(value.get("namespace"), str) else namespace
    return name if "." in name else f"{namespace}.{name}".lstrip(".")


def _namespace(value: dict, namespace: str) -> str:
    """The namespace names inside `value` inherit."""
    if value.get("type") in ("record", "error") and (full := _fullname(value, namespace)):
        return full.rpartition(".")[0]
    return value["namespace"] if isinstance(value.get("namespace"), str) else namespace


def _nullable(avro_type: object) -> bool:
    return isinstance(avro_type, list) and any(
        branch == "null" or (isinstance(branch, dict) and branch.get("type") == "null")
        for branch in avro_type)


def _jsonschema(document: object) -> Iterable[Element]:
    """`$.a.b` (or `Title.a.b`) for each declared property; optional unless its object requires it."""
    title = document.get("title") if isinstance(document, dict) else None
    root = title if isinstance(title, str) and PLAIN.match(title) else "$"
    stack, budget = [(document, root, ())], MAX_NODES
    while stack and budget:
        budget -= 1
        schema, path, refs = stack.pop()
        if not isinstance(schema, dict):
            continue
        ref = schema.get("$ref")  # followed once per chain: a recursive schema is not unrolled
        if isinstance(ref, str) and ref not in refs and len(refs) < MAX_REF_DEPTH:
            stack.append((_local(document, ref), path, (*refs, ref)))
        required = _required(schema)
        properties = schema.get("properties")
        for name, child in properties.items() if isinstance(properties, dict) else ():
            step = f"{path}.{name}" if PLAIN.match(name) else f"{path}[{json.dumps(name)}]"
            if isinstance(child, (dict, bool)):
                yield Element(step, name not in required, isinstance(child, dict) and marked(child),
                              path, key="$" + step[len(root):], line=_key_line(properties, name))
            stack.append((child, step, refs))
        if isinstance(schema.get("items"), dict):
            stack.append((schema["items"], f"{path}[]", refs))
        for part in schema.get("allOf") if isinstance(schema.get("allOf"), list) else ():
            stack.append((part, path, refs))


def _key_line(properties: dict, name: str) -> int:
    return properties.key_line(name) if hasattr(properties, "key_line") else 0


def marked(obj: dict) -> bool:
    """Deprecated: JSON Schema has `deprecated`; Avro has no keyword, so a custom property or the
    doc says it."""
    doc = obj.get("doc") if isinstance(obj.get("doc"), str) else ""
    return obj.get("deprecated") is True or doc.lower().lstrip().startswith(DOC_PREFIXES)


def _required(schema: dict) -> set[str]:
    """Names the object requires, `allOf` members included (never guess a property optional)."""
    out = set()
    for part in [schema, *(schema.get("allOf") if isinstance(schema.get("allOf"), list) else ())]:
        names = part.get("required") if isinstance(part, dict) else None
        if isinstance(names, list):
            out.update(name for name in names if isinstance(name, str))
    return out


def _local(document: object, ref: str) -> object:
    """The subschema a `#/...` pointer names, or None."""
    if not ref.startswith("#/"):
        return None
    node = document
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _proto(text: str) -> Iterable[Element]:
    """`Message.Nested.field` for each field (a oneof's under its message, an extension's as
    `(Extended).field`) and `Enum.VALUE` for each enum value; optional for proto2 `optional`
    and editions fields not LEGACY_REQUIRED (proto3 has no required fields to promote to)."""
    syntax = PROTO_SYNTAX.search(text)
    kind, version = (syntax.group(1), syntax.group(2)) if syntax else ("syntax", "proto2")
    # An editions file may make LEGACY_REQUIRED the default; then no field is taken as optional.
    promotable = (version == "proto2") if kind == "syntax" else not re.search(
        r"option\s+features\.field_presence\s*=\s*" + LEGACY_REQUIRED, text)
    stack: list[tuple[str, str] | None] = []  # (block, name) of each open block; None: a lone brace
    line, counted = 1, 0
    for match in PROTO_TOKEN.finditer(text):
        if match.group("block"):
            stack.append((match.group("block"), match.group("name")))
        elif match.group("brace"):
            stack.append(None) if match.group("brace") == "{" else stack and stack.pop()
        elif not (match.group("field") or match.group("value")):
            continue  # a comment or a string
        elif (parent := _proto_parent(stack, value=bool(match.group("value")))) is not None:
            line, counted = line + text.count("\n", counted, match.start()), match.start()
            if match.group("value"):
                yield Element(f"{parent}.{match.group('value')}", False,
                              _deprecated_option(match.group("value_options")), parent, line=line)
                continue
            label, options = match.group("label"), match.group("options") or ""
            # A oneof's, a map's or an extension's field can never be made required.
            plain = stack[-1][0] == "message" and not match.group("type").startswith("map")
            optional = plain and promotable and (label == "optional" if kind == "syntax" else (
                label is None and LEGACY_REQUIRED not in options))
            yield Element(f"{parent}.{match.group('field')}", optional,
                          _deprecated_option(options), parent, line=line)


def _proto_parent(stack: list[tuple[str, str] | None], *, value: bool) -> str | None:
    """The path a field (an enum value) is declared under, or None where none is declared: a
    service, an option's braces, a value outside an enum."""
    if not stack or None in stack or any(block == "service" for block, _name in stack):
        return None
    if value != (stack[-1][0] == "enum"):
        return None
    names = [f"({name})" if block == "extend" else name
             for block, name in stack if block != "oneof"]
    return ".".join(names)


def _deprecated_option(options: str | None) -> bool:
    return bool(PROTO_DEPRECATED_OPTION.search(options or ""))
