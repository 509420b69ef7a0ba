"""A seeded generator of Avro schema pairs (old, mutated new) and of datums for a schema."""
from __future__ import annotations

import random

from tests.rules.mutate import choose, mutated

PRIMITIVES = ["int", "long", "float", "double", "string", "bytes", "boolean"]
DEFAULTS = {"int": 1, "long": 2, "float": 1.5, "double": 2.5, "string": "s", "bytes": "b",
            "boolean": True, "null": None}
TEMPLATES = [
    lambda: {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN", "BLUE"]},
    lambda: {"type": "fixed", "name": "Hash", "size": 4},
    lambda: {"type": "array", "items": "int"},
    lambda: {"type": "map", "values": "long"},
    lambda: {"type": "record", "name": "Inner", "fields": [
        {"name": "a", "type": "int"}, {"name": "b", "type": ["null", "string"], "default": None}]},
    lambda: {"type": "record", "name": "Node", "fields": [
        {"name": "v", "type": "int"}, {"name": "next", "type": ["null", "Node"], "default": None}]},
    lambda: {"type": "bytes", "logicalType": "decimal", "precision": 8, "scale": 2},
    lambda: ["null", "string"],
    lambda: ["null", "int", "string"],
]


def base(rng: random.Random) -> dict:
    fields = []
    for index in range(rng.randint(3, 7)):
        kind = rng.random()
        field_type = rng.choice(PRIMITIVES) if kind < 0.5 else None
        field = {"name": f"f{index}", "type": field_type}
        fields.append(field)
    templates = rng.sample(TEMPLATES, k=min(len(fields), rng.randint(2, 5)))
    for field, make in zip((f for f in fields if f["type"] is None), templates):
        field["type"] = make()
    for field in fields:
        field["type"] = field["type"] or rng.choice(PRIMITIVES)
        if isinstance(field["type"], list):
            field["default"] = None
        elif isinstance(field["type"], str) and rng.random() < 0.3:
            field["default"] = DEFAULTS[field["type"]]
    schema = {"type": "record", "name": "Root", "fields": fields}
    if rng.random() < 0.3:
        schema["namespace"] = "com.example"
    return schema


def _fields(schema: dict, rng: random.Random, test=lambda f: True):
    found = [f for f in schema["fields"] if test(f)]
    return rng.choice(found) if found else None


def _named(schema: dict, kind: str):
    for field in schema["fields"]:
        if isinstance(field["type"], dict) and field["type"].get("type") == kind:
            return field["type"]
    return None


def add_field(s, rng):
    kind = rng.choice(PRIMITIVES)
    field = {"name": "added", "type": kind}
    if rng.random() < 0.5:
        field["default"] = DEFAULTS[kind]
    s["fields"].insert(rng.randint(0, len(s["fields"])), field)


def remove_field(s, rng):
    s["fields"].remove(_fields(s, rng))


def rename_field(s, rng):
    field = _fields(s, rng)
    if rng.random() < 0.5:
        field["aliases"] = [field["name"]]
    field["name"] += "_renamed"


def change_type(s, rng):
    field = _fields(s, rng, lambda f: f["type"] in PRIMITIVES)
    if field:
        field["type"] = rng.choice(PRIMITIVES)
        field.pop("default", None)


def toggle_nullable(s, rng):
    field = _fields(s, rng, lambda f: f["type"] in PRIMITIVES or f["type"] == ["null", "string"])
    if field:
        field["type"] = "string" if isinstance(field["type"], list) else ["null", field["type"]]
        field.pop("default", None)


def change_union(s, rng):
    field = _fields(s, rng, lambda f: isinstance(f["type"], list))
    if field:
        extra = [t for t in ("int", "long", "boolean", "bytes") if t not in field["type"]]
        if rng.random() < 0.5 and len(field["type"]) > 2:
            field["type"].pop()
        else:
            field["type"].append(rng.choice(extra))


def change_enum(s, rng):
    enum = _named(s, "enum")
    if enum is None:
        return
    choice = rng.random()
    if choice < 0.4:
        enum["symbols"].append("PURPLE")
    elif choice < 0.8:
        enum["symbols"].remove(rng.choice(enum["symbols"][1:]))
    if rng.random() < 0.5:
        enum["default"] = enum["symbols"][0]


def change_fixed(s, rng):
    fixed = _named(s, "fixed")
    if fixed:
        fixed["size"] = 8


def rename_record(s, rng):
    inner = _named(s, "record") or (s if rng.random() < 0.5 else None)
    if inner is None:
        return
    if rng.random() < 0.5:
        inner["aliases"] = [inner["name"]]
    inner["name"] += "Renamed"
    for field in inner["fields"]:  # a recursive record refers to itself by name
        if field["type"] == ["null", "Node"]:
            field["type"] = ["null", inner["name"]]


def change_nested(s, rng):
    inner = _named(s, "record")
    if inner:
        inner["fields"].append({"name": "extra", "type": "long", **({"default": 0} if rng.random() < 0.5 else {})})


def change_container(s, rng):
    field = _fields(s, rng, lambda f: isinstance(f["type"], dict) and f["type"]["type"] in ("array", "map"))
    if field:
        key = "items" if field["type"]["type"] == "array" else "values"
        field["type"][key] = rng.choice(["int", "long", "string", "double"])


def change_decimal(s, rng):
    field = _fields(s, rng, lambda f: isinstance(f["type"], dict) and f["type"].get("logicalType") == "decimal")
    if field:
        field["type"]["scale"] = 3


def toggle_default(s, rng):
    field = _fields(s, rng, lambda f: f["type"] in PRIMITIVES)
    if field and "default" in field:
        del field["default"]
    elif field:
        field["default"] = DEFAULTS[field["type"]]


MUTATIONS = [add_field, remove_field, rename_field, change_type, toggle_nullable, change_union,
             change_enum, change_fixed, rename_record, change_nested, change_container,
             change_decimal, toggle_default]


def pairs(seed: int, count: int):
    """(old, new, names of the mutations applied) for `count` generated pairs."""
    rng = random.Random(seed)
    for _ in range(count):
        old = base(rng)
        new, applied = mutated(old, rng, choose(rng, MUTATIONS))
        yield old, new, applied


def datum(schema, rng: random.Random, named: dict | None = None, depth: int = 0):
    """A random value of `schema` (JSON form), the way fastavro's writer takes it."""
    named = {} if named is None else named
    if isinstance(schema, list):
        options = [b for b in schema if b == "null"] if depth > 3 and "null" in schema else schema
        return datum(rng.choice(options), rng, named, depth + 1)
    if isinstance(schema, str):
        if schema in named:
            return datum(named[schema], rng, named, depth + 1)
        return {"null": None, "boolean": rng.random() < 0.5, "int": rng.randint(-9, 9),
                "long": rng.randint(-9, 9), "float": 0.5, "double": 0.25, "string": "x",
                "bytes": b"y"}[schema]
    kind = schema["type"]
    if kind in ("record", "enum", "fixed"):
        named[schema["name"]] = schema
    if kind == "record":
        return {f["name"]: datum(f["type"], rng, named, depth + 1) for f in schema["fields"]}
    if kind == "enum":
        return rng.choice(schema["symbols"])
    if kind == "fixed":
        return b"z" * schema["size"]
    if kind == "array":
        return [datum(schema["items"], rng, named, depth + 1) for _ in range(2)]
    if kind == "map":
        return {"k": datum(schema["values"], rng, named, depth + 1)}
    if schema.get("logicalType") == "decimal":
        from decimal import Decimal
        return Decimal("1.25")
    return datum(kind, rng, named, depth + 1)
