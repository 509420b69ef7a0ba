"""The unchanged .proto files that import one a pull request changes, removes or renames away.

Such a file may no longer compile at the head (its import gone, or a message or enum it uses
removed or renamed): an unresolved name is never "compatible". Each is reviewed as a user of
the change (FileChange.context), with its imports at each revision, so it fails naming the
import or type and the changed file. Shared by the App (bot/gather/changes.py) and the local review.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from posixpath import dirname, join, normpath

from rules import Format
from rules.proto_imports import imports


def changed(changes: Iterable) -> dict[str, str]:
    """Base path of each .proto file the pull request edits, removes or renames -> its path in
    the pull request (an importer of its base path may no longer resolve what it uses)."""
    out = {}
    for change in changes:
        base_path = change.previous_path or change.path
        if change.context or not base_path.endswith(".proto") or change.base_text is None:
            continue
        if change.head_text != change.base_text or base_path != change.path:
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


def importers(targets: Mapping[str, str], files: Mapping[str, str],
              roots: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Path of each of `files` importing one of `targets` (base paths, as `changed` maps them),
    directly or through files that `import public` it (whose importers see its names too) ->
    the pull request's paths of those it sees, sorted."""
    roots = tuple(roots)
    reads = {path: _reads(text, path, roots) for path, text in sorted(files.items())}
    seen = {path: frozenset((changed,)) for path, changed in targets.items()}  # what a path shows
    out: dict[str, frozenset[str]] = {}
    grew = True
    while grew:  # each round adds to some set, so at most as many rounds as there are files
        grew = False
        for path, (names, public) in reads.items():
            hit = frozenset().union(*(seen[c] for c in names if c in seen))
            if hit and hit != out.get(path):
                out[path], grew = hit, True
            shown = frozenset().union(*(seen[c] for c in public if c in seen))
            if shown - seen.get(path, frozenset()):
                seen[path], grew = seen.get(path, frozenset()) | shown, True
    return {path: tuple(sorted(hit)) for path, hit in sorted(out.items())}


def _reads(text: str, path: str, roots: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The paths a file's imports may name, and those of its `import public`s, whose names it
    passes on to its own importers."""
    found = [i for i in imports(text) if i.name]
    return ([c for i in found for c in candidates(i.name, path, roots)],
            [c for i in found if i.modifier == "public" for c in candidates(i.name, path, roots)])
