"""The parser refuses every schema fastavro refuses, so it need not run fastavro's parse too.

Schemas are damaged at random (a key dropped or set to an odd value, a subtree replaced or
duplicated) from the data cases and generated records; each one the parser accepts must parse
in fastavro as well, once the two things the parser deliberately accepts are taken out: a
default that does not match its type (reported by AVRO_FIELD_DEFAULT_INVALID) and an invalid
decimal annotation (the specification says to ignore it and use the underlying type).
"""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import fastavro
import pytest

from rules import jsontext
from rules.avro import defaults
from rules.avro.build import Builder
from rules.avro.logical import LOGICAL_KEYS, valid_decimal
from rules.avro.parse import parse
from rules.model import SchemaError, Source
from tests.rules.avro.mutations import base

CASES = Path(__file__).parent.parent / "cases" / "avro"
MUTANTS = 5000
ODD_VALUES = [None, True, 0, -1, 1.5, "", "x", "int", "null", "record", "enum", "fixed", "array",
              "map", "bytes", "1bad", "a.b", [], {}, ["null"], "decimal", {"type": "int"},
              {"type": "record"}]
KEYS = ["type", "name", "namespace", "fields", "symbols", "items", "values", "size", "default",
        "aliases", "logicalType", "precision", "scale", "order"]


def seeds() -> list:
    found = [json.loads(p.read_text()) for p in sorted(CASES.rglob("*.avsc"))]
    return found + [base(random.Random(i)) for i in range(40)]


def _nodes(value, path=()):
    yield path, value
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from _nodes(child, (*path, key))


def damaged(schema, rng: random.Random):
    schema = copy.deepcopy(schema)
    nodes = list(_nodes(schema))
    path, node = rng.choice(nodes)
    roll = rng.random()
    if isinstance(node, dict) and node and roll < 0.3:
        del node[rng.choice(list(node))]
    elif isinstance(node, dict) and roll < 0.6:
        node[rng.choice(KEYS)] = rng.choice(ODD_VALUES)
    elif isinstance(node, list) and node and roll < 0.5:
        node.append(copy.deepcopy(rng.choice(node)))
    elif path:
        parent = schema
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = (rng.choice(ODD_VALUES) if rng.random() < 0.7
                            else copy.deepcopy(rng.choice(nodes)[1]))
    else:
        schema = rng.choice(ODD_VALUES)
    return schema


def what_a_reader_uses(text: str):
    """The document without the defaults the parser reports and the decimals it ignores."""
    document = jsontext.loads(text, "s.avsc")
    builder = Builder("s.avsc")
    builder.type(document, "", 1)
    builder.finish()
    bad = {id(f.node) for f in builder.defaulted if not defaults.valid(f.type, f.default)}

    def clean(value):
        if isinstance(value, list):
            return [clean(item) for item in value]
        if not isinstance(value, dict):
            return value
        out = {key: clean(item) for key, item in value.items()
               if not (key == "default" and id(value) in bad)}
        kind = value.get("type")
        if value.get("logicalType") == "decimal" and isinstance(kind, str) and not valid_decimal(value, kind):
            for key in LOGICAL_KEYS:
                out.pop(key, None)
        return out
    return clean(document)


@pytest.mark.parametrize("size, precision", [(0, 1), (1, 2), (1, 3), (4, 9), (4, 10), (16, 38)])
def test_a_decimal_on_a_fixed_is_used_only_where_fastavro_would_accept_it(size, precision):
    fixed = {"type": "fixed", "name": "F", "size": size, "logicalType": "decimal", "precision": precision}
    text = json.dumps({"type": "record", "name": "R", "fields": [{"name": "a", "type": fixed}]})
    kept = parse(Source("s.avsc", text)).root.fields[0].type.logical != ()  # else ignored (the spec)
    try:
        fastavro.parse_schema(json.loads(text), _write_hint=False)
        accepted = True
    except Exception:  # noqa: BLE001 - fastavro's SchemaParseException and friends
        accepted = False
    assert kept == accepted


def test_every_schema_the_parser_accepts_fastavro_accepts():
    rng = random.Random(20261203)
    pool, accepted, refused, disagreements = seeds(), 0, 0, []
    for _ in range(MUTANTS):
        schema = rng.choice(pool)
        for _ in range(rng.choice((1, 1, 2, 3))):
            schema = damaged(schema, rng)
        text = json.dumps(schema)
        try:
            parse(Source("s.avsc", text))
        except SchemaError:
            refused += 1
            continue
        accepted += 1
        try:
            fastavro.parse_schema(what_a_reader_uses(text), _write_hint=False)
        except Exception as error:  # noqa: BLE001 - fastavro raises KeyError, TypeError, ...
            disagreements.append((text[:200], f"{type(error).__name__}: {error}"[:200]))
    assert disagreements == []
    # Both outcomes are common, so the comparison above is about something.
    assert accepted > MUTANTS // 10 and refused > MUTANTS // 10, (accepted, refused)
