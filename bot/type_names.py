"""The named types a schema file defines, nested ones included, each with its definition: what
bot/moves.py follows when a type leaves one file for another, however deep it now sits.

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

from rules import Format, SchemaError, jsontext
from rules.avro.library import definition_nodes
from rules.jsonschema.refs import declared_ids

# A comment, a string literal (its text is no name), a word, or any other single character.
# Each alternative always matches (an unterminated comment or string runs to the end of the
# file or line), so one pass stays linear on a hostile file of unclosed `/*` or quotes.
PROTO_TOKEN = re.compile(r'//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"?' + r"|'(?:\\.|[^'\\\n])*'?"
                         r"|([A-Za-z_]\w*|[^\s\w])", re.DOTALL)
PROTO_TYPES = frozenset({"message", "enum", "service", "group"})  # a proto2 group is a message too


class Defined(NamedTuple):
    """A file's parsed document (None for protobuf or unreadable text) and its type names, each
    with the JSON object that defines it (None for protobuf)."""

    document: object
    names: Mapping[str, object]


NOTHING = Defined(None, {})


def defined(fmt: Format, text: str | bytes | None) -> Defined:
    """Every type a schema file defines (nothing when it is unreadable)."""
    if text is None:
        return NOTHING
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if fmt is Format.PROTOBUF:
        return Defined(None, dict.fromkeys(_proto_types(text)))
    try:
        document = jsontext.loads(text, "")  # objects keep their text: see moved_base
    except SchemaError:
        return NOTHING
    if fmt is Format.JSONSCHEMA:
        return Defined(document, declared_ids(document) if isinstance(document, dict) else {})
    return Defined(document, definition_nodes(document))


def _proto_types(text: str) -> list[str]:
    """Full names of the messages, enums and services a .proto file declares, nested included."""
    words = [m.group(1) for m in PROTO_TOKEN.finditer(text) if m.group(1)]
    package, names = "", []
    scopes: list[str | None] = []  # the enclosing message or enum, or None for another block
    others = 0  # how many of them are None: inside those only a group declares a type
    i = 0
    while i < len(words):
        word = words[i]
        if word == "package" and not scopes:
            end = _index(words, ";", i)
            package = "".join(words[i + 1:end]) + "."
            i = end
        elif (word in PROTO_TYPES and (not others or word == "group") and i + 1 < len(words)
              and _is_name(words[i + 1]) and _opens_block(words, i + 2)):
            names.append(package + "".join(f"{s}." for s in scopes if s) + words[i + 1])
            scopes.append(words[i + 1] if word != "service" else None)
            others += word == "service"
            i = words.index("{", i + 2)
        elif word == "{":
            scopes.append(None)  # oneof, extend, an rpc's options, an aggregate option value
            others += 1
        elif word == "}" and scopes:
            others -= scopes.pop() is None
        i += 1
    return names


def _index(words: list[str], word: str, start: int) -> int:
    try:
        return words.index(word, start)
    except ValueError:
        return len(words)


def _is_name(word: str) -> bool:
    return word[0].isalpha() or word[0] == "_"


def _opens_block(words: list[str], i: int) -> bool:
    """A declaration's `{` comes next (a group has `= N` and options first); a field whose type
    or name is `message` or `enum` is followed by a name and `=` instead."""
    if i < len(words) and words[i] == "{":
        return True
    if i < len(words) and words[i] == "=" and words[i - 2] == "group":
        return "{" in words[i:i + 32]
    return False


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
