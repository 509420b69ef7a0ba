"""Flags a logical type added, removed or replaced on an unchanged underlying type.

Why it matters: the bytes on the wire do not change, so Avro readers still read the data, but
they interpret it differently: a `long` written as `timestamp-millis` and read as
`timestamp-micros` lands 1000 times closer to 1970. Schema resolution ignores logical types
(decimal precision and scale are the exception, see `AVRO_DECIMAL_CHANGED`), so this rule is
advisory: a warning in every mode, for a human to confirm the data means the same.

Example: OLD `{"type": "long", "logicalType": "timestamp-millis"}`, NEW
`{"type": "long", "logicalType": "timestamp-micros"}` ->
`Logical type of "Event.at" was changed from timestamp-millis to timestamp-micros.`

Fix: keep the logical type, or add a new field with the new one.
"""
from ..model import ADVISORY, Format, Severity
from ..registry import RuleSpec
from .pairs import TypePair

SPEC = RuleSpec(id="AVRO_LOGICAL_TYPE_CHANGED", format=Format.AVRO, breaks=ADVISORY,
                severity=Severity.WARNING,
                summary="A logical type was added, removed or changed.")
PAIR = TypePair
MESSAGE = 'Logical type of "{path}" was changed from {old} to {new}.'
NONE = "none"


def check(pair: TypePair, ctx):
    if pair.old.kind != pair.new.kind:
        return
    old = dict(pair.old.logical).get("logicalType", NONE)
    new = dict(pair.new.logical).get("logicalType", NONE)
    if old == new:
        return
    yield SPEC.finding(path=pair.path, line=pair.line,
                       message=MESSAGE.format(path=pair.at, old=old, new=new))
