"""Flags a field whose `default` is not a value of the field's type.

Why it matters: Java Avro 1.9 and later refuse to parse such a schema, and a reader that needs
the default to fill the field fails; Confluent's registry (by default) and Apache's Python
checker accept it. The comparison goes on: an error where NEW introduces or changes the invalid
default, a warning where OLD already had the same one (the schema was never stricter than that).

Example: `{"name": "profileVersion", "type": "int", "default": "1"}` (a string on an int), or
`{"name": "offset", "type": ["null", "long"], "default": "null"}` (the string "null", not null).

A union's default that is a value of a later branch only (`["null", "string"]` with
`"default": "none"`) is reported too: Avro 1.12 and fastavro take it, but the specification
before 1.12 gave a union's default to its first branch, and Java before 1.12 and Apache's
Python library (1.12 included) refuse the schema.

Fix: write the default as a JSON value of the type: `"default": 1`, `"default": null`; for a
union, list the default's branch first (`["string", "null"]`).
"""
import json

from . import defaults
from ..model import ADVISORY, Format, Severity
from ..registry import RuleSpec
from .pairs import DefaultPair

SPEC = RuleSpec(id="AVRO_FIELD_DEFAULT_INVALID", format=Format.AVRO, breaks=ADVISORY,
                severity=Severity.ERROR, summary="a field's default is not a value of its type",
                impact=("Java Avro (1.9 and later) refuses to parse the schema, and readers that "
                        "fill the field from its default fail."))
PAIR = DefaultPair
MESSAGE = 'Default of field "{path}" is not a valid {type} value: {value}.'
NOT_FIRST = ('Default of field "{path}", {value}, is a value of a later branch of its {type} only, not of '
             'the first: Avro 1.12 takes it, but Java before 1.12 and Apache\'s Python library refuse '
             'the schema. List that branch first.')
UNCHANGED = " OLD had the same default, so this change did not introduce it."
MAX_SHOWN = 80  # characters of the default quoted


def check(pair: DefaultPair, ctx):
    field = pair.new
    value = json.dumps(field.default)
    value = value if len(value) <= MAX_SHOWN else value[:MAX_SHOWN - 3] + "..."
    template = NOT_FIRST if defaults.first_branch_only(field.type, field.default) else MESSAGE
    message = template.format(path=pair.path, type=field.type.label, value=value)
    yield SPEC.finding(path=pair.path, line=field.node.key_line("default"),
                       message=message + (UNCHANGED if pair.old is not None else ""),
                       severity=Severity.WARNING if pair.old is not None else None)
