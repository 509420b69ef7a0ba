"""Flags an enum value deleted with its number and name reserved (buf's PACKAGE and FILE categories).

buf's WIRE and WIRE_JSON categories (the default) accept the deletion: an open (proto3) enum
keeps the number in binary. A closed (proto2) enum's reader drops it, and JSON parsers reject the
old name (reserved names do not change JSON parsing): the finding's example shows either.
Generated code still loses the constant: code that names it stops compiling. buf's FILE and
PACKAGE categories report any deletion (ENUM_VALUE_NO_DELETE); an unreserved one is
PROTO_ENUM_VALUE_DELETED_NOT_RESERVED's finding, so each deletion is reported once.

Example: `STATUS_ARCHIVED = 4;` becomes `reserved 4; reserved "STATUS_ARCHIVED";`.

Fix: keep the value, marked `[deprecated = true]`, while generated code still uses it.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import CODE
from .pairs import Kind
from .reservation import deleted_though_reserved

IMPACT = ("an open enum keeps the number in binary; a closed (proto2) enum's reader drops it, "
          "and JSON parsers reject the old name (reserved names do not change JSON parsing). Code "
          "generated from the new file no longer has the constant, so code that names it stops compiling.")
SPEC = RuleSpec(id="PROTO_ENUM_VALUE_DELETED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="an enum value was deleted, its number and name reserved (PACKAGE, FILE)",
                impact=IMPACT, categories=CODE)
KINDS = (Kind.ENUM_VALUE,)
MESSAGE = 'Enum value "{path}" (number {number}) was deleted; generated code no longer has it.'


def check(pair, ctx):
    return deleted_though_reserved(SPEC, MESSAGE, pair, ctx)
