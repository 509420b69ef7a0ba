"""A file's content at a revision as GitHub's GraphQL describes it, within the schema size limit."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rules.limits import MAX_SCHEMA_BYTES

BLOB_FIELDS = "... on Blob { text isTruncated isBinary byteSize oid }"
# A symbolic link's blob is its target's path: never a schema, never followed (SECURITY.md).
LINKED = ("the {side} version is a symbolic link, which schema-review never follows: schema "
          "files must be regular files")
LINKED_IMPORT = ('the import "{name}" is a symbolic link, which schema-review never follows: '
                 "imported files must be regular files")


@dataclass(frozen=True)
class Blob:
    """A file's content at a revision: text, or why there is none."""

    text: str | None
    too_large: bool = False
    binary: bool = False
    size: int = 0
    oid: str = ""


def blob_of(node: dict | None, *, fetch_text: Callable[[str], str]) -> Blob | None:
    """None when there is no such file; a too-large or binary blob is never downloaded, and a
    text GraphQL truncated is read whole through `fetch_text(oid)`."""
    if not node or "oid" not in node:
        return None
    size, oid = node.get("byteSize") or 0, node["oid"]
    if size > MAX_SCHEMA_BYTES:
        return Blob(None, too_large=True, size=size, oid=oid)
    if node.get("isBinary"):
        return Blob(None, binary=True, size=size, oid=oid)
    if node.get("isTruncated") or node.get("text") is None:
        return Blob(fetch_text(oid), size=size, oid=oid)
    return Blob(node["text"], size=size, oid=oid)
