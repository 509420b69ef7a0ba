"""What a JSON Schema object allows, read shallowly for the instance generator: its kinds of
value, its alternatives (anyOf/oneOf branches, allOf merged), its items, its extra properties."""
from __future__ import annotations

CONDITIONAL = ("if", "then", "else", "dependentSchemas", "dependencies", "dependentRequired")


def item_schemas(schema: dict) -> tuple[list, object]:
    if isinstance(schema.get("prefixItems"), list):
        return schema["prefixItems"], schema.get("items", schema.get("unevaluatedItems", True))
    if isinstance(schema.get("items"), list):
        return schema["items"], schema.get("additionalItems", True)
    return [], schema.get("items", True)


def open_to(schema: dict, strict: bool):
    """The schema of properties a writer may add beyond the declared ones, or None."""
    extra = schema.get("additionalProperties", schema.get("unevaluatedProperties", True))
    if isinstance(extra, dict) and extra:
        return extra  # the schema declares what extra properties hold: a map
    if strict and extra is not False and schema.get("unevaluatedProperties", True) is not False:
        return True  # Confluent's view: an open model may hold anything
    return None


def alternatives(schema: dict) -> list:
    """anyOf/oneOf branches with the schema's other keywords merged in, allOf merged whole."""
    rest = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf", "allOf")}
    merged = []
    for keyword in ("anyOf", "oneOf"):
        for branch in schema.get(keyword, []) if isinstance(schema.get(keyword), list) else []:
            merged.append(merge(rest, branch) if isinstance(branch, dict) else branch)
    if isinstance(schema.get("allOf"), list):
        whole = dict(rest)
        for part in schema["allOf"]:
            whole = merge(whole, part) if isinstance(part, dict) else whole
        merged.append(whole)
    # a branch that applies when its condition holds: the names it declares are the object's too
    plain = {k: v for k, v in rest.items() if k not in CONDITIONAL}
    merged += [merge(plain, branch) for branch in _conditional_branches(schema)]
    return merged


def _conditional_branches(schema: dict) -> list[dict]:
    """`then`, `else` (beside an `if`), each dependentSchemas/dependencies schema, and each
    dependency's list of names (dependentRequired, dependencies) as the `required` it stands for."""
    found = [schema[k] for k in ("then", "else") if "if" in schema and isinstance(schema.get(k), dict)]
    for keyword in ("dependentSchemas", "dependencies", "dependentRequired"):
        entries = schema.get(keyword) if isinstance(schema.get(keyword), dict) else {}
        found += [{"required": [name, *value]} if isinstance(value, list) else value
                  for name, value in entries.items() if isinstance(value, (dict, list))]
    return found


def merge(base: dict, extra: dict) -> dict:
    out = {**base, **{k: v for k, v in extra.items() if k not in ("properties", "required")}}
    if "properties" in base or "properties" in extra:
        out["properties"] = {**(base.get("properties") or {}), **(extra.get("properties") or {})}
    if "required" in base or "required" in extra:
        out["required"] = list(dict.fromkeys([*(base.get("required") or []), *(extra.get("required") or [])]))
    return out


def kinds(schema: dict) -> set[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return {declared, "number"} if declared == "integer" else {declared}
    if isinstance(declared, list):
        found = set(declared)
        return found | ({"number"} if "integer" in found else set())
    hints = {"object": ("properties", "required", "additionalProperties", "patternProperties"),
             "array": ("items", "prefixItems", "minItems", "maxItems", "contains"),
             "string": ("minLength", "maxLength", "pattern", "format"),
             "number": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")}
    found = {kind for kind, keys in hints.items() if any(k in schema for k in keys)}
    return found or {"object", "array", "string", "number", "boolean", "null"}


def kind_of(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"
