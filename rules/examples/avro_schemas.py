"""The fastavro schemas an Avro example is written and read with.

Two needs the plain file text does not meet: named types defined in other `.avsc` files (the
model found them through the schema set; fastavro needs them as `named_schemas`), and a reader
with only one finding's change applied, so the reader error an example shows is that change's,
not whichever other change of the same record the runtime meets first.
"""
from __future__ import annotations

import copy
import json
import re

from ..avro.schema import Enum, Named, Parsed, Record

# A finding's path: the named type's display name, then `.field` or `.SYMBOL`, then steps.
ELEMENT = re.compile(r"(?P<type>[^.\[{<]+(?:\.[^.\[{<]+)*?)(?:\.(?P<member>[^.\[{<]+))?(?:[\[{<].*)?$")


def plain(node):
    """A jsontext node (LineDict, LineList) as plain JSON values."""
    return json.loads(json.dumps(node))


def parse(document, model: Parsed, swap: tuple = ()):
    """fastavro's parsed schema of a document, with the named types the model took from other
    files registered first (in an order that lets each find the ones it uses); `swap` is
    (an object of those files' JSON, what stands for it) for a change made in another file."""
    from fastavro import parse_schema
    named: dict = {}
    pending = [t for t in model.named.values() if t.file and t.file != model.path]
    while pending:
        left = []
        for named_type in pending:
            if named_type.fullname in named:
                continue  # defined inside another external type parsed already
            trial = dict(named)  # a parse that fails half way must register nothing
            try:
                parse_schema(_qualified(named_type, swap), named_schemas=trial, _write_hint=False)
            except Exception:  # noqa: BLE001 - it uses a type not registered yet: next round
                left.append(named_type)
                continue
            named.update(trial)
        if len(left) == len(pending):
            break  # what is left will fail in the main parse, with fastavro's own message
        pending = left
    # The write hint keeps those types with the parsed schema: the writer and the reader would
    # otherwise parse it again without them (fastavro UnknownType).
    return parse_schema(document, named_schemas=named)


def _qualified(named_type: Named, swap: tuple) -> dict:
    """The definition on its own: its full name stands for the namespace it inherited."""
    node = plain(_substituted(named_type.node, *swap) if swap else named_type.node)
    node["name"] = named_type.fullname
    node.pop("namespace", None)
    return node


def isolated(path: str, writer: Parsed, reader: Parsed, writer_doc, definitions: tuple,
             names: tuple = ()):
    """The writer's schema with only the element at `path` as the reader has it (a field of a
    record, an enum's symbols, a named type's definition), parsed; None when the element is not
    one of those in both versions (the whole reader is used then). `definitions`: each
    version's `definition_nodes` of its document, writer's first; `names`: the other names
    the finding gives the element (a field renamed without an alias: its old name)."""
    match = ELEMENT.match(path)
    if match is None or path.startswith("$"):
        return None
    wanted, member = match["type"], match["member"]
    found = _named(writer, wanted), _named(reader, wanted)
    if member is not None and None in found:  # `a.b.Type.field`: the dots were the name's
        wanted, member = f"{wanted}.{member}", None
        found = _named(writer, wanted), _named(reader, wanted)
    old, new = found
    if old is None or new is None or type(old) is not type(new):
        return None
    old_node = definitions[0].get(old.fullname)
    new_node = definitions[1].get(new.fullname, new.node)
    elsewhere = old_node is None  # defined in another file: changed where the set has it
    old_node = old.node if elsewhere else old_node
    replaced = _with_member(old_node, new_node, member, old, names) if member else _whole(old_node, new_node)
    if replaced is None:
        return None
    if elsewhere:
        return parse(writer_doc, writer, swap=(old.node, plain(replaced)))
    return parse(_substituted(writer_doc, old_node, replaced), writer)  # plain JSON throughout


def _named(model: Parsed, display: str) -> Named | None:
    return next((t for t in model.named.values() if display in (t.display, t.fullname)), None)


def _with_member(old_node: dict, new_node: dict, member: str, old: Named, names: tuple) -> dict | None:
    out = dict(old_node)
    if isinstance(old, Record):
        mine, theirs = _field(old_node, member), _field(new_node, member)
        others = tuple(n for n in names if n != member)
        theirs = theirs or _field(new_node, *(_aliases(mine) if mine else ()), *others)
        mine = mine or _field(old_node, *(_aliases(theirs) if theirs else ()), *others)
        gone = {id(f) for f in (mine,) if f is not None}  # a rename's two names are one field
        fields = [f for f in old_node.get("fields", []) if id(f) not in gone]
        if theirs is not None:
            at = next((i for i, f in enumerate(old_node.get("fields", [])) if id(f) in gone), len(fields))
            fields.insert(at, copy.deepcopy(theirs))
        out["fields"] = fields
        return out
    if isinstance(old, Enum):
        for key in ("symbols", "default"):
            out.pop(key, None)
            if key in new_node:
                out[key] = copy.deepcopy(new_node[key])
        return out
    return None


def _field(record: dict, *names: str) -> dict | None:
    """The record's field called one of `names`, or having one of them as an alias."""
    fields = [f for f in record.get("fields", []) if isinstance(f, dict)]
    return next((f for f in fields if f.get("name") in names), None) or \
        next((f for f in fields if set(_aliases(f)) & set(names)), None)


def _aliases(field: dict) -> list[str]:
    aliases = field.get("aliases")
    return [a for a in aliases if isinstance(a, str)] if isinstance(aliases, list) else []


def _whole(old_node: dict, new_node: dict) -> dict:
    """The reader's definition under the writer's name (a size or symbols change, not a rename)."""
    out = copy.deepcopy(new_node)
    for key in ("name", "namespace"):
        out.pop(key, None)
        if key in old_node:
            out[key] = old_node[key]
    return out


def _substituted(document, target: dict, replacement: dict):
    """A copy of the document with the object `target` (by identity) replaced."""
    if document is target:
        return replacement
    if isinstance(document, dict):  # a LineDict too: the copy is plain
        return {k: _substituted(v, target, replacement) for k, v in document.items()}
    if isinstance(document, list):
        return [_substituted(v, target, replacement) for v in document]
    return document
