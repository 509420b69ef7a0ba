"""Every example, confirmed by the runtimes alone: on generated breaking pairs (and, when ../shared
is there, the conformance cases), each error finding's payload is written with one schema and read
with the other by fastavro, or validated by `jsonschema` (valid under the writer's schema, invalid
under the reader's). Nothing here uses the example builder's code (rules/examples/).

    python -m tests.rules.test_examples_independent   # prints the figures README reports
"""
from __future__ import annotations

import copy
import io
import json
import random
from collections import Counter
from dataclasses import dataclass, field

import fastavro
import jsonschema
import pytest

import rules
from rules.model import Format, Mode, Severity, Source
from tests.rules.avro import mutations as avro_mutations
from tests.rules.jsonschema import mutations as json_mutations
from tests.rules.mutate import choose, mutated
from tests.shared import shared_path

SEED = 20261203
PAIRS = 200  # breaking pairs per format, at least
SHARE = 0.95  # of the error findings that must carry an example
# Errors no record can show, each for a reason the rule's own message gives (the engine lists
# them too, rules/examples NOT_A_READ_FAILURE): not counted as findings that need an example.
NOT_A_READ_FAILURE = {
    "AVRO_FIELD_ALIAS_AMBIGUOUS": "fastavro reads both fields; Java refuses the schema pair",
    "AVRO_DECIMAL_CHANGED": "fastavro decodes with the writer's scale; Java readers misread",
    "JSONSCHEMA_EXTERNAL_REF_CHANGED": "the target outside the repository is not read",
}


@dataclass
class Tally:
    pairs: int = 0
    findings: int = 0
    with_example: int = 0
    confirmed: int = 0
    unconfirmed: list = field(default_factory=list)
    without: Counter = field(default_factory=Counter)

    def line(self, label: str) -> str:
        return (f"{label}: {self.pairs} breaking pairs, {self.findings} error findings, "
                f"{self.with_example} with an example, {self.confirmed} confirmed")


def _errors(report):
    for finding in report.findings:
        if finding.severity is Severity.ERROR and (finding.breaks or frozenset()) & report.mode.directions \
                and finding.rule not in NOT_A_READ_FAILURE:
            yield finding


def _tally(label, sources, confirm) -> Tally:
    tally = Tally()
    for old, new, fmt, mode in sources:
        report = rules.check(Source(f"old.{fmt.value}", json.dumps(old)),
                             Source(f"new.{fmt.value}", json.dumps(new)),
                             format=fmt, mode=mode, examples=True)
        errors = list(_errors(report))
        if not errors:
            continue
        tally.pairs += 1
        for finding in errors:
            tally.findings += 1
            if finding.example is None:
                tally.without[finding.rule] += 1
                continue
            tally.with_example += 1
            example = finding.example.to_json()
            writer, reader = (old, new) if example["written_with"] == "old" else (new, old)
            try:
                confirmed = confirm(writer, reader, example) and exercises(finding, reader, example)
            except Exception:  # noqa: BLE001 - a payload the runtime cannot even decode
                confirmed = False
            if confirmed:
                tally.confirmed += 1
            else:
                tally.unconfirmed.append((label, finding.rule, finding.path, example, old, new))
    return tally


# --- the runtimes' own verdicts --------------------------------------------------------------

def confirm_avro(writer: dict, reader: dict, example: dict) -> bool:
    """fastavro: the payload (Avro's JSON encoding) decoded with the writer's schema, written in
    binary, read with the reader's schema: it fails, or reads other values at the paths named."""
    datum = from_avro_json(writer, example["payload"])
    data = io.BytesIO()
    fastavro.schemaless_writer(data, fastavro.parse_schema(writer), datum)
    try:
        read = fastavro.schemaless_reader(io.BytesIO(data.getvalue()), fastavro.parse_schema(writer),
                                          fastavro.parse_schema(reader))
    except Exception:  # noqa: BLE001 - fastavro raises many types on resolution
        return example["outcome"] == "error"
    if example["outcome"] == "error":
        return False
    own = fastavro.schemaless_reader(io.BytesIO(data.getvalue()), fastavro.parse_schema(writer),
                                     fastavro.parse_schema(writer))
    return bool(example["changed"]) and all(_at(read, p) != _at(own, p) for p in example["changed"])


