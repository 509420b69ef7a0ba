"""The `required` entries two alternatives disagree on, and the lines they sit on."""
from __future__ import annotations

from . import paths, suggest
from .flat import Flat


def newly_required(old: Flat, new: Flat) -> list[str]:
    if not (old.has("object") and new.has("object")):
        return []
    return [name for name in new.required if name not in old.required]


def no_longer_required(old: Flat, new: Flat) -> list[str]:
    if not (old.has("object") and new.has("object")):
        return []
    return [name for name in old.required if name not in new.required]


def line(ctx, flat: Flat, name: str) -> int:
    holder = flat.holders.get("required")
    if holder is None:
        return flat.line
    return suggest.name_line(ctx.new.lines, holder, "required", name)


def drop(ctx, flat: Flat, name: str):
    """The suggestion removing `name` from the new `required` array, when mechanical."""
    holder = flat.holders.get("required")
    if holder is None or name not in holder.get("required", ()):
        return None
    return suggest.drop_from_required(ctx.new.lines, holder, name, ctx.new.draft)


def path(parent_path: str, name: str) -> str:
    return paths.prop(parent_path, name)


def with_default(ctx, flat: Flat, name: str) -> bool:
    """Whether the new schema of property `name` states a `default`."""
    schemas = [ctx.new.refs.resolve(s) for s in flat.props.get(name, ())]
    return any(isinstance(s, dict) and "default" in s for s in schemas)
