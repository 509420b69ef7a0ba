"""Named types defined in other `.avsc` files of the same tree, found by full name on demand.

Teams split schemas: `order.avsc` uses `"type": "com.shop.Money"` defined in `money.avsc`.
A reference the file itself does not define is looked up here, and the file defining it is
built into the same model (avro-maven-plugin `imports` and Confluent references work the same
way: the referenced schema's types exist before the referencing one is parsed).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping

from .. import jsontext
from ..model import SchemaError
from .schema import PRIMITIVES

NAMED = ("record", "error", "enum", "fixed")


class Library:
    """Full name -> (file, its parsed JSON document), for the supplied files' named types."""

    def __init__(self, files: Mapping[str, str]):
        self._files = files
        self._index: dict[str, str] | None = None
        self._documents: dict[str, object] = {}

    def lookup(self, fullname: str) -> tuple[str, object] | None:
        if self._index is None:
            self._index = self._build_index()
        path = self._index.get(fullname)
        return None if path is None else (path, self._documents[path])

    def _build_index(self) -> dict[str, str]:
        index: dict[str, str] = {}
        for path in sorted(self._files):
            try:
                document = jsontext.loads(self._files[path], path)
            except SchemaError:
                continue  # an unusable file defines nothing; it is reported where it is checked
            self._documents[path] = document
            for fullname, _node in _definitions(document, ""):
                index.setdefault(fullname, path)  # the first file (by path) wins, as with imports
        return index


def definitions(document: object) -> frozenset[str]:
    """Full names of the named types a parsed `.avsc` document defines."""
    return frozenset(name for name, _node in _definitions(document, ""))


def definition_nodes(document: object) -> dict[str, dict]:
    """Full name -> the JSON object defining it, for every named type of a parsed document."""
    found: dict[str, dict] = {}
    for name, node in _definitions(document, ""):
        found.setdefault(name, node)
    return found


def uses(document: object) -> frozenset[tuple[str, ...]]:
    """The named types a parsed `.avsc` document uses and does not define itself, each as the
    full names the reference may mean: as written when it has a dot, else qualified by the
    enclosing namespace or bare (depending on where the type is defined)."""
    found: set[tuple[str, ...]] = set()
    _uses(document, "", found, 0)
    defined = definitions(document)
    return frozenset(names for names in found if not defined.intersection(names))


def _uses(node, namespace: str, found: set[tuple[str, ...]], depth: int) -> None:
    if depth > 256:
        return
    if isinstance(node, str):
        if node not in PRIMITIVES:
            found.add((node, f"{namespace}.{node}") if "." not in node and namespace else (node,))
        return
    if isinstance(node, list):
        for item in node:
            _uses(item, namespace, found, depth + 1)
        return
    if not isinstance(node, dict):
        return
    if node.get("type") in NAMED and isinstance(node.get("name"), str):
        name, space = node["name"], node.get("namespace", namespace)
        namespace = name.rpartition(".")[0] if "." in name else space if isinstance(space, str) else namespace
    kind = node.get("type")
    if kind not in NAMED and kind not in ("array", "map"):  # else "type" says what it is
        _uses(kind, namespace, found, depth + 1)
    for key in ("items", "values"):
        if key in node:
            _uses(node[key], namespace, found, depth + 1)
    for field in node.get("fields", ()) if isinstance(node.get("fields"), list) else ():
        if isinstance(field, dict) and "type" in field:
            _uses(field["type"], namespace, found, depth + 1)


def _definitions(node, namespace: str, depth: int = 0) -> Iterator[tuple[str, dict]]:
    """Full names a document defines (records, enums, fixed), at any depth, with their objects."""
    if depth > 256:
        return
    if isinstance(node, list):
        for item in node:
            yield from _definitions(item, namespace, depth + 1)
        return
    if not isinstance(node, dict):
        return
    kind, name = node.get("type"), node.get("name")
    if kind in NAMED and isinstance(name, str):
        space = node.get("namespace", namespace)
        space = space if isinstance(space, str) else namespace
        if "." in name:
            space = name.rpartition(".")[0]
        else:
            name = f"{space}.{name}" if space else name
        yield name, node
        namespace = space
    for key in ("type", "items", "values", "fields"):
        if key in node and not isinstance(node[key], str):
            yield from _definitions(node[key], namespace, depth + 1)
