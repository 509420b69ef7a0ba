"""Dependency changes (dependencies / dependentRequired / dependentSchemas) by direction."""
from __future__ import annotations

from typing import Iterator

from . import content, paths
from .flat import Flat

ADDED, REMOVED = "added", "removed"


def changes(old: Flat, new: Flat, path: str) -> Iterator[tuple[str, str, str, int]]:
    """(ADDED or REMOVED, path, description, line) for each dependency one side lacks."""
    if not (old.has("object") and new.has("object")):
        return
    line = new.key_line("dependentRequired" if "dependentRequired" in new.lines else "dependencies")
    for first, second, kind in ((new, old, ADDED), (old, new, REMOVED)):
        for name, needs in first.dep_required.items():
            extra = [n for n in needs if n not in second.dep_required.get(name, ())]
            if extra:
                yield (kind, paths.keyword(path, "dependentRequired", name),
                       f'"{name}" requires {", ".join(map(repr_name, extra))}', line)
    line = new.key_line("dependentSchemas" if "dependentSchemas" in new.lines else "dependencies")
    for first, second, kind in ((new, old, ADDED), (old, new, REMOVED)):
        for name, schemas in first.dep_schemas.items():
            if name not in second.dep_schemas and not content.is_open(schemas):
                yield (kind, paths.keyword(path, "dependentSchemas", name),
                       f'"{name}" brings a dependent schema', line)


def repr_name(name: str) -> str:
    return f'"{name}"'
