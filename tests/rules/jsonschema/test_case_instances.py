"""Case verdicts checked against instances, not against our own output.

A case folder may carry `witness.json` (a document the `jsonschema` library finds valid under
old.json and invalid under new.json: the break exists) or a "why" in expected.json (the
argument that no such document exists, backed here by a search over small documents built
from the names and values the schemas mention). Under the lenient policy a document holds
only the names that the old oneOf alternative it matches declares (or any anyOf option).
"""
from __future__ import annotations

import itertools
import json
import re

import jsonschema
import pytest

from rules.model import Format
from tests.rules.casedata import discover

MAX_NAMES = 3  # properties in one searched document
PLAIN_VALUES = ("s", 1, True, None)

CASES = [c for c in discover() if c.fmt is Format.JSONSCHEMA
         and ((c.folder / "witness.json").exists() or "why" in c.expected)]


def _load(case):
    return json.loads(case.old.read_text()), json.loads(case.new.read_text())


def _valid(schema, instance) -> bool:
    return jsonschema.validators.validator_for(schema)(schema).is_valid(instance)


def _declared(schema: dict, instance, root: dict | None = None, depth: int = 3) -> set[str]:
    """Names a schema declares for this instance: also through its allOf members, the
    conditional subschemas that apply to it, and local `$ref`s."""
    root = schema if root is None else root
    names = set(schema.get("properties", {})) | set(schema.get("required", []))
    parts = list(schema.get("allOf", [])) + (_applying(schema, instance, root) if isinstance(instance, dict) else [])
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target = root
        for step in ref[2:].split("/"):
            target = target.get(step, {}) if isinstance(target, dict) else {}
        parts.append(target)
    for part in parts if depth else ():
        if isinstance(part, dict):
            names |= _declared(part, instance, root, depth - 1)
    return names


def _writable(old: dict, instance, lenient: bool) -> bool:
    """Valid under old, and (lenient) holding only names its matched alternative declares."""
    if not _valid(old, instance):
        return False
    if not lenient or not isinstance(instance, dict):
        return True
    branches = old.get("oneOf", [{}])
    # anyOf options do not exclude each other: a name one declares may be held by data another
    # matches (the first failed on another keyword)
    declared = _declared(old, instance).union(*(_declared(option, instance, old) for option in old.get("anyOf", [])))
    # a patternProperties pattern declares every name it matches
    matched = {name for name in instance if any(re.search(p, name) for p in old.get("patternProperties", {}))}
    return any(_valid(branch, instance) and set(instance) <= declared | matched | _declared(branch, instance, old)
               for branch in branches)


def _applying(schema: dict, instance: dict, root: dict) -> list:
    """The conditional subschemas that apply to the instance: `then` or `else` as its `if`
    decides, the dependentSchemas (draft-07 `dependencies`) of the names it holds, and the
    names those or dependentRequired require (a producer writes the names declared where they
    apply)."""
    found = []
    test = schema.get("if")
    if isinstance(test, dict):  # read with the document's draft
        test = {**test, "$schema": root["$schema"]} if "$schema" in root else test
        found.append(schema.get("then" if _valid(test, instance) else "else"))
    for keyword in ("dependentSchemas", "dependencies", "dependentRequired"):
        for name, value in schema.get(keyword, {}).items():
            if name in instance:
                found.append({"required": value} if isinstance(value, list) else value)
    return [part for part in found if isinstance(part, dict)]


def _mentioned(schema, names: set, values: set) -> None:
    if isinstance(schema, dict):
        names.update(schema.get("properties", {}), schema.get("required", []))
        names.update(_pattern_names(schema.get("patternProperties", {})))
        for keyword in ("dependencies", "dependentRequired"):  # the names a dependency requires
            names.update(n for v in schema.get(keyword, {}).values() if isinstance(v, list) for n in v)
        for key in ("enum", "const"):
            if key in schema:
                values.update(map(json.dumps, schema[key] if key == "enum" else [schema[key]]))
        for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):  # and either side
            bound = schema.get(key)
            if isinstance(bound, int) and not isinstance(bound, bool):
                values.update(json.dumps(bound + step) for step in (-1, 0, 1))
        divisor = schema.get("multipleOf")
        if isinstance(divisor, (int, float)) and not isinstance(divisor, bool):
            values.update(json.dumps(divisor * times) for times in (1, 2))
        for child in schema.values():
            _mentioned(child, names, values)
    elif isinstance(schema, list):
        for child in schema:
            _mentioned(child, names, values)


def _pattern_names(patterns: dict) -> set[str]:
    """Names plain patterns (`^x-`, `-id$`) match: each one's literal, and each two joined (a
    name both match, where one's start and the other's end allow it)."""
    literals = [p.strip("^$") for p in patterns if re.fullmatch(r"\^?[A-Za-z0-9_-]*\$?", p)]
    return set(literals) | {a + b for a in literals for b in literals if a != b}


def _documents(old: dict, new: dict):
    names, values = set(), set(map(json.dumps, PLAIN_VALUES))
    _mentioned([old, new], names, values)
    pool = [json.loads(v) for v in sorted(values)]
    yield from pool + [[], {}]
    # arrays of unlike items (contains under maxContains), three long where the pool is small
    yield from (list(items) for size in (2, 3) if len(pool) ** size <= 2000
                for items in itertools.product(pool, repeat=size))
    for size in range(1, MAX_NAMES + 1):
        for chosen in itertools.combinations(sorted(names), size):
            for picked in itertools.product(pool, repeat=size):
                yield dict(zip(chosen, picked))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_verdict_agrees_with_instances(case):
    old, new = _load(case)
    lenient = case.args.get("policy", "lenient") == "lenient"
    breaking = [doc for doc in _documents(old, new) if _writable(old, doc, lenient) and not _valid(new, doc)]
    witness_file = case.folder / "witness.json"
    if witness_file.exists():
        witness = json.loads(witness_file.read_text())
        assert _writable(old, witness, lenient) and not _valid(new, witness)
        assert breaking, "the search is too weak to find the witness's kind of break"
        assert case.expected["compatible"] is False
    else:
        assert breaking == [], case.expected["why"]
        assert case.expected["compatible"] is True
