"""The named types a schema file defines, nested ones included, each with its definition: what
the App (bot/review/moves.py) and directory mode (rules/tree.py) follow when a type leaves one
file for another, however deep it now sits.

Avro: every record, enum and fixed at any depth, namespaces inherited as the specification
says (rules.avro.library). JSON Schema: the `$id` of the document and of every subschema, each
joined onto the enclosing ones (rules.jsonschema.refs). Protobuf: every message, enum and
service full name, nested ones included, from a token scan that, like protoc, takes comments,
string literals and whitespace (even around the dots of `package a . b;`) for what they are."""
from __future__ import annotations

import json
import re
import secrets
from typing import Mapping, NamedTuple

from . import jsontext
from .avro.library import definition_nodes
from .jsonschema.refs import declared_ids
from .model import Format, SchemaError

# Protobuf's comments and string literals (no name is in them). Every alternative always matches
# (an unterminated comment or string runs to the end of the file or line), so the scan stays
# linear on a hostile file of unclosed `/*` or quotes.
NOISE = re.compile(r'//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"?' + r"|'(?:\\.|[^'\\\n])*'?", re.DOTALL)
# What declares a name, with comments and strings blanked: a brace or semicolon; the package,
# its dots maybe spaced (protoc takes `package a . b;`); a message, enum or service with its
# `{` (a field whose type or name is such a keyword has none); a proto2 group, whose `{` comes
# after its number and options. Each is matched without backtracking past itself.
PROTO_TOKENS = re.compile(r"([{};])|\bpackage\s+(\w+(?:\s*\.\s*\w+)*)"
                          r"|\b(message|enum|service)\s+(\w+)\s*(\{)?|\bgroup\s+(\w+)\s*=")


class Defined(NamedTuple):
    """A file's parsed document (None for protobuf or unreadable text) and its type names, each
    with the JSON object that defines it (None for protobuf)."""

    document: object
    names: Mapping[str, object]


NOTHING = Defined(None, {})


def defined(fmt: Format, text: str | bytes | None, *, located: bool = False) -> Defined:
    """Every type a schema file defines (nothing when it is unreadable); `located`: each JSON
    object knows its text and lines (the old side of moved_base needs them)."""
    if text is None:
        return NOTHING
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if fmt is Format.PROTOBUF:
        return Defined(None, dict.fromkeys(_proto_types(text)))
    try:
        text = text.removeprefix("\ufeff")  # a byte order mark, as the engine reads it (utf-8-sig)
        document = jsontext.loads(text, "") if located else json.loads(text)
    except (SchemaError, ValueError, RecursionError):
        return NOTHING
    if fmt is Format.JSONSCHEMA:
        return Defined(document, declared_ids(document) if isinstance(document, dict) else {})
    return Defined(document, definition_nodes(document))


def _proto_types(text: str) -> list[str]:
    """Full names of the messages, enums and services a .proto file declares, nested included."""
    package, names = "", []
    scopes: list[str | None] = []  # the enclosing message or enum, or None for another block
    others = 0  # how many of them are None: inside those only a group declares a type
    group = None  # a group's name until its `{`
    for token in PROTO_TOKENS.finditer(NOISE.sub(" ", text)):
        brace, package_name, kind, name, opens, group_name = token.groups()
        if package_name and not scopes:
            package = re.sub(r"\s+", "", package_name) + "."
        elif kind and opens:  # inside another block (an option's value) it declares nothing
            if not others:
                names.append(package + "".join(f"{s}." for s in scopes if s) + name)
            scopes.append(name if kind != "service" and not others else None)
            others += kind == "service" or others > 0
        elif group_name:
            group = group_name
        elif brace == "{":
            if group is not None:  # inside a oneof too: a group is a message of its enclosing one
                names.append(package + "".join(f"{s}." for s in scopes if s) + group)
            scopes.append(group)  # else a oneof, extend, an rpc's options, an option's value
            others += group is None
            group = None
        elif brace == "}" and scopes:
            others -= scopes.pop() is None
            group = None
        elif brace == ";":
            group = None
    return names


def moved_base(fmt: Format, old: Defined, new: Defined) -> str | None:
    """What the new file is compared with when the old file's types moved into it below its
    top level: the new document with each type both define written as the old file wrote it
    (the outermost ones; Avro reader/writer resolution pairs named types by full name, so
    only the moved types differ). The rest is squeezed onto as few lines as JSON allows and
    each old definition put back on its own lines, so findings on the old side name the
    lines of the removed file. None when the old file itself is that base: for protobuf
    (protoc's full names pair the types across whole files) and when a type both define is at
    the new file's top level (that is the old file's own comparison)."""
    shared = old.names.keys() & new.names.keys()
    top = {id(t) for t in (new.document if isinstance(new.document, list) else [new.document])}
    if fmt is Format.PROTOBUF or not shared or any(id(new.names[n]) in top for n in shared):
        return None
    # A placeholder per moved type, unguessable so that no string of the file can pose as one.
    token = secrets.token_hex(8)
    moved = sorted(shared, key=lambda n: old.names[n].line)
    placeholders = {id(new.names[n]): f"{token}-{k}" for k, n in enumerate(moved)}
    definitions = {json.dumps(f"{token}-{k}"): n for k, n in enumerate(moved)}
    try:
        squeezed = json.dumps(_copy(new.document, placeholders), separators=(",", ":"))
    except RecursionError:
        return None  # too deep to rebuild: the whole files are compared instead
    out, line = [], 1
    for piece in re.split(f'("{token}-\\d+")', squeezed):  # a dumped string has no newline
        name = definitions.get(piece)
        if name is None:
            out.append(piece)
            continue
        node = old.names[name]
        out.append("\n" * max(node.line - line, 0))
        text = _portable(fmt, name, node)
        out.append(text)
        line = max(node.line, line) + text.count("\n")
    return "".join(out) + "\n"


def _portable(fmt: Format, name: str, node) -> str:
    """A definition's text that keeps its full name wherever it is placed: an Avro name
    without a dot and without its own namespace inherits the enclosing one, so the namespace
    it had (empty when none) is written in, on its first line."""
    if fmt is not Format.AVRO or "." in node["name"] or "namespace" in node:
        return node.source
    return '{"namespace": %s, %s' % (json.dumps(name.rpartition(".")[0]), node.source[1:])


def _copy(node, replaced: dict[int, str]):
    if id(node) in replaced:
        return replaced[id(node)]
    if isinstance(node, dict):
        return {key: _copy(value, replaced) for key, value in node.items()}
    if isinstance(node, list):
        return [_copy(item, replaced) for item in node]
    return node
