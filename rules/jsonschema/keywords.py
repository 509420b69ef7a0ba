"""Where subschemas sit inside a schema object, so walks visit schemas and never data."""
from __future__ import annotations

from typing import Iterator

# keyword -> how its value holds subschemas
SINGLE = ("not", "additionalProperties", "additionalItems", "unevaluatedProperties",
          "unevaluatedItems", "contains", "propertyNames", "if", "then", "else")
LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
MAPS = ("properties", "patternProperties", "definitions", "$defs", "dependentSchemas")
FREE_TEXT = ("title", "description", "$comment")
# Keywords that only annotate: a `$ref` with only these beside it is a plain reference.
ANNOTATIONS = frozenset({"title", "description", "default", "examples", "deprecated", "$comment",
                         "readOnly", "writeOnly", "$id", "id", "$schema", "$defs", "definitions",
                         "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary"})


_MAPS_OF_SCHEMAS = frozenset((*MAPS, "dependencies"))
_KIND = {**dict.fromkeys(SINGLE, "single"), **dict.fromkeys(LISTS, "list"),
         **dict.fromkeys(MAPS, "map"), "items": "items", "dependencies": "dependencies"}
_RESHAPED = frozenset((*_KIND, *FREE_TEXT))  # what shallow() may replace


def children(schema: object) -> Iterator[object]:
    """Every direct subschema of a schema object."""
    if not isinstance(schema, dict):
        return
    for key, value in schema.items():
        kind = _KIND.get(key)
        if kind is None:
            continue
        if kind == "single" or (kind == "items" and not isinstance(value, list)):
            yield value
        elif isinstance(value, list) and kind in ("list", "items"):
            yield from value
        elif isinstance(value, dict) and kind in ("map", "dependencies"):
            yield from (v for v in value.values() if not isinstance(v, list))


def walk(root: object) -> list:
    """Every schema object in a document, root first (iterative: depth is already bounded)."""
    found, stack = [], [root]
    while stack:
        schema = stack.pop()
        found.append(schema)
        stack.extend(children(schema))
    return found


def shallow(schema: dict) -> dict:
    """The schema object with each subschema that is an object replaced by `{}`, and free
    text blanked: what the meta-schema checks of this object alone. The object itself where
    nothing is to replace (callers never change it)."""
    touched = _RESHAPED.intersection(schema)
    if not touched:
        return schema
    out = dict(schema)  # the keys stay in their order: alike objects are found by their repr
    for key in touched:
        value, kind = out[key], _KIND.get(key)
        if kind == "single":
            value = {} if isinstance(value, dict) else value
        elif kind in ("list", "items"):
            value = [{} if isinstance(v, dict) else v for v in value] if isinstance(value, list) else (
                {} if isinstance(value, dict) else value)
        elif kind in ("map", "dependencies"):
            value = {k: {} if isinstance(v, dict) else v for k, v in value.items()} if isinstance(value, dict) else value
        elif kind is None and isinstance(value, str):  # free text
            value = ""
        out[key] = value
    return out


def one_of_each(shallow_schema: dict) -> dict:
    """A shallow schema object whose maps of subschemas keep one entry per distinct value.

    Every draft's meta-schema checks such a map (`properties`, `$defs`, `dependencies`, ...)
    only as an object whose values are each a schema (or, for `dependencies`, a string
    array); its key names only against `"format": "regex"`, which is not asserted. So the
    verdict is the one of the whole object, and objects that differ only in property names
    (most of a big contract) are one object to the meta-schema."""
    maps = [key for key in _MAPS_OF_SCHEMAS.intersection(shallow_schema) if isinstance(shallow_schema[key], dict)]
    if not maps:
        return shallow_schema  # most objects (a property's own schema) hold no map
    out = dict(shallow_schema)
    for key in maps:
        kept: dict = {}
        for name, value in out[key].items():
            kept.setdefault(repr(value), (name, value))
        out[key] = dict(kept.values())
    return out
