"""Flags a type widened by a promotion: int -> long -> float -> double, string <-> bytes.

Why it matters: a new reader promotes old values (an `int` written before reads as a `long`), so
**backward** compatibility holds. An old reader cannot narrow: it meets `long` data it has no
rule for, so **forward** compatibility breaks. string <-> bytes promotes both ways and is only
reported as info. Note that int/long -> float and long -> double can lose precision.

Example: OLD `{"name": "count", "type": "int"}`, NEW `{"name": "count", "type": "long"}` ->
`Type of "Stats.count" was promoted from int to long; old readers cannot read it.`

Fix: if old readers must keep working (forward or full mode), upgrade them first or keep the
narrower type.
"""
from ..model import FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from .pairs import TypePair
from .resolution import promotes

SPEC = RuleSpec(id="AVRO_TYPE_PROMOTED", format=Format.AVRO, breaks=FORWARD_ONLY,
                severity=Severity.ERROR,
                summary="A type was widened by a promotion (old readers cannot narrow).")
PAIR = TypePair
MESSAGE = 'Type of "{path}" was promoted from {old} to {new}; old readers cannot read it.'
BOTH_WAYS = 'Type of "{path}" was changed from {old} to {new}; readers of either version convert it.'


def check(pair: TypePair, ctx):
    old, new = pair.old, pair.new
    if not promotes(old, new):
        return
    words = dict(path=pair.at, old=old.kind, new=new.kind)
    if promotes(new, old):
        yield SPEC.finding(path=pair.path, line=pair.line, message=BOTH_WAYS.format(**words),
                           severity=Severity.INFO)
        return
    yield SPEC.finding(path=pair.path, line=pair.line, message=MESSAGE.format(**words))
