"""Local `$ref` resolution: JSON pointers, `$id`s and anchors inside one document.

Each reference resolves against the base URI of the schema it sits in, as the specification
says: the nearest enclosing `$id`, joined onto its parent's, and at the top the document's own
`$id`, else the file's path. So `#/$defs/x` inside a subschema with its own `$id` means that
subschema's `$defs`, and a full URL that spells out an embedded `$id` is found in the file.
"""
from __future__ import annotations

from urllib.parse import unquote, urldefrag, urljoin

from ..model import SchemaError
from . import keywords
from .drafts import Draft

FILE_BASE = "file:///"  # a document without an `$id` is known by its path in the repository
DANGLING = 'local $ref "{ref}" does not point at anything in this file'
CIRCULAR = '$ref "{ref}" is circular: it only ever points at other references'
NOT_A_SCHEMA = '$ref "{ref}" points at a value that is not a schema'


class External:
    """A reference to another document: it cannot be checked, only compared by its text."""

    def __init__(self, ref: str):
        self.ref = ref


class Refs:
    """The references of one parsed document."""

    def __init__(self, root: object, draft: Draft, file: str, schemas: list):
        self.root, self.draft, self.file, self._schemas = root, draft, file, schemas
        self.resources: dict[str, object] = {}  # absolute URI (no fragment) -> schema
        self.anchors: dict[tuple[str, str], object] = {}  # (resource URI, name) -> schema
        self.bases: dict[int, str] = {}  # id(schema) -> the base URI its references use
        self._index(root, urljoin(FILE_BASE, file.lstrip("/")))

    def _index(self, root: object, document_base: str) -> None:
        id_key = "id" if self.draft is Draft.DRAFT4 else "$id"
        self.resources[document_base] = root
        stack = [(root, document_base)]
        while stack:
            schema, base = stack.pop()
            if isinstance(schema, dict):
                ident = schema.get(id_key)
                if isinstance(ident, str):
                    uri, fragment = urldefrag(urljoin(base, ident))
                    if uri:
                        base = uri
                        self.resources.setdefault(uri, schema)
                    if fragment and not fragment.startswith("/"):
                        self.anchors.setdefault((base, fragment), schema)  # draft-07 "$id": "#name"
                for anchor_key in ("$anchor", "$dynamicAnchor"):
                    if isinstance(schema.get(anchor_key), str):
                        self.anchors.setdefault((base, schema[anchor_key]), schema)
                self.bases[id(schema)] = base
            stack.extend((child, base) for child in keywords.children(schema))

    def target(self, node: dict) -> object:
        """What `node["$ref"]` points at: a schema, or External. SchemaError when dangling."""
        ref = node["$ref"]
        uri, fragment = urldefrag(urljoin(self.bases.get(id(node), FILE_BASE), ref))
        start = self.resources.get(uri)
        if start is None:
            return External(ref)
        found = self._fragment(start, uri, unquote(fragment))
        if found is _MISSING:
            raise SchemaError(self.file, _line(node), DANGLING.format(ref=ref))
        if not isinstance(found, (dict, bool)):
            raise SchemaError(self.file, _line(node), NOT_A_SCHEMA.format(ref=ref))
        return found

    def _fragment(self, start: object, uri: str, fragment: str) -> object:
        if not fragment:
            return start
        if not fragment.startswith("/"):
            return self.anchors.get((uri, fragment), _MISSING)
        current = start
        for token in fragment[1:].split("/"):
            token = token.replace("~1", "/").replace("~0", "~")
            if isinstance(current, dict) and token in current:
                current = current[token]
            elif isinstance(current, list) and token.isdigit() and int(token) < len(current):
                current = current[int(token)]
            else:
                return _MISSING
        return current

    def is_plain_ref(self, node: object) -> bool:
        """A `$ref` that stands for its target alone (siblings ignored or only annotations)."""
        if not isinstance(node, dict) or not isinstance(node.get("$ref"), str):
            return False
        return self.draft.ref_overrides_siblings or all(
            key == "$ref" or key in keywords.ANNOTATIONS for key in node)

    def resolve(self, node: object) -> object:
        """Follow plain references to the schema they stand for (or External)."""
        seen = set()
        while self.is_plain_ref(node):
            if id(node) in seen:
                raise SchemaError(self.file, _line(node), CIRCULAR.format(ref=node["$ref"]))
            seen.add(id(node))
            node = self.target(node)
            if isinstance(node, External):
                return node
        return node

    def check_all(self) -> None:
        """Fail on the first dangling or purely circular reference anywhere in the document."""
        for schema in self._schemas:
            if isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
                self.resolve(schema)
                self.target(schema)


_MISSING = object()


def _line(node: dict) -> int | None:
    key_line = getattr(node, "key_line", None)
    return key_line("$ref") if key_line else None
