"""Flags an enum type that was deleted from the file (advisory).

An enum never appears on the wire by name: fields that used it are checked by the field type
rules, so deleting an unused enum breaks no payload. Generated code and other files that import
it do break, hence a warning rather than an error (Confluent: ENUM_REMOVED is compatible).

Example: `enum LegacyStatus { ... }` disappears after its last field switched to `Status`.

Fix: nothing, if no other file or service uses the enum; otherwise keep it, deprecated.
"""
from ..model import ADVISORY, Format, Severity
from ..registry import RuleSpec
from .pairs import Kind

SPEC = RuleSpec(id="PROTO_ENUM_DELETED", format=Format.PROTOBUF, breaks=ADVISORY,
                severity=Severity.WARNING, summary="an enum type was deleted")
KINDS = (Kind.ENUM,)
MESSAGE = 'Enum "{name}" was deleted.'


def check(pair, ctx):
    if pair.new is not None or pair.imported:
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(name=pair.path))
