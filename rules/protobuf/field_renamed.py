"""Flags a field whose number stayed but whose name changed (advisory).

The binary encoding only carries numbers, so a rename is wire-safe. It still changes the JSON
mapping (the key old JSON payloads and old readers use), text format, and every line of generated
code that names the field (buf: FIELD_SAME_NAME in WIRE_JSON). Reported as a warning; a
repository config can make it an error.

Example: `string user_name = 2;` becomes `string username = 2;`.

Fix: keep the old name, or accept the rename knowingly (and coordinate JSON consumers).
"""
from ..model import ADVISORY, Format, Severity
from ..registry import RuleSpec
from .pairs import Kind

SPEC = RuleSpec(id="PROTO_FIELD_RENAMED", format=Format.PROTOBUF, breaks=ADVISORY,
                severity=Severity.WARNING, summary="a field changed its name (same number)")
KINDS = (Kind.FIELD,)
MESSAGE = 'Field "{old}" (number {number}) was renamed to "{new}".'


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or old.name == new.name:
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(old=pair.old_path, number=new.number, new=new.name))
