"""Lines are numbered by \n only, as git and GitHub number them: a form feed in a comment or a
U+2028 in a JSON string never shifts a finding or aims a one-click fix at another line."""
import pytest

import rules
from rules.model import Source
from tests.rules.casedata import apply

# Characters str.splitlines breaks a line at and git does not; a protobuf comment may hold any,
# a JSON string the ones above U+001F, JSON whitespace a lone \r (not before \n: CRLF).
ODD = ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r"]
IN_JSON_STRING = ["\x85", "\u2028", "\u2029"]

PROTO_OLD = ('syntax = "proto3";\n// x{s}y{s}z{s}w\nmessage M {{\n  string id = 1;\n'
             '  string note = 2;\n  int64 amt = 3;\n}}\n')
PROTO_NEW = 'syntax = "proto3";\n// x{s}y{s}z{s}w\nmessage M {{\n  string id = 1;\n  int64 amt = 3;\n}}\n'
AVRO_OLD = ('{{{w}"type": "record", "name": "R", "doc": "x{s}y{s}z",\n "fields": [\n'
            '  {{"name": "id", "type": "int"}}\n ]}}\n')
AVRO_NEW = ('{{{w}"type": "record", "name": "R", "doc": "x{s}y{s}z",\n "fields": [\n'
            '  {{"name": "id", "type": "int"}},\n  {{"name": "added", "type": "string"}}\n ]}}\n')
JSON_OLD = ('{{{w}"type": "object", "description": "x{s}y{s}z",\n "properties": {{\n'
            '  "a": {{"type": "string"}}\n }},\n "required": []\n}}\n')
JSON_NEW = JSON_OLD.replace('"required": []', '"required": ["a"]')

CASES = ([("proto", PROTO_OLD, PROTO_NEW, "s", sep, "PROTO_FIELD_DELETED_NOT_RESERVED") for sep in ODD]
         + [(suffix, old, new, "s", sep, rule) for sep in IN_JSON_STRING
            for suffix, old, new, rule in (("avsc", AVRO_OLD, AVRO_NEW, "AVRO_FIELD_ADDED_WITHOUT_DEFAULT"),
                                           ("json", JSON_OLD, JSON_NEW, "JSONSCHEMA_PROPERTY_MADE_REQUIRED"))]
         + [("avsc", AVRO_OLD, AVRO_NEW, "w", "\r", "AVRO_FIELD_ADDED_WITHOUT_DEFAULT"),
            ("json", JSON_OLD, JSON_NEW, "w", "\r", "JSONSCHEMA_PROPERTY_MADE_REQUIRED")])


def _run(suffix: str, old_template: str, new_template: str, slot: str, sep: str):
    fill = {"s": "", "w": "", slot: sep}
    old, new = old_template.format(**fill), new_template.format(**fill)
    report = rules.check(Source(f"old.{suffix}", old), Source(f"new.{suffix}", new))
    return new, report


@pytest.mark.parametrize("suffix, old, new, slot, sep, rule", CASES,
                         ids=[f"{c[0]}-{c[3]}-U+{ord(c[4]):04X}" for c in CASES])
def test_an_odd_line_separator_moves_no_finding_and_no_fix(suffix, old, new, slot, sep, rule):
    odd_text, odd = _run(suffix, old, new, slot, sep)
    plain_text, plain = _run(suffix, old, new, slot, " ")  # the same file, a space instead
    (want,) = [f for f in plain.findings if f.rule == rule]
    (got,) = [f for f in odd.findings if f.rule == rule]
    assert want.suggestion is not None
    assert got.line == want.line
    assert got.suggestion is not None
    assert (got.suggestion.line_start, got.suggestion.line_end) == \
        (want.suggestion.line_start, want.suggestion.line_end)
    # Accepting the fix changes the same lines as in the plain file (the field `id` stays).
    assert apply(odd_text, got.suggestion).replace(sep, " ") == apply(plain_text, want.suggestion)