def from_avro_json(schema, value, named: dict | None = None, space: str = ""):
    """A datum for fastavro's writer from Avro's JSON encoding (fastavro's own json_reader
    recurses without end on a recursive schema, even for `[]`): a union's {"branch": value}
    becomes fastavro's (branch, value), bytes and fixed one byte per code point."""
    named = {} if named is None else named
    if isinstance(schema, str):
        if schema in ("bytes",):
            return value.encode("latin-1")
        if schema in ("null", "boolean", "int", "long", "float", "double", "string"):
            return value
        target = named.get(schema) or named[f"{space}.{schema}"]
        return from_avro_json(target["schema"], value, named, target["space"])
    if isinstance(schema, list):
        if value is None:
            return None
        (branch, inner), = value.items()
        chosen = next(b for b in schema if _branch_name(b, space) in (branch, branch.rpartition(".")[2])
                      or isinstance(b, str) and b.rpartition(".")[2] == branch.rpartition(".")[2])
        return (branch, from_avro_json(chosen, inner, named, space))
    kind = schema["type"]
    if kind in ("record", "enum", "fixed", "error"):
        name = schema["name"]
        space = name.rpartition(".")[0] if "." in name else schema.get("namespace", space)
        full = name if "." in name else f"{space}.{name}" if space else name
        named[full] = named[name.rpartition(".")[2]] = {"schema": schema, "space": space}
    if kind in ("record", "error"):
        return {f["name"]: from_avro_json(f["type"], value[f["name"]], named, space) for f in schema["fields"]}
    if kind == "fixed":
        return value.encode("latin-1")
    if kind == "array":
        return [from_avro_json(schema["items"], v, named, space) for v in value]
    if kind == "map":
        return {k: from_avro_json(schema["values"], v, named, space) for k, v in value.items()}
    if kind == "enum":
        return value
    return from_avro_json(kind, value, named, space)


def _branch_name(branch, space: str) -> str:
    if isinstance(branch, str):
        return branch
    if branch["type"] in ("record", "enum", "fixed", "error"):
        name = branch["name"]
        space = branch.get("namespace", space)
        return name if "." in name or not space else f"{space}.{name}"
    return branch["type"]


def confirm_jsonschema(writer: dict, reader: dict, example: dict) -> bool:
    """jsonschema: the instance is valid under the writer's schema and invalid under the reader's."""
    def validator(schema):
        return jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)(schema)
    return example["outcome"] == "error" and validator(writer).is_valid(example["payload"]) \
        and not validator(reader).is_valid(example["payload"])


def exercises(finding, reader: dict, example: dict) -> bool:
    """The payload holds the finding's element, and (JSON Schema) the reader rejects it there:
    the removed symbol, the null no longer allowed, the removed branch, the property."""
    payload, element = example["payload"], finding.path.rpartition(".")[2]
    values = list(_values(payload))
    if finding.rule in ("AVRO_ENUM_SYMBOL_REMOVED", "AVRO_ENUM_SYMBOL_ADDED"):
        return element in values
    if finding.rule == "AVRO_NULLABLE_MADE_NON_NULLABLE":
        return None in values
    if finding.rule == "AVRO_UNION_BRANCH_REMOVED":
        branch = finding.path.rpartition("<")[2].rstrip(">")
        return None in values if branch == "null" else any(
            isinstance(v, dict) and any(k.rpartition(".")[2] == branch for k in v) for v in _nodes(payload))
    if finding.rule.startswith("JSONSCHEMA_"):
        name = finding.path.split("/")[0].rpartition(".")[2].split("[")[0]
        if not name or name in ("$", "*") or "." not in finding.path.split("/")[0]:
            return True  # a finding on the root: any rejection is at it
        validator = jsonschema.validators.validator_for(reader, default=jsonschema.Draft7Validator)(reader)
        return any(name in [str(p) for p in e.absolute_path] or repr(name) in e.message
                   or name in [str(p) for p in e.absolute_schema_path]
                   for e in _all_errors(validator.iter_errors(payload)))
    return True


def _all_errors(errors):
    for error in errors:
        yield error
        yield from _all_errors(error.context or ())


def _nodes(value):
    yield value
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for child in children:
        yield from _nodes(child)


def _values(value):
    return (v for v in _nodes(value) if not isinstance(v, (dict, list)))


def _at(value, path: str):
    for step in path.removeprefix("$").replace("[", ".[").split("."):
        if step:
            value = value[int(step[1:-1])] if step.startswith("[") else value.get(step, "<missing>")
    return value


# --- the samples -----------------------------------------------------------------------------

