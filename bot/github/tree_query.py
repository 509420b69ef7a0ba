"""A commit's file list read inside a GraphQL query: its root tree, nested TREE_DEPTH levels.

GitHub's GraphQL has no recursive listing: each level of directories is one more nesting of
`entries { ... object { ... on Tree { entries ... } } }`. A listing that needs more levels, or
that came back unusable, is None: the caller then lists the commit through REST
(bot/github/reads.py RepoReads.tree_paths), which also says whether GitHub cut the listing short.
"""
from __future__ import annotations

from posixpath import join

# Levels of entries asked for: files up to TREE_DEPTH - 1 directories below the root.
TREE_DEPTH = 8
# REST cuts a recursive listing at 100,000 entries and says so; a longer listing is left to
# it, so that a listing cut short is reported exactly as before.
MAX_ENTRIES = 100_000
# GitHub's contents API silently lists 1,000 entries of a directory at most; whether GraphQL's
# Tree.entries does too is undocumented, so a directory that full is left to REST as well.
MAX_DIRECTORY_ENTRIES = 1000
ENTRY_FIELDS = "name path type"


def selection(depth: int = TREE_DEPTH) -> str:
    """The fields to select on a root tree (`object(expression: "<sha>:")`)."""
    entries = f"entries {{ {ENTRY_FIELDS} }}"
    for _level in range(depth - 1):
        entries = f"entries {{ {ENTRY_FIELDS} object {{ ... on Tree {{ {entries} }} }} }}"
    return f"... on Tree {{ {entries} }}"


def paths_of(root: dict | None, depth: int = TREE_DEPTH) -> list[str] | None:
    """Every file's (blob's) path under `root`, in git's order as REST lists them; None when a
    directory's contents were not asked for (too deep) or the answer is not a whole listing."""
    found: list[tuple[str, str]] = []  # (path, type) of every entry, directories too
    if not _walk(root, "", 1, depth, found):
        return None
    return [path for path, kind in found if kind == "blob"]


def _walk(tree: dict | None, parent: str, level: int, depth: int, found: list[tuple[str, str]]) -> bool:
    entries = (tree or {}).get("entries")
    if not isinstance(entries, list) or len(entries) >= MAX_DIRECTORY_ENTRIES:
        return False
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            return False
        path = join(parent, entry["name"])
        if entry.get("path") != path:  # not relative to the root as expected: not trusted
            return False
        kind = entry.get("type")
        found.append((path, kind))
        if len(found) > MAX_ENTRIES:
            return False
        if kind == "tree":
            # The deepest level's directories come without their entries: not a whole listing.
            if level >= depth or not _walk(entry.get("object"), path, level + 1, depth, found):
                return False
        elif kind not in ("blob", "commit"):  # commit: a submodule, not a file here (as in REST)
            return False
    return True
