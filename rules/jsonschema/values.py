"""JSON values as JSON Schema sees them: their type name and a canonical, hashable form."""
from __future__ import annotations

import json

ALL_TYPES = frozenset({"null", "boolean", "object", "array", "number", "string"})


def type_of(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _plain(value: object) -> object:
    if isinstance(value, float) and value.is_integer():
        return int(value)  # 1.0 and 1 are the same JSON number
    if isinstance(value, list):
        return [_plain(each) for each in value]
    if isinstance(value, dict):
        return {key: _plain(each) for key, each in value.items()}
    return value


def canon(value: object) -> str:
    """Equal JSON values give equal strings (key order and 1 vs 1.0 do not matter)."""
    return json.dumps(_plain(value), sort_keys=True, ensure_ascii=False)


def covers(types: frozenset[str], name: str) -> bool:
    """Whether a set of type names admits values of type `name` (integer is a number)."""
    return name in types or (name == "integer" and "number" in types)


def meet(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    """Type names both sets admit."""
    out = {t for t in a if covers(b, t)} | {t for t in b if covers(a, t)}
    if "number" in out and not ("number" in a and "number" in b):
        out.discard("number")
    return frozenset(out)


def normal(types: frozenset[str]) -> frozenset[str]:
    """Drop "integer" when "number" already admits it."""
    return types - {"integer"} if "number" in types else types


def show(types: frozenset[str]) -> str:
    return " or ".join(f'"{t}"' for t in sorted(types)) if types else "nothing"
