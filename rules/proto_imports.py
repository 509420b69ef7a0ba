"""A .proto file's imports, transitively: every file protoc may read, found before it runs.

protoc is given copies of these under its scratch tree, never a directory of the machine to
search: it would follow a link there (to any file) and read FIFOs and devices. The App and the
local review fetch the files from git; the CLI reads them from its import roots here.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from posixpath import normpath

from .limits import MAX_PROTO_FILES, MAX_SCHEMA_BYTES
from .localfile import LINKED_PARENT, Refused, linked_parent, read_regular

PROTO_IMPORT = re.compile(rb'^\s*import\s+(?:public\s+|weak\s+)?"([^"\n]+)"\s*;', re.MULTILINE)
# The same pattern over decoded text (the App's blobs are text).
IMPORT_TEXT = re.compile(PROTO_IMPORT.pattern.decode(), re.MULTILINE)
WELL_KNOWN = "google/protobuf/"  # compiled in with protoc; never read from a repository


def closure(text: bytes | None, find: Callable[[str], bytes | None],
            limit: int = MAX_PROTO_FILES) -> dict[str, str]:
    """Import path as written -> text, for every file `text` imports, transitively; `find`
    gives a file's bytes, or None when there is none (protoc then names the missing import).
    At most `limit` files: the compiler refuses that many (limits.MAX_PROTO_FILES), not fewer."""
    found: dict[str, str] = {}
    pending = list(PROTO_IMPORT.findall(text or b""))
    while pending and len(found) < limit:
        name = pending.pop().decode("utf-8", "replace")
        if name in found or name.startswith(WELL_KNOWN):
            continue
        data = find(name)
        if data is None:
            continue
        found[name] = data.decode("utf-8", "replace")
        pending.extend(PROTO_IMPORT.findall(data))
    return found


def from_roots(text: bytes, roots: tuple[str, ...],
               located: dict[str, str] | None = None) -> dict[str, str]:
    """The imports of a local file, each from the first root holding it (protoc's order). A
    link or special file where an import is found is refused (a Refused error), not followed;
    a name leaving its root (`..`, absolute) is never looked for. `located` gets each import's
    path as found (findings in an imported file name it)."""
    def find(name: str) -> bytes | None:
        if name.startswith("/") or "\\" in name or normpath(name) != name or name.startswith(".."):
            return None
        for root in roots:
            candidate = os.path.join(root, name)
            if not os.path.lexists(candidate):
                continue
            if (link := linked_parent(candidate, root)) is not None:
                raise Refused(candidate, None, LINKED_PARENT.format(link=link))
            data = read_regular(candidate, MAX_SCHEMA_BYTES)
            if located is not None:
                located[name] = candidate
            return data
        return None
    return closure(text, find)
