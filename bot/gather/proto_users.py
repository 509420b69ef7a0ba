"""The unchanged .proto files that import one a pull request removes or renames away.

Such a file no longer compiles at the head: a missing import is never "compatible". Each is
reviewed as a user of the change (FileChange.context), with its imports at each revision, so it
fails with the import named. Shared by the App (bot/gather/changes.py) and the local review.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from posixpath import dirname, join, normpath

from rules import Format
from rules.proto_imports import IMPORT_TEXT as IMPORT


def gone(changes: Iterable) -> dict[str, str]:
    """Base path of each changed .proto file the head no longer has there -> its path in the
    pull request (removed, or renamed: its old import path now names nothing)."""
    out = {}
    for change in changes:
        base_path = change.previous_path or change.path
        if change.context or not base_path.endswith(".proto") or change.base_text is None:
            continue
        if change.head_text is None or base_path != change.path:
            out[base_path] = change.path
    return out


def defining(changes: Iterable, fmt_of: Callable) -> bool:
    """Whether the pull request adds or changes a .proto file: the types it declares are
    looked for in the head's other ones (bot/review/duplicate_types.py)."""
    return any(not c.context and c.head_text is not None and fmt_of(c.path) is Format.PROTOBUF
               for c in changes)


def candidates(name: str, importer: str, roots: Iterable[str]) -> list[str]:
    """Repository paths an import may refer to: under each configured root, or beside the file."""
    out = [normpath(join(root, name)) for root in roots] + [normpath(join(dirname(importer), name))]
    return [p for p in dict.fromkeys(out) if not p.startswith("..")]


def importers(missing: Mapping[str, str], files: Mapping[str, str],
              roots: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Path of each of `files` importing one of `missing` (base paths) -> the pull request's
    paths of those it imports, sorted."""
    roots = tuple(roots)
    out = {}
    for path, text in sorted(files.items()):
        hit = {missing[c] for name in IMPORT.findall(text) for c in candidates(name, path, roots)
               if c in missing}
        if hit:
            out[path] = tuple(sorted(hit))
    return out