# Fields both versions keep, added to the seeded records: logical types the runtime reads back
# as other Python types, and a recursive container of the record itself.
UNCHANGED = [
    {"name": "uid", "type": {"type": "string", "logicalType": "uuid"}},
    {"name": "day", "type": {"type": "int", "logicalType": "date"}},
    {"name": "clock", "type": {"type": "int", "logicalType": "time-millis"}},
    {"name": "when", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    {"name": "price", "type": {"type": "fixed", "name": "Price", "size": 4, "logicalType": "decimal",
                               "precision": 8, "scale": 2}},
    {"name": "children", "type": {"type": "array", "items": "Root"}},
]


def avro_generated(count: int = 400):
    """Mutations of seeded records (fields added, removed, renamed, retyped, made nullable or not,
    unions and enums changed, fixed sizes, recursive Node, decimals), with unchanged logical and
    recursive fields beside them, both directions."""
    rng = random.Random(SEED)
    for _ in range(count):
        old = avro_mutations.base(rng)
        chosen = choose(rng, avro_mutations.MUTATIONS)
        # a renamed record would leave `children` naming the old name
        kept = [f for f in UNCHANGED if f["name"] != "children" or avro_mutations.rename_record not in chosen]
        for extra in rng.sample(kept, k=rng.randint(0, 2)):
            old["fields"].insert(rng.randint(0, len(old["fields"])), copy.deepcopy(extra))
        new, _applied = mutated(old, rng, chosen)
        yield old, new, Format.AVRO, Mode.FULL


def jsonschema_generated(count: int = 260):
    """Mutations of seed object schemas (required added, maxLength, minimum, maximum, enum,
    type, nullable, maxItems, closed model, pattern), backward."""
    for old, new, _applied in json_mutations.pairs(SEED, count):
        yield old, new, Format.JSONSCHEMA, Mode.BACKWARD


@pytest.fixture(scope="module")
def avro_tally():
    return _tally("avro", avro_generated(), confirm_avro)


@pytest.fixture(scope="module")
def jsonschema_tally():
    return _tally("jsonschema", jsonschema_generated(), confirm_jsonschema)


@pytest.mark.parametrize("fixture", ["avro_tally", "jsonschema_tally"])
def test_every_example_is_confirmed_by_the_runtime(fixture, request):
    tally = request.getfixturevalue(fixture)
    assert tally.pairs >= PAIRS, tally.line(fixture)
    assert tally.with_example >= SHARE * tally.findings, (tally.line(fixture), tally.without)
    assert tally.confirmed == tally.with_example, tally.unconfirmed[:3]


@pytest.mark.parametrize("writer, reader, example", [
    ({"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}]},
     {"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}]},
     {"payload": {"a": 1}, "outcome": "error", "changed": None}),
    ({"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}]},
     {"type": "record", "name": "R", "fields": [{"name": "a", "type": "long"}]},
     {"payload": {"a": 1}, "outcome": "changed", "changed": ["$.a"]}),
])
def test_the_avro_check_refuses_a_record_that_reads_fine(writer, reader, example):
    assert not confirm_avro(writer, reader, example)


def test_the_jsonschema_check_refuses_an_instance_both_accept():
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert not confirm_jsonschema(schema, schema, {"payload": {"a": "x"}, "outcome": "error"})


# --- the conformance cases in ../shared (skipped without it) -----------------------------------

def _shared_avro():
    """Apache's cases (writer, reader: backward) and Confluent's (previous, new: both ways)."""
    for name, keys, mode in (("apache-avro-compatibility-cases.json", ("writer", "reader"), Mode.BACKWARD),
                             ("confluent-avro-compatibility-cases.json", ("previous", "new"), Mode.FULL)):
        for case in json.loads(shared_path("conformance", "avro", name).read_text()):
            if not case.get("compatible", True):
                old, new = (_schema(case[k]) for k in keys)
                yield old, new, Format.AVRO, mode


def _schema(value):
    """A case's schema: JSON text, or a bare primitive name, or already parsed."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def _shared_jsonschema():
    for name in ("diff-schema-examples.json", "diff-combined-schema-examples.json"):
        for case in json.loads(shared_path("conformance", "jsonschema", name).read_text()):
            yield case["original_schema"], case["update_schema"], Format.JSONSCHEMA, Mode.BACKWARD


@pytest.mark.parametrize("label, sources, confirm", [
    ("avro", _shared_avro, confirm_avro), ("jsonschema", _shared_jsonschema, confirm_jsonschema)])
def test_conformance_examples_are_confirmed(label, sources, confirm):
    tally = _tally(label, _readable(sources()), confirm)
    assert tally.confirmed == tally.with_example, tally.unconfirmed[:3]


def _readable(sources):
    """The pairs the engine can check (a conformance case may be a schema it refuses)."""
    for old, new, fmt, mode in sources:
        try:
            rules.check(Source(f"old.{fmt.value}", json.dumps(old)), Source(f"new.{fmt.value}", json.dumps(new)),
                        format=fmt, mode=mode)
        except rules.SchemaError:
            continue
        yield old, new, fmt, mode


def main() -> None:
    for label, sources, confirm in (("avro", avro_generated(), confirm_avro),
                                    ("jsonschema", jsonschema_generated(), confirm_jsonschema)):
        tally = _tally(label, sources, confirm)
        print(tally.line(label))
        for rule, count in tally.without.most_common():
            print(f"  without an example: {rule} x{count}")
        for item in tally.unconfirmed:
            print("  unconfirmed:", item[:4])


if __name__ == "__main__":
    main()
