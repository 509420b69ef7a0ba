"""Dependency changes (dependencies / dependentRequired / dependentSchemas) by direction."""
from __future__ import annotations

from typing import Iterator

from . import content, paths
from .flat import Flat
from .keywords import ANNOTATIONS

ADDED, REMOVED = "added", "removed"


def changes(old: Flat, new: Flat, path: str, ctx=None) -> Iterator[tuple[str, str, str, int]]:
    """(ADDED or REMOVED, path, description, line) for each dependency one side lacks. With a
    lenient `ctx`, an added one that every old document already satisfies is left out (strict:
    Confluent reports each one added)."""
    kept = _old_satisfies(old) if ctx is not None and not ctx.strict else None
    if not (old.has("object") and new.has("object")):
        return
    line = new.key_line("dependentRequired" if "dependentRequired" in new.lines else "dependencies")
    for first, second, kind in ((new, old, ADDED), (old, new, REMOVED)):
        for name, needs in first.dep_required.items():
            extra = [n for n in needs if n not in _required_with(second, name)]
            if kind == ADDED and kept is not None:
                extra = [n for n in extra if not kept(name, n)]
            if extra:
                yield (kind, paths.keyword(path, "dependentRequired", name),
                       f'"{name}" requires {", ".join(map(repr_name, extra))}', line)
    line = new.key_line("dependentSchemas" if "dependentSchemas" in new.lines else "dependencies")
    for first, second, kind in ((new, old, ADDED), (old, new, REMOVED)):
        for name, schemas in first.dep_schemas.items():
            if name not in second.dep_schemas and not content.is_open(schemas) \
                    and not _says_no_more(schemas, _required_with(second, name)) \
                    and not (kind == ADDED and kept is not None and kept(name, schemas=schemas)):
                yield (kind, paths.keyword(path, "dependentSchemas", name),
                       f'"{name}" brings a dependent schema', line)


def _required_with(flat: Flat, trigger: str) -> tuple:
    """The names `flat` requires where `trigger` is present: its dependentRequired, and a
    dependent schema that only requires names (`{"required": [...]}` says the same)."""
    return flat.dep_required.get(trigger, ()) + (_only_required(flat.dep_schemas.get(trigger, ())) or ())


def _says_no_more(schemas: tuple, required: tuple) -> bool:
    """Whether dependent `schemas` only require names among `required` (the other side's)."""
    names = _only_required(schemas)
    return names is not None and set(names) <= set(required)


def _only_required(schemas: tuple) -> tuple | None:
    """The names `schemas` require when they say nothing else (annotations aside), else None."""
    names: tuple = ()
    for schema in schemas:
        if not isinstance(schema, dict) or not isinstance(schema.get("required"), list) \
                or any(key != "required" and key not in ANNOTATIONS for key in schema):
            return None
        names += tuple(schema["required"])
    return names


def _old_satisfies(old: Flat):
    """Whether old data matching `old` meets a dependency of `trigger`: it cannot hold the
    trigger, it always holds the needed name, or the dependent schema only forbids names it
    cannot hold (a closed content model that lacks them)."""
    def kept(trigger: str, needed: str | None = None, schemas: tuple = ()) -> bool:
        if content.cannot_hold(old, trigger):
            return True
        if needed is not None:
            return needed in old.required
        return all(_forbids_only(old, schema, 0) for schema in schemas)
    return kept


def _forbids_only(old: Flat, node, depth: int) -> bool:
    """`node` is annotations, an allOf of such, and `not: {required: [...]}` clauses, each
    naming a property old data cannot hold (so it never holds all of a clause's names)."""
    if node is True or depth > 8 or not isinstance(node, dict):
        return node is True
    for key, value in node.items():
        if key in ANNOTATIONS:
            continue
        if key == "allOf" and isinstance(value, list):
            if not all(_forbids_only(old, each, depth + 1) for each in value):
                return False
        elif key == "not" and isinstance(value, dict) and value.keys() == {"required"} \
                and isinstance(value["required"], list):
            if not any(isinstance(n, str) and content.cannot_hold(old, n) for n in value["required"]):
                return False
        else:
            return False
    return True


def repr_name(name: str) -> str:
    return f'"{name}"'
