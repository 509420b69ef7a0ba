"""Flags a message type that was deleted from the file.

A message is what a payload is written as: schema registries address records by message name,
`google.protobuf.Any` carries it in its type URL, and other files import it. Readers that still
decode that type can no longer be generated from the new file, and writers of the old file keep
producing it, so the deletion breaks both directions (Confluent: MESSAGE_REMOVED). Nested
messages are reported once, at the outermost deleted message. buf's WIRE categories do not
check this (only its FILE category does).

Example: `message LegacyAddress { ... }` disappears from `customer.proto`.

Fix: keep the message (mark it `option deprecated = true;`) until no producer or consumer uses it.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .pairs import Kind

SPEC = RuleSpec(id="PROTO_MESSAGE_DELETED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="a message type was deleted")
KINDS = (Kind.MESSAGE,)
MESSAGE = 'Message "{name}" was deleted.'


def check(pair, ctx):
    if pair.new is not None or pair.imported:
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(name=pair.path))
