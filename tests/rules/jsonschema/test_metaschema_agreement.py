"""Meta-validation reads a map of subschemas once per distinct value, and refuses exactly what
validating every schema object whole refuses, with the same message.

The reference is what parse._validate did before it cut maps to one entry per distinct value:
each schema object, its subschemas replaced by `{}`, validated against its draft's meta-schema.
Schemas are damaged at random (an odd value put in a map of subschemas, beside a keyword or in
place of one; a map entry copied under another name) under every draft, and each damaged
document must get the same verdict and message from both.
"""
from __future__ import annotations

import copy
import glob
import json
import random
from pathlib import Path

import pytest

from rules import jsontext
from rules.jsonschema import drafts, keywords
from rules.jsonschema.drafts import Draft
from rules.model import SchemaError
from tests.rules.jsonschema.mutations import SEEDS

# `parse` is a function of the package too: the module is reached by its import path.
parse_module = __import__("rules.jsonschema.parse", fromlist=["_validate"])

CASES = Path(__file__).parent.parent / "cases" / "jsonschema"
MUTANTS = 1500
ODD_VALUES = [None, True, False, 0, -1, 1.5, "", "x", "string", [], ["a", "a"], ["a", "b"], {},
              {"type": 5}, {"type": "strin"}, {"minimum": "a"}, {"required": "a"}, {"enum": []},
              {"items": [1]}, {"type": "string"}, {"$ref": 5}, {"properties": 1}]
KEYWORDS = [*keywords.MAPS, "dependencies", "type", "required", "items", "enum", "minimum",
            "additionalProperties", "allOf", "prefixItems", "$ref", "dependentRequired"]


def seeds() -> list:
    found = []
    for path in sorted(glob.glob(str(CASES / "**" / "*.json"), recursive=True)):
        try:
            value = json.loads(Path(path).read_text())
        except ValueError:
            continue
        if isinstance(value, dict):
            found.append(value)
    return found + [seed() for seed in SEEDS]


def _objects(value):
    found, stack = [], [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.append(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def damaged(schema: dict, rng: random.Random) -> dict:
    schema = copy.deepcopy(schema)
    for _ in range(rng.randint(1, 3)):
        node = rng.choice(_objects(schema))
        roll = rng.random()
        maps = [key for key in (*keywords.MAPS, "dependencies") if isinstance(node.get(key), dict)]
        if maps and roll < 0.4:
            entries = node[rng.choice(maps)]
            entries[rng.choice([*entries, "added", "b"])] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif maps and roll < 0.6 and node[maps[0]]:
            entries = node[maps[0]]
            entries[f"copy{rng.randint(0, 9)}"] = copy.deepcopy(entries[rng.choice(list(entries))])
        else:
            node[rng.choice(KEYWORDS)] = copy.deepcopy(rng.choice(ODD_VALUES))
    return schema


def each_object_whole(root, draft: Draft) -> str | None:
    """The reference: the first refusal of any schema object validated whole (shallowly)."""
    cls = drafts.validator_class(draft)
    meta = cls(cls.META_SCHEMA)
    for node in keywords.walk(root):
        if isinstance(node, dict):
            error = next(iter(meta.iter_errors(keywords.shallow(node))), None)
            if error is not None:
                return str(parse_module._invalid(error, node, draft, "schema.json"))
    return None


def verdict(root, draft: Draft) -> str | None:
    try:
        parse_module._validate(keywords.walk(root), draft, "schema.json")
    except SchemaError as error:
        return str(error)
    return None


def test_refuses_exactly_what_validating_each_object_whole_refuses():
    rng = random.Random(24)
    bases, refused, checked = seeds(), 0, 0
    for _ in range(MUTANTS):
        draft = rng.choice(list(Draft))
        schema = damaged(rng.choice(bases), rng)
        schema["$schema"] = f"https://json-schema.org/{'draft/' if draft.value[0] == '2' else ''}{draft.value}/schema"
        root = jsontext.loads(json.dumps(schema, indent=1), "schema.json")
        expected = each_object_whole(root, draft)
        assert verdict(root, draft) == expected, json.dumps(schema)
        refused += expected is not None
        checked += 1
    # The damage must reach both sides of the meta-schema for the agreement to mean anything.
    assert checked * 0.2 < refused < checked * 0.8


class _Counting:
    """Stands in for a validator class: counts the map entries the meta-schema is shown."""

    def __init__(self, real):
        self.real, self.META_SCHEMA, self.entries = real, real.META_SCHEMA, 0

    def __call__(self, schema):
        self.validator = self.real(schema)
        return self

    def iter_errors(self, instance):
        self.entries += sum(len(value) for key, value in instance.items()
                            if key in (*keywords.MAPS, "dependencies") and isinstance(value, dict))
        return self.validator.iter_errors(instance)


@pytest.mark.parametrize("draft", list(Draft))
def test_objects_differing_only_in_property_names_are_one_object_to_the_meta_schema(monkeypatch, draft):
    # 200 records of 50 properties, no two records with the same property names (10,000 entries).
    records = {f"Record{r}": {"type": "object", "properties": {f"r{r}_field_{f}": {"type": "string"}
                                                              for f in range(50)},
                              "required": [f"r{r}_field_0"], "additionalProperties": False}
               for r in range(200)}
    root = jsontext.loads(json.dumps({"definitions": records, "type": "object"}), "schema.json")
    counting = _Counting(drafts.validator_class(draft))
    monkeypatch.setattr(drafts, "validator_class", lambda _draft: counting)
    assert verdict(root, draft) is None
    # One entry a record (their `required` differ) and the root's one: not 50 a record.
    assert counting.entries <= 201
