"""A file's content at a revision as GitHub's GraphQL describes it, within the schema size limit."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rules.limits import MAX_SCHEMA_BYTES

BLOB_FIELDS = "... on Blob { text isTruncated isBinary byteSize oid }"
# A symbolic link's blob is its target's path: never a schema, never followed (SECURITY.md).
# GraphQL's Blob has no mode: the commit's tree entry (`Commit.file`) says what the path is.
LINK_MODE = 0o120000  # TreeEntry.mode is git's octal mode as a number
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
    linked: bool = False  # a symbolic link: its text (a path) is never kept


def lookup(index: int, ref: str, path: str) -> tuple[dict[str, str], list[str], list[str]]:
    """Variables, declarations and selections of the aliases asking for (ref, path): its blob
    (`f{index}`) and its tree entry's mode (`m{index}`); expressions travel as variables."""
    variables = {f"e{index}": f"{ref}:{path}", f"c{index}": ref, f"p{index}": path}
    declarations = [f"$e{index}: String!", f"$c{index}: String!", f"$p{index}: String!"]
    selections = [f"f{index}: object(expression: $e{index}) {{ {BLOB_FIELDS} }}",
                  f"m{index}: object(expression: $c{index}) {{ ... on Commit {{ "
                  f"file(path: $p{index}) {{ mode }} }} }}"]
    return variables, declarations, selections


def looked_up(repository: dict, index: int, *, fetch_text: Callable[[str], str]) -> Blob | None:
    """The answer to `lookup(index, ...)`: a link is a Blob with no text, whatever it points to."""
    node = repository.get(f"f{index}")
    entry = (repository.get(f"m{index}") or {}).get("file") or {}
    if node and "oid" in node and entry.get("mode") == LINK_MODE:
        return Blob(None, size=node.get("byteSize") or 0, oid=node["oid"], linked=True)
    return blob_of(node, fetch_text=fetch_text)


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
