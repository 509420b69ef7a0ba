"""Flags a fixed type whose `size` changed.

Why it breaks: a fixed value is exactly `size` bytes with no length prefix, so a reader with a
different size cannot read it ("FIXED_SIZE_MISMATCH"): both **backward** and **forward**
compatibility break.

Example: OLD `{"type": "fixed", "name": "Md5", "size": 16}`, NEW `... "size": 32}` ->
`Fixed "Md5" changed size from 16 to 32 bytes.`

Fix: define a new fixed type (new name) for the new size and a new field that uses it.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .pairs import TypePair
from .schema import Fixed

SPEC = RuleSpec(id="AVRO_FIXED_SIZE_CHANGED", format=Format.AVRO, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="A fixed type changed size.")
PAIR = TypePair
MESSAGE = 'Fixed "{name}" changed size from {old} to {new} bytes.'


def check(pair: TypePair, ctx):
    old, new = pair.old, pair.new
    if not (isinstance(old, Fixed) and isinstance(new, Fixed)) or old.size == new.size:
        return
    yield SPEC.finding(path=pair.path, line=new.node.key_line("size"),
                       message=MESSAGE.format(name=new.label, old=old.size, new=new.size))
