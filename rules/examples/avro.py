"""Avro examples: a datum of the writer schema, encoded by fastavro and resolved by the reader's."""
from __future__ import annotations

import dataclasses
import io
import json
from dataclasses import dataclass

from ..avro.library import definition_nodes
from ..avro.schema import Array, Enum, Fixed, Map, Named, Record, Type, Union
from ..model import Example, Outcome, Side
from . import avro_schemas
from .budget import Allowance, Budget, TooBig, Tried, instance_path, quoted_names, short

DEEP = 6  # below this many records, unions take null and containers stay empty: recursion ends
SAMPLES = {"null": None, "boolean": True, "int": 1, "long": 1, "float": 1.5, "double": 1.5,
           "string": "x", "bytes": b"x"}
# The finding's change fails reading on its own; the whole other version fails first elsewhere.
ALSO = "{error} (the whole {reader} schema fails first on another change: {other})"
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
        self.containers: list[str] = []  # arrays and maps given an item, which shrinking may empty
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
            return [self.value(schema.items, f"{at}[]", depth)] if self._fill(schema.items, at, depth) else []
        if isinstance(schema, Map):
            return {"k": self.value(schema.values, f"{at}{{}}", depth)} if self._fill(schema.values, at, depth) else {}
        return _primitive(schema)

    def _fill(self, items: Type, at: str, depth: int) -> bool:
        """Whether a container gets its one item: not when the item is a record being built
        (recursion ends at `[]`) or too deep, nor when the search empties it (shrinking)."""
        if depth > DEEP or (isinstance(items, Named) and items.fullname in self.building):
            return False
        self.containers.append(at)
        return self.overrides.get(f"{at}#empty") is None

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
    if logical.get("logicalType") == "decimal":  # the unscaled bytes, as Avro's JSON has them
        return b"\x01"
    return LOGICAL_SAMPLES.get(logical.get("logicalType"), SAMPLES.get(schema.kind))


@dataclass
class _Written:
    """A record encoded by the writer, and the whole reader's Example for it (None: read right)."""

    data: bytes
    payload: object
    whole: Example | None
    built: _Datum


WRITTEN_KEPT = 64  # records kept for the comparison's other findings
TOO_BIG = object()  # a record refused while it was built, remembered as such


class Finder:
    """Both versions as fastavro schemas (parsed once) and their models, for one comparison."""

    def __init__(self, old, new, options):
        self.models = {Side.OLD: old, Side.NEW: new}
        self.documents = {side: json.loads(p.text) for side, p in self.models.items()}
        self.schemas = {side: avro_schemas.parse(document, self.models[side])
                        for side, document in self.documents.items()}
        self.aliases = {side: _field_aliases(doc) for side, doc in self.documents.items()}
        self.points: dict[Side, list[Point]] = {}
        self.readers: dict[tuple, object] = {}  # (reader side, finding path) -> its isolated reader
        self.definitions = {side: definition_nodes(doc) for side, doc in self.documents.items()}
        self.written: dict[tuple, object] = {}  # (writer, overrides) -> _Written, None or TOO_BIG
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
        own = self._isolated(finding, writer, reader)
        key = (writer, own is not None and finding.path)  # an isolated reader is the finding's own

        def attempt(overrides):
            return self.tried.get(key, overrides, budget, lambda: self._try(
                self._written(writer, reader, overrides), writer, reader, own))

        for overrides in _candidates(self.points[writer], finding.path):
            example = attempt(overrides)
            if example is not False:
                return self._shrunk(example, overrides, writer, reader, attempt)
            if budget.exhausted:
                return None
        return None

    def _isolated(self, finding, writer: Side, reader: Side):
        """The reader with only the finding's change (None: the whole reader is used)."""
        key = (reader, finding.path)
        if key not in self.readers:
            self.readers.clear()  # one finding's at a time: a big schema's copies do not pile up
            try:
                self.readers[key] = avro_schemas.isolated(
                    finding.path, self.models[writer], self.models[reader], self.documents[writer],
                    (self.definitions[writer], self.definitions[reader]), quoted_names(finding.message))
            except Exception:  # noqa: BLE001 - the change does not stand alone (a type moved)
                self.readers[key] = None
        return self.readers[key]

    def _written(self, writer: Side, reader: Side, overrides: dict) -> _Written | None:
        """The record for these overrides, encoded, with what the whole reader makes of it:
        built once for all the findings of the comparison (None: the writer refused it)."""
        key = (writer, tuple(sorted(overrides.items(), key=repr)))
        if key not in self.written:
            if len(self.written) >= WRITTEN_KEPT:  # the oldest goes: memory stays bounded
                self.written.pop(next(iter(self.written)))
            self.written[key] = self._write(writer, reader, overrides)
        if self.written[key] is TOO_BIG:
            raise TooBig
        return self.written[key]

    def _write(self, writer: Side, reader: Side, overrides: dict):
        from fastavro import schemaless_writer
        built = _Datum(overrides)
        try:
            datum = built.value(self.models[writer].root, "$")
        except TooBig:
            return TOO_BIG
        buffer = io.BytesIO()
        try:
            schemaless_writer(buffer, self.schemas[writer], datum)
        except Exception:  # noqa: BLE001 - a datum our sampler got wrong: try the next one
            return None
        data, payload = buffer.getvalue(), _json(datum)
        whole = self._read(data, writer, self.schemas[reader], reader, payload)
        return _Written(data, payload, whole, built)

    def _shrunk(self, example: Example, overrides: dict, writer: Side, reader: Side, attempt) -> Example:
        """The example with each container emptied and each union set to null, one at a time,
        where the break still shows: the shortest record that proves the finding."""
        built = self._written(writer, reader, overrides).built
        steps = [(f"{at}#empty", 1) for at in built.containers]
        steps += [(p.key, p.labels.index(f"{p.key}<null>")) for p in built.points
                  if f"{p.key}<null>" in p.labels and p.key not in overrides
                  and p.labels[p.chosen] != f"{p.key}<null>"]
        for key, index in steps:
            smaller = attempt({**overrides, key: index})
            if smaller is not False:
                example, overrides = smaller, {**overrides, key: index}
        return example

    def _try(self, written: _Written | None, writer: Side, reader: Side, own) -> Example | None:
        if written is None:
            return None
        whole = written.whole
        if own is None or whole is None:
            return whole
        mine = self._read(written.data, writer, own, reader, written.payload)
        if mine is None or mine.outcome is not whole.outcome:
            return None  # the break this record shows is another change's, not the finding's
        if mine.outcome is Outcome.CHANGED:
            return mine if set(mine.changed) <= set(whole.changed) else None
        if mine.reader_error != whole.reader_error:  # the whole reader meets another change first
            return dataclasses.replace(mine, reader_error=short(ALSO.format(
                error=mine.reader_error, reader=reader.value, other=whole.reader_error)))
        return mine

    def _read(self, data: bytes, writer: Side, reader_schema, reader: Side, payload) -> Example | None:
        """What the reader makes of the written bytes: an error, values it sees differently from
        the writer's own reader (so logical types compare as the runtime reads them), or None."""
        from fastavro import schemaless_reader
        try:
            read = schemaless_reader(io.BytesIO(data), self.schemas[writer], reader_schema)
        except Exception as error:  # noqa: BLE001 - fastavro raises many types on resolution
            return Example(writer, payload, Outcome.ERROR, reader_error=short(error))
        written = schemaless_reader(io.BytesIO(data), self.schemas[writer], self.schemas[writer])
        changed = []
        _diff(written, read, [], changed, self.aliases[reader])
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
    return datum


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
