"""Avro examples: a datum of the writer schema, encoded by fastavro and resolved by the reader's."""
from __future__ import annotations

import io
import json
from dataclasses import dataclass
from decimal import Decimal

from ..avro.schema import Array, Enum, Fixed, Map, Named, Record, Type, Union
from ..model import Example, Outcome, Side
from .budget import Allowance, Budget, TooBig, Tried, instance_path, short

DEEP = 6  # below this many records, unions take null and containers stay empty: recursion ends
SAMPLES = {"null": None, "boolean": True, "int": 1, "long": 1, "float": 1.5, "double": 1.5,
           "string": "x", "bytes": b"x"}
LOGICAL_SAMPLES = {"uuid": "00000000-0000-4000-8000-000000000001"}


@dataclass
class Point:
    """A choice in the datum (a union's branch or an enum's symbol) and what each option is called."""

    key: str
    labels: list[str]
    chosen: int


class _Datum:
    """Builds one datum of a schema; `overrides` picks another option at some choice points."""

    def __init__(self, overrides: dict[str, int]):
        self.overrides, self.points = overrides, []
        self.building: set[str] = set()  # records being built: a union leaves them by null
        self.allowance = Allowance()  # raises TooBig before a record outgrows the limit

    def value(self, schema: Type, at: str, depth: int = 0):
        # A fixed costs its declared size (a byte is a character of the JSON encoding).
        self.allowance.spend(schema.size if isinstance(schema, Fixed) else 1)
        if isinstance(schema, Union):
            return self._union(schema, at, depth)
        if isinstance(schema, Record):
            self.building.add(schema.fullname)
            value = {f.name: self.value(f.type, f"{schema.display}.{f.name}", depth + 1)
                     for f in schema.fields}
            self.building.discard(schema.fullname)
            return value
        if isinstance(schema, Enum):
            labels = [f"{schema.display}.{s}" for s in schema.symbols]
            return schema.symbols[self._choose(at, labels, 0)]
        if isinstance(schema, Fixed):
            return b"\x01" * schema.size
        if isinstance(schema, Array):
            return [] if depth > DEEP else [self.value(schema.items, f"{at}[]", depth)]
        if isinstance(schema, Map):
            return {} if depth > DEEP else {"k": self.value(schema.values, f"{at}{{}}", depth)}
        return _primitive(schema)

    def _union(self, schema: Union, at: str, depth: int):
        branches = schema.branches
        kinds = [b.kind for b in branches]
        preferred = next((i for i, k in enumerate(kinds) if k != "null"), 0)
        again = isinstance(branches[preferred], Named) and branches[preferred].fullname in self.building
        if (again or depth > DEEP) and "null" in kinds:
            preferred = kinds.index("null")
        index = self._choose(at, [f"{at}<{b.label}>" for b in branches], preferred)
        branch = branches[index]
        name = branch.fullname if isinstance(branch, Named) else branch.kind
        return (name, self.value(branch, at, depth))  # fastavro's tuple notation picks the branch

    def _choose(self, key: str, labels: list[str], default: int) -> int:
        chosen = self.overrides.get(key, default)
        self.points.append(Point(key, labels, chosen))
        return chosen


def _primitive(schema: Type):
    logical = dict(schema.logical)
    if logical.get("logicalType") == "decimal":
        return Decimal(1)
    return LOGICAL_SAMPLES.get(logical.get("logicalType"), SAMPLES.get(schema.kind))


