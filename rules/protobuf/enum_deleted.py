"""Flags an enum type that was deleted from the file (buf's PACKAGE and FILE categories).

An enum never appears on the wire by name: fields that used it are checked by the field type
rules, so deleting an enum breaks no payload, and buf's WIRE and WIRE_JSON categories (the
default) stay silent. Generated code and other files that import it do break: buf's FILE
(ENUM_NO_DELETE) and PACKAGE (PACKAGE_ENUM_NO_DELETE) categories report it. Under PACKAGE alone
an enum that moved to another file of the package (one this file imports) is not a deletion.

Example: `enum LegacyStatus { ... }` disappears after its last field switched to `Status`.

Fix: keep the enum, deprecated, until no code or other file uses it.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import CODE
from .pairs import Kind

IMPACT = ("no payload: the enum's numbers live on in the fields that used it. Code generated "
          "from the new file no longer has the type, so code and files that name it stop compiling.")
SPEC = RuleSpec(id="PROTO_ENUM_DELETED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="an enum type was deleted (PACKAGE, FILE)",
                impact=IMPACT, categories=CODE)
KINDS = (Kind.ENUM,)
MESSAGE = 'Enum "{name}" was deleted.'


def check(pair, ctx):
    if pair.new is not None or pair.imported or ctx.moved_within_package(pair.old.full):
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(name=pair.path))
