"""Avro schema text to the model: JSON with lines, then the specification's checks.

The builder refuses everything fastavro's parse_schema refuses (tests/rules/avro/
test_fastavro_agreement.py holds it to that on thousands of mutated schemas), so fastavro is not
run here: its import and second parse were a third of a big file's check.
"""
from __future__ import annotations

from .. import jsontext
from ..model import Source
from . import defaults
from .build import Builder
from .library import Library
from .gc_pause import gc_paused
from .schema import Parsed

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
    # So do Java before 1.12 and Apache's Python library a union default of a later branch only.
    bad = {id(f.node) for f in builder.defaulted
           if not defaults.valid(f.type, f.default) or defaults.first_branch_only(f.type, f.default)}
    return Parsed(path=source.path, root=root, named=builder.named, text=source.text,
                  bad_defaults=_owners(builder.named, bad) if bad else ())


def _owners(named: dict, bad: set) -> tuple:
    """(record, field) for each field whose JSON object is in `bad`."""
    return tuple((record, field) for record in named.values() for field in getattr(record, "fields", ())
                 if id(field.node) in bad)
