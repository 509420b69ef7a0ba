"""Flags an enum value whose number stayed but whose name changed (advisory).

Binary payloads carry only the number, so the rename is wire-safe; JSON payloads carry the
name, and generated code names it (buf: ENUM_VALUE_SAME_NAME in WIRE_JSON). Reported as a
warning; a repository config can make it an error.

Example: `STATUS_INACTIVE = 1;` becomes `STATUS_DISABLED = 1;`.

Fix: keep the old name, or add the new name as an alias (`option allow_alias = true;`).
"""
from ..model import ADVISORY, Format, Severity
from ..registry import RuleSpec
from .pairs import Kind

SPEC = RuleSpec(id="PROTO_ENUM_VALUE_RENAMED", format=Format.PROTOBUF, breaks=ADVISORY,
                severity=Severity.WARNING, summary="an enum value changed its name (same number)")
KINDS = (Kind.ENUM_VALUE,)
MESSAGE = 'Enum value "{old}" (number {number}) was renamed to "{new}".'


def check(pair, ctx):
    if pair.old is None or pair.new is None:
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(old=pair.old_path, number=pair.new.number,
                                              new=pair.new.name))
