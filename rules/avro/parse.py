"""Avro schema text to the model: JSON with lines, the spec's checks, then fastavro's own parse."""
from __future__ import annotations

import json

from .. import jsontext
from ..model import SchemaError, Source
from . import defaults
from .build import Builder
from .library import Library
from .gc_pause import gc_paused
from .logical import effective
from .schema import Parsed

FASTAVRO_REJECTED = "not a valid Avro schema: {problem}"
ROOT_LINE = 1


def parse(source: Source) -> Parsed:
    """Parse one version; raise SchemaError (file, line when known, problem) if it is unusable."""
    with gc_paused():
        return _parse(source)


def _parse(source: Source) -> Parsed:
    document = jsontext.loads(source.text, source.path)
    builder = Builder(source.path, Library(source.imports) if source.imports else None)
    line = document.line if isinstance(document, dict) else ROOT_LINE
    root = builder.type(document, "", line)
    builder.finish()
    # Java Avro refuses an invalid default, Confluent and Apache's Python checker accept it:
    # a rule reports it (AVRO_FIELD_DEFAULT_INVALID) and the comparison goes on.
    bad = {id(f.node) for f in builder.defaulted if not defaults.valid(f.type, f.default)}
    named: dict = {}  # other files' types, known to fastavro before the file that uses them
    for path, other in builder.loaded:
        _fastavro_accepts(_usable(other, builder, bad), path, named)
    _fastavro_accepts(_usable(document, builder, bad), source.path, named)
    return Parsed(path=source.path, root=root, named=builder.named, text=source.text,
                  bad_defaults=_owners(builder.named, bad) if bad else ())


def _usable(document, builder: Builder, bad: set):
    # fastavro refuses what the specification says to ignore and invalid defaults: give it
    # what a reader uses.
    document = effective(document) if builder.ignored_logical else document
    return defaults.without_defaults(document, bad) if bad else document


def _owners(named: dict, bad: set) -> tuple:
    """(record, field) for each field whose JSON object is in `bad`."""
    return tuple((record, field) for record in named.values() for field in getattr(record, "fields", ())
                 if id(field.node) in bad)


def _fastavro_accepts(document, file: str, named: dict) -> None:
    """fastavro is the reader the project ships: a schema it refuses is unusable here too."""
    from fastavro import parse_schema  # imported late: only valid JSON gets this far

    try:
        parse_schema(document, named_schemas=named, _write_hint=False)
    except Exception as error:  # fastavro raises KeyError/TypeError as well as its own types
        raise SchemaError(file, None, FASTAVRO_REJECTED.format(problem=_short(error))) from None


def _short(value) -> str:
    text = str(value) if isinstance(value, Exception) else json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."
