"""Flags a message type that was deleted from the file (buf's PACKAGE and FILE categories).

A message is what a payload is written as: schema registries address records by message name,
`google.protobuf.Any` carries it in its type URL, other files import it, and generated code names
it. Payloads already written still decode wherever a field used the type (the field rules
check those), so buf's WIRE and WIRE_JSON categories, and the default, stay silent; its FILE
category (MESSAGE_NO_DELETE) and PACKAGE category (PACKAGE_MESSAGE_NO_DELETE) report it as
breaking generated code in both directions. Under PACKAGE alone a message that moved to another
file of the package (one this file imports) is not a deletion. Nested messages are reported
once, at the outermost deleted message.

Example: `message LegacyAddress { ... }` disappears from `customer.proto`.

Fix: keep the message (mark it `option deprecated = true;`) until no producer or consumer uses it.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import CODE
from .pairs import Kind

IMPACT = ("code generated from the new file no longer has the type: producers, consumers and "
          "importing files that name it stop compiling, and registries or `Any` type URLs that "
          "name it no longer resolve.")
SPEC = RuleSpec(id="PROTO_MESSAGE_DELETED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="a message type was deleted (PACKAGE, FILE)",
                impact=IMPACT, categories=CODE)
KINDS = (Kind.MESSAGE,)
MESSAGE = 'Message "{name}" was deleted.'


def check(pair, ctx):
    if pair.new is not None or pair.imported or ctx.moved_within_package(pair.old.full):
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(name=pair.path))
