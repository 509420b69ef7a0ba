"""Named types defined in other `.avsc` files of the same tree, found by full name on demand.

Teams split schemas: `order.avsc` uses `"type": "com.shop.Money"` defined in `money.avsc`.
A reference the file itself does not define is looked up here, and the file defining it is
built into the same model (avro-maven-plugin `imports` and Confluent references work the same
way: the referenced schema's types exist before the referencing one is parsed).
"""
from __future__ import annotations

from typing import Iterator, Mapping

from .. import jsontext
from ..model import SchemaError

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
            for fullname in _definitions(document, ""):
                index.setdefault(fullname, path)  # the first file (by path) wins, as with imports
        return index


def _definitions(node, namespace: str, depth: int = 0) -> Iterator[str]:
    """Full names a document defines (records, enums, fixed), at any depth."""
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
        yield name
        namespace = space
    for key in ("type", "items", "values", "fields"):
        if key in node and not isinstance(node[key], str):
            yield from _definitions(node[key], namespace, depth + 1)
