"""Flags an enum value whose number stayed but whose name changed.

Binary payloads carry only the number, so the rename is wire-safe; JSON payloads carry the
name, and generated code names it. In buf's WIRE_JSON, PACKAGE and FILE categories (WIRE_JSON is
the default; buf: ENUM_VALUE_SAME_NAME) it is an error in both directions: JSON written with one
name is rejected by the other version's parser. With WIRE alone it is a warning.

Example: `STATUS_INACTIVE = 1;` becomes `STATUS_DISABLED = 1;`.

Fix: keep the old name, or add the new name as an alias (`option allow_alias = true;`).
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import JSON
from .pairs import Kind

IMPACT = ("binary data is unaffected (it carries numbers). JSON payloads carry the value's name, "
          "so a reader of one version rejects the other's; generated code that names the value "
          "stops compiling.")
SPEC = RuleSpec(id="PROTO_ENUM_VALUE_RENAMED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="an enum value changed its name (same number)",
                impact=IMPACT, categories=JSON, outside=Severity.WARNING)
KINDS = (Kind.ENUM_VALUE,)
MESSAGE = 'Enum value "{old}" (number {number}) was renamed to "{new}".'
JSON_NAME = ' JSON payloads carry the name: "{old}" is unknown to the new version and "{new}" to the old.'


def check(pair, ctx):
    if pair.old is None or pair.new is None:
        return
    line, side = pair.where()
    message = MESSAGE.format(old=pair.old_path, number=pair.new.number, new=pair.new.name)
    if ctx.json:
        message += JSON_NAME.format(old=pair.old.name, new=pair.new.name)
    yield SPEC.finding(path=pair.path, line=line, side=side, message=message)
