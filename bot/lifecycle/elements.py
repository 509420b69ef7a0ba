"""A schema text's fields (properties), named by the rule engine's paths (`User.email`), and
whether each is optional and deprecated."""
from __future__ import annotations

import itertools
import json
import re
from typing import Iterable, NamedTuple

from rules import Format

from bot.lifecycle.deprecation import PROTO_DEPRECATED_OPTION, marked
from bot.lifecycle.jsonwalk import MAX_NODES, objects

MAX_REF_DEPTH = 8  # local `$ref`s followed inside one another
# Elements read from one version at most: the calendar reads up to 30 versions in the App's
# process. An element left out is never in a state, so a date is only ever later, never earlier.
MAX_ELEMENTS = 10_000
PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# Protobuf, read left to right: comments and strings (skipped, so their braces do not count),
# a block's opening, a lone brace, or a field. Every repeated part is anchored at a word or a
# delimiter, so hostile text is read in linear time.
PROTO_TOKEN = re.compile(
    r"//[^\n]*|/\*(?:[^*]|\*(?!/))*(?:\*/|\Z)|\"[^\"\n]*\"?|'[^'\n]*'?"
    r"|\b(?P<block>message|enum|oneof|service|extend)\s+(?P<name>[\w.]+)\s*\{"
    r"|(?P<brace>[{}])"
    r"|(?<![\w.])(?:(?P<label>optional|required|repeated)\s+)?(?P<type>[\w.]+)\s+"
    r"(?P<field>\w+)\s*=\s*\d+\s*(?:\[(?P<options>[^\[\]]*)\])?\s*;")
PROTO_SYNTAX = re.compile(r"^\s*(syntax|edition)\s*=\s*[\"']([^\"'\n]*)", re.MULTILINE)
LEGACY_REQUIRED = "LEGACY_REQUIRED"


class Element(NamedTuple):
    path: str
    optional: bool  # a writer may omit it, and it could be made required
    deprecated: bool
    parent: str  # the path of the record, message or object it is declared in


def elements(text: str, *, fmt: Format) -> dict[str, Element]:
    """Every field (property) of the text by its path. A path seen twice (a property declared
    again in an `allOf` member) is optional only if optional everywhere: never guessed so."""
    if fmt is Format.PROTOBUF:
        found = _proto(text)
    else:
        try:
            document = json.loads(text)
        except (ValueError, RecursionError):
            return {}
        found = _avro(document) if fmt is Format.AVRO else _jsonschema(document)
    out: dict[str, Element] = {}
    for element in itertools.islice(found, MAX_ELEMENTS):
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
                              marked(field), display)


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
                              path)
            stack.append((child, step, refs))
        if isinstance(schema.get("items"), dict):
            stack.append((schema["items"], f"{path}[]", refs))
        for part in schema.get("allOf") if isinstance(schema.get("allOf"), list) else ():
            stack.append((part, path, refs))


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
    """`Message.Nested.field` for each field; optional for proto2 `optional` and editions fields
    not LEGACY_REQUIRED (proto3 has no required fields to promote to)."""
    syntax = PROTO_SYNTAX.search(text)
    kind, version = (syntax.group(1), syntax.group(2)) if syntax else ("syntax", "proto2")
    # An editions file may make LEGACY_REQUIRED the default; then no field is taken as optional.
    promotable = (version == "proto2") if kind == "syntax" else not re.search(
        r"option\s+features\.field_presence\s*=\s*" + LEGACY_REQUIRED, text)
    stack: list[str | None] = []
    for match in PROTO_TOKEN.finditer(text):
        if match.group("block"):
            stack.append(match.group("name") if match.group("block") == "message" else None)
        elif match.group("brace"):
            stack.append(None) if match.group("brace") == "{" else stack and stack.pop()
        elif match.group("field") and stack and stack[-1] is not None and None not in stack:
            label, options = match.group("label"), match.group("options") or ""
            optional = promotable and (label == "optional" if kind == "syntax" else (
                label is None and LEGACY_REQUIRED not in options))
            parent = ".".join(stack)
            yield Element(f"{parent}.{match.group('field')}", optional,
                          bool(PROTO_DEPRECATED_OPTION.search(options)), parent)
