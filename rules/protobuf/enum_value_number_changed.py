"""Flags an enum value that kept its name but moved to a new number.

Binary payloads carry the number: old data with the old number now decodes as an unknown value
(or the wrong one, once the number is reused), and new data is unknown to old readers. Both
directions break (buf sees a deletion without reservation).

Example: `PRIORITY_HIGH = 2;` becomes `PRIORITY_HIGH = 3;`.

Fix: keep the number; add a new value for a new meaning.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind

SPEC = RuleSpec(id="PROTO_ENUM_VALUE_NUMBER_CHANGED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="an enum value kept its name but changed its number",
                categories=ALL)
KINDS = (Kind.ENUM_VALUE_MOVED,)
MESSAGE = 'Enum value "{path}" changed its number from {old} to {new}.'


def check(pair, ctx):
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(path=pair.path, old=pair.old.number,
                                              new=pair.new.number))
