"""Complete a response body with every field its OpenAPI schema requires but the emulator left out.

The emulator builds the fields that carry meaning (ids, shas, bodies, states); GitHub's schemas
require dozens more (avatar URLs, repository flags). Filling them from the schema keeps every
response schema-valid without hand-copying GitHub's full objects.
"""
from __future__ import annotations

from typing import Any, Callable

PLACEHOLDER_TIME = "2024-01-01T00:00:00Z"
PLACEHOLDER_URL = "https://github.invalid/placeholder"
PLACEHOLDER_EMAIL = "octocat@github.invalid"
# Nested objects deeper than this are left empty (schemas are acyclic but deep).
MAX_DEPTH = 12


class Filler:
    def __init__(self, resolve: Callable[[Any], Any]):
        self.resolve = resolve

    def fill(self, value: Any, schema: Any, depth: int = 0) -> Any:
        schema = self._flatten(schema)
        if depth > MAX_DEPTH or schema is None:
            return value
        if isinstance(value, list):
            items = schema.get("items")
            return [self.fill(v, items, depth + 1) for v in value] if items else value
        if not isinstance(value, dict):
            return value
        schema = self._branch(value, schema)
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                value[key] = self.default(props.get(key), depth + 1)
        for key, sub in props.items():
            if key in value and isinstance(value[key], (dict, list)):
                value[key] = self.fill(value[key], sub, depth + 1)
        return value

    def default(self, schema: Any, depth: int) -> Any:
        schema = self._flatten(schema)
        if schema is None or schema.get("nullable") or self._allows_null(schema):
            return None
        schema = self._branch({}, schema)
        kind = schema.get("type")
        if "enum" in schema:
            return schema["enum"][0]
        if kind == "object" or "properties" in schema:
            return self.fill({}, schema, depth)
        if kind == "array":
            return []
        return _SCALARS.get((kind, schema.get("format")), _SCALARS.get((kind, None), None))

    def _flatten(self, schema: Any) -> Any:
        """Resolve $ref and merge allOf parts into one object schema."""
        schema = self.resolve(schema)
        if not isinstance(schema, dict) or "allOf" not in schema:
            return schema
        merged: dict = {"type": "object", "properties": {}, "required": []}
        for part in schema["allOf"]:
            part = self._flatten(part)
            merged["properties"].update(part.get("properties", {}))
            merged["required"] += part.get("required", [])
        return merged

    def _branch(self, value: dict, schema: dict) -> dict:
        """For anyOf/oneOf, the object branch whose properties best match the value's keys."""
        options = [self._flatten(s) for s in schema.get("anyOf", schema.get("oneOf", []))]
        options = [o for o in options if isinstance(o, dict) and o.get("type") != "null"]
        if not options:
            return schema
        return max(options, key=lambda o: len(set(o.get("properties", {})) & set(value)))

    def _allows_null(self, schema: dict) -> bool:
        branches = schema.get("anyOf", schema.get("oneOf", []))
        return any(self.resolve(b).get("type") == "null" for b in branches)


_SCALARS = {
    ("string", None): "",
    ("string", "date-time"): PLACEHOLDER_TIME,
    ("string", "uri"): PLACEHOLDER_URL,
    ("string", "email"): PLACEHOLDER_EMAIL,
    ("integer", None): 0,
    ("number", None): 0,
    ("boolean", None): False,
}