class Finder:
    """Both versions as fastavro schemas (parsed once) and their models, for one comparison."""

    def __init__(self, old, new, options):
        from fastavro import parse_schema
        self.models = {Side.OLD: old, Side.NEW: new}
        self.documents = {side: json.loads(p.text) for side, p in self.models.items()}
        self.schemas = {side: parse_schema(document, _write_hint=False)
                        for side, document in self.documents.items()}
        self.aliases = {side: _field_aliases(doc) for side, doc in self.documents.items()}
        self.points: dict[Side, list[Point]] = {}
        self.tried = Tried()  # findings of one comparison share most candidates (the plain datum)

    def find(self, finding, *, writer: Side, budget: Budget) -> Example | None:
        reader = Side.NEW if writer is Side.OLD else Side.OLD
        root = self.models[writer].root
        if writer not in self.points:
            if not budget.spend():
                return None
            first = _Datum({})
            try:
                first.value(root, "$")
            except TooBig:  # even the plain record is over the limit: no example is shown
                budget.oversized = True
                return None
            self.points[writer] = first.points
        for overrides in _candidates(self.points[writer], finding.path):
            example = self.tried.get(writer, overrides, budget, lambda: self._try(
                _Datum(overrides).value(root, "$"), writer, reader))
            if example is not False:
                return example
            if budget.exhausted:
                return None
        return None

    def _try(self, datum, writer: Side, reader: Side) -> Example | None:
        from fastavro import schemaless_reader, schemaless_writer
        buffer = io.BytesIO()
        try:
            schemaless_writer(buffer, self.schemas[writer], datum)
        except Exception:  # noqa: BLE001 - a datum our sampler got wrong: try the next one
            return None
        buffer.seek(0)
        payload = _json(datum)
        try:
            read = schemaless_reader(buffer, self.schemas[writer], self.schemas[reader])
        except Exception as error:  # noqa: BLE001 - fastavro raises many types on resolution
            return Example(writer, payload, Outcome.ERROR, reader_error=short(error))
        changed = []
        _diff(_plain(datum), read, [], changed, self.aliases[reader])
        if changed:
            return Example(writer, payload, Outcome.CHANGED, changed=tuple(changed))
        return None


def _candidates(points: list[Point], path: str):
    """The plain datum, then each other option of each choice point, the finding's own first."""
    yield {}
    related = [p for p in points if path in p.labels or p.key.startswith(path)
               or path.startswith(p.key + ".") or path.startswith(p.key + "<")]
    others = [p for p in points if p not in related]
    for point in related + others:
        order = sorted(range(len(point.labels)), key=lambda i: point.labels[i] != path)
        for index in order:
            if index != point.chosen:
                yield {point.key: index}


def _json(datum):
    """The datum in Avro's JSON encoding: a union as {"branch": value} (null as null), bytes and
    fixed as one code point per byte. (fastavro's json_writer fails on named types nested in
    unions, so the encoding is written out here from the branch names the datum carries.)"""
    if isinstance(datum, tuple):
        name, value = datum
        return None if name == "null" else {name: _json(value)}
    if isinstance(datum, dict):
        return {key: _json(value) for key, value in datum.items()}
    if isinstance(datum, list):
        return [_json(value) for value in datum]
    if isinstance(datum, bytes):
        return datum.decode("latin-1")
    if isinstance(datum, Decimal):
        return str(datum)
    return datum


def _plain(value):
    """The written datum as the reader returns values: union branches unwrapped."""
    if isinstance(value, tuple):
        return _plain(value[1])
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _diff(written, read, steps: list, out: list, aliases: dict) -> None:
    """Paths whose value the reader sees differently (fields the reader dropped are not counted)."""
    if isinstance(written, dict) and isinstance(read, dict):
        for key, value in written.items():
            target = key if key in read else aliases.get(key)
            if target in read:
                _diff(value, read[target], steps + [key], out, aliases)
        return
    if isinstance(written, list) and isinstance(read, list):
        if len(written) != len(read):
            out.append(instance_path(steps))
        for index, (w, r) in enumerate(zip(written, read)):
            _diff(w, r, steps + [index], out, aliases)
        return
    if _same(written, read):
        return
    out.append(instance_path(steps))


def _same(written, read) -> bool:
    if isinstance(written, (bytes, str)) and isinstance(read, (bytes, str)):
        as_bytes = [v.encode("utf-8") if isinstance(v, str) else v for v in (written, read)]
        return as_bytes[0] == as_bytes[1]  # string <-> bytes is a documented promotion
    return written == read


def _field_aliases(document) -> dict[str, str]:
    """Every field alias of a schema document -> the field's name (to pair renamed fields)."""
    found: dict[str, str] = {}
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            for field in node.get("fields", []) if isinstance(node.get("fields"), list) else []:
                if isinstance(field, dict):
                    for alias in field.get("aliases", []) or []:
                        found.setdefault(alias, field.get("name"))
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
    return found
