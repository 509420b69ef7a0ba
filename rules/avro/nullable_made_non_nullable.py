"""Flags a type that was nullable in OLD (a union with "null") and is not in NEW.

Why it breaks: old writers may have written null; a new reader without a "null" branch cannot
read those values and fails. Old readers accept everything new writers produce, so only
**backward** compatibility breaks.

Example: OLD `{"name": "nickname", "type": ["null", "string"], "default": null}`, NEW
`{"name": "nickname", "type": "string"}` -> `"User.nickname" was made non-nullable.`

Fix: keep `"null"` in the union. If the value is now always present, say so in the `doc`; the
schema must still read the nulls already written.
"""
from ..model import BACKWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from .pairs import BranchPair

SPEC = RuleSpec(id="AVRO_NULLABLE_MADE_NON_NULLABLE", format=Format.AVRO, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR,
                summary="A nullable type lost its null branch.")
PAIR = BranchPair
MESSAGE = '"{at}" was made non-nullable.'


def check(pair: BranchPair, ctx):
    if pair.old is None or pair.old.kind != "null":
        return
    yield SPEC.finding(path=pair.path, line=pair.line, message=MESSAGE.format(at=pair.at))
