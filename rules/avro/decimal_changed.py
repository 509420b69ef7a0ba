"""Flags a decimal whose `precision` or `scale` changed.

Why it breaks: a decimal is stored as an unscaled integer; the scale says where the point goes.
The spec says two decimal schemas match only if their scales and precisions match: a reader
with another scale would read 12.34 written at scale 2 as 1.234 at scale 3, and a narrower
precision cannot hold the values. Both **backward** and **forward** compatibility break (the
Java and Python checkers ignore logical types and would miss this).

Example: OLD `{"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}`, NEW
`... "precision": 12, "scale": 4}` -> `Decimal "Invoice.total" changed from (10, 2) to (12, 4).`

Fix: add a new field with the new precision and scale and migrate readers to it.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .pairs import TypePair

SPEC = RuleSpec(id="AVRO_DECIMAL_CHANGED", format=Format.AVRO, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="A decimal's precision or scale changed.")
PAIR = TypePair
MESSAGE = ('Decimal "{path}" changed from (precision {old[0]}, scale {old[1]}) '
           'to (precision {new[0]}, scale {new[1]}).')


def decimal(schema) -> tuple | None:
    """(precision, scale) of a decimal, None for anything else; scale defaults to 0."""
    logical = dict(schema.logical)
    if logical.get("logicalType") != "decimal":
        return None
    return logical.get("precision"), logical.get("scale", 0)


def check(pair: TypePair, ctx):
    old, new = decimal(pair.old), decimal(pair.new)
    if old is None or new is None or old == new or pair.old.kind != pair.new.kind:
        return
    yield SPEC.finding(path=pair.path, line=pair.line,
                       message=MESSAGE.format(path=pair.at, old=old, new=new))
