"""A seeded generator of JSON Schema pairs (old, mutated new): seed object schemas, then one or
two of the changes that break a backward reader (a required property added, a bound tightened,
an enum narrowed, a type changed or narrowed, a property removed from a closed model, ...)."""
from __future__ import annotations

import random

from tests.rules.mutate import choose, mutated

DRAFT7 = "http://json-schema.org/draft-07/schema#"
SEEDS = [
    lambda: {"type": "object", "properties": {
        "id": {"type": "string", "maxLength": 12},
        "age": {"type": "integer", "minimum": 0, "maximum": 150},
        "kind": {"enum": ["a", "b", "c"]},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
        "phone": {"type": ["string", "null"]}}, "required": ["id"]},
    lambda: {"type": "object", "properties": {
        "order": {"type": "object", "properties": {
            "amount": {"type": "number", "minimum": 0},
            "currency": {"enum": ["EUR", "USD", "GBP"]},
            "note": {"type": "string", "minLength": 0}}, "required": ["amount"]},
        "lines": {"type": "array", "items": {"type": "object", "properties": {
            "sku": {"type": "string", "pattern": "^[a-z]+$"},
            "qty": {"type": "integer", "minimum": 1}}, "required": ["sku"]}}},
        "required": ["order"]},
    lambda: {"type": "object", "additionalProperties": False, "properties": {
        "name": {"type": "string", "maxLength": 40},
        "email": {"type": "string"},
        "active": {"type": "boolean"},
        "score": {"type": ["number", "null"], "maximum": 100}}, "required": ["name"]},
    lambda: {"type": "object", "properties": {
        "event": {"type": "string", "enum": ["created", "updated", "deleted"]},
        "payload": {"type": "object", "properties": {
            "count": {"type": "integer", "maximum": 1000},
            "labels": {"type": "array", "items": {"enum": ["x", "y", "z"]}, "minItems": 0}}},
        "at": {"type": "string"}}, "required": ["event"]},
]


def _objects(schema: dict):
    """Every object schema with properties, the root first."""
    stack = [schema]
    while stack:
        node = stack.pop(0)
        if isinstance(node, dict):
            if isinstance(node.get("properties"), dict):
                yield node
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(node)


def _props(schema: dict, test):
    return [(obj, name) for obj in _objects(schema) for name, sub in obj["properties"].items()
            if isinstance(sub, dict) and test(sub)]


def make_required(s, rng):
    found = [(o, n) for o, n in _props(s, lambda p: True) if n not in o.get("required", [])]
    if found:
        obj, name = rng.choice(found)
        obj.setdefault("required", []).append(name)


def tighten_max_length(s, rng):
    found = _props(s, lambda p: p.get("type") == "string" or "maxLength" in p)
    if found:
        obj, name = rng.choice(found)
        obj["properties"][name]["maxLength"] = min(obj["properties"][name].get("maxLength", 100), 10) - 7


def raise_minimum(s, rng):
    found = _props(s, lambda p: p.get("type") in ("integer", "number") or "minimum" in p)
    if found:
        obj, name = rng.choice(found)
        obj["properties"][name]["minimum"] = obj["properties"][name].get("minimum", 0) + 5


def lower_maximum(s, rng):
    found = _props(s, lambda p: "maximum" in p)
    if found:
        obj, name = rng.choice(found)
        obj["properties"][name]["maximum"] = obj["properties"][name]["maximum"] // 2


def narrow_enum(s, rng):
    found = _props(s, lambda p: isinstance(p.get("enum"), list) and len(p["enum"]) > 1)
    found += [(o["properties"][n], "items") for o, n in _props(s, lambda p: isinstance(
        p.get("items"), dict) and isinstance(p["items"].get("enum"), list))]
    if found:
        obj, name = rng.choice(found)
        target = obj["properties"][name] if name != "items" else obj["items"]
        target["enum"].pop(rng.randrange(len(target["enum"])))


def change_type(s, rng):
    found = _props(s, lambda p: p.get("type") in ("string", "integer", "boolean", "number"))
    if found:
        obj, name = rng.choice(found)
        old = obj["properties"][name]["type"]
        obj["properties"][name] = {"type": rng.choice([t for t in ("string", "integer", "boolean") if t != old])}


def narrow_nullable(s, rng):
    found = _props(s, lambda p: isinstance(p.get("type"), list) and "null" in p["type"])
    if found:
        obj, name = rng.choice(found)
        obj["properties"][name]["type"] = [t for t in obj["properties"][name]["type"] if t != "null"][0]


def lower_max_items(s, rng):
    found = _props(s, lambda p: p.get("type") == "array")
    if found:
        obj, name = rng.choice(found)
        obj["properties"][name]["maxItems"] = 0


def close_and_remove(s, rng):
    obj = rng.choice(list(_objects(s)))
    obj["additionalProperties"] = False
    names = [n for n in obj["properties"] if n not in obj.get("required", [])]
    if names:
        del obj["properties"][rng.choice(names)]


def change_pattern(s, rng):
    found = _props(s, lambda p: p.get("type") == "string")
    if found:
        obj, name = rng.choice(found)
        obj["properties"][name]["pattern"] = "^[0-9]+$"


MUTATIONS = [make_required, tighten_max_length, raise_minimum, lower_maximum, narrow_enum,
             change_type, narrow_nullable, lower_max_items, close_and_remove, change_pattern]


def pairs(seed: int, count: int):
    """(old, new, names of the mutations applied) for `count` generated pairs (draft-07)."""
    rng = random.Random(seed)
    for _ in range(count):
        old = {"$schema": DRAFT7, **rng.choice(SEEDS)()}
        new, applied = mutated(old, rng, choose(rng, MUTATIONS))
        yield old, new, applied
