"""Flags a field deleted with its number and name reserved (buf's PACKAGE and FILE categories).

Reserving keeps old binary data safe, so buf's WIRE and WIRE_JSON categories (the default)
accept the deletion; JSON parsers still reject the old name (reserved names do not change JSON
parsing), as the finding's example shows. Generated code still loses the field's accessors:
code that reads or sets it stops compiling. buf's FILE and PACKAGE categories report any
deletion (FIELD_NO_DELETE); an unreserved one is PROTO_FIELD_DELETED_NOT_RESERVED's finding, so
each deletion is reported once.

Example: `string nickname = 7;` becomes `reserved 7; reserved "nickname";`.

Fix: keep the field, marked `[deprecated = true]`, while generated code still uses it.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import CODE
from .pairs import Kind
from .reservation import deleted_though_reserved

IMPACT = ("binary payloads decode (the number is reserved); a JSON payload with the old name is "
          "rejected (reserved names do not change JSON parsing). Code generated from the new "
          "file no longer has the field, so code that reads or sets it stops compiling.")
SPEC = RuleSpec(id="PROTO_FIELD_DELETED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="a field was deleted, its number and name reserved (PACKAGE, FILE)",
                impact=IMPACT, categories=CODE)
KINDS = (Kind.FIELD,)
MESSAGE = 'Field "{path}" (number {number}) was deleted; generated code no longer has it.'


def check(pair, ctx):
    return deleted_though_reserved(SPEC, MESSAGE, pair, ctx)
