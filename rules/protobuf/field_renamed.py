"""Flags a field whose number stayed but whose name changed.

The binary encoding only carries numbers, so a rename is wire-safe. It still changes the JSON
mapping (the key JSON payloads use), text format, and every line of generated code that names
the field. In buf's WIRE_JSON, PACKAGE and FILE categories (WIRE_JSON is the default; buf:
FIELD_SAME_NAME) it is an error in both directions: JSON written by one version loses the field
when read by the other. With WIRE alone it is a warning.

Example: `string user_name = 2;` becomes `string username = 2;`.

Fix: keep the old name, or accept the rename knowingly (and coordinate JSON consumers).
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import JSON
from .pairs import Kind

IMPACT = ("binary data is unaffected (it carries numbers). JSON payloads and text format carry "
          "the name, so a reader of one version does not recognise the other's key; generated "
          "code that names the field stops compiling.")
SPEC = RuleSpec(id="PROTO_FIELD_RENAMED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="a field changed its name (same number)",
                impact=IMPACT, categories=JSON, outside=Severity.WARNING)
KINDS = (Kind.FIELD,)
MESSAGE = 'Field "{old}" (number {number}) was renamed to "{new}".'
JSON_KEY = (' JSON payloads key it "{old_json}", now "{new_json}": a parser of either version '
            'rejects the other\'s key, or drops its value if it ignores unknown fields.')
SAME_KEY = ' Its JSON name stays "{json}", but text format and generated code change.'


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or old.name == new.name:
        return
    line, side = pair.where()
    message = MESSAGE.format(old=pair.old_path, number=new.number, new=new.name)
    if ctx.json:
        message += (SAME_KEY.format(json=new.json_name) if old.json_name == new.json_name
                    else JSON_KEY.format(old_json=old.json_name, new_json=new.json_name))
    yield SPEC.finding(path=pair.path, line=line, side=side, message=message)
