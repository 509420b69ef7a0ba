"""Flags a field deleted before the old schema marked it `[deprecated = true]` (advisory).

The deprecation lifecycle gives consumers a release in which generated code warns about the
field before it disappears. Deleting a field that was never deprecated skips that step: code
that still reads it stops compiling, and readers silently get nothing. This holds even when the
number is reserved, so it is reported separately from PROTO_FIELD_DELETED_NOT_RESERVED.

Example: `string nickname = 7;` is deleted in the same change that stops using it.

Fix: first release `string nickname = 7 [deprecated = true];`, delete it in a later version.
"""
from ..model import ADVISORY, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind

SPEC = RuleSpec(id="PROTO_FIELD_DELETED_NOT_DEPRECATED", format=Format.PROTOBUF, breaks=ADVISORY,
                severity=Severity.WARNING,
                summary="a field was deleted without first being marked deprecated",
                categories=ALL)
KINDS = (Kind.FIELD,)
MESSAGE = 'Field "{path}" was deleted without first being marked [deprecated = true].'


def check(pair, ctx):
    if pair.old is None or pair.new is not None or pair.old.deprecated:
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(path=pair.path))
