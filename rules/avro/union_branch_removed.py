"""Flags a union branch that NEW removed and that no remaining branch can read.

Why it breaks: data written with the old schema may hold a value of the removed branch; a new
reader whose union has no branch matching it (same type, same name or alias, or a promotion)
fails ("MISSING_UNION_BRANCH"). Old readers still know every branch new writers use, so only
**backward** compatibility breaks. Removing `"null"` has its own rule,
`AVRO_NULLABLE_MADE_NON_NULLABLE`.

Example: OLD `"type": ["null", "string", "int"]`, NEW `"type": ["null", "string"]` ->
`Branch "int" was removed from "Event.value".`

Fix: keep the branch (it costs nothing on the wire), or migrate the data first.
"""
from ..model import BACKWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from .pairs import BranchPair
from .resolution import matches

SPEC = RuleSpec(id="AVRO_UNION_BRANCH_REMOVED", format=Format.AVRO, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR,
                summary="A union branch was removed.")
PAIR = BranchPair
MESSAGE = 'Branch "{branch}" was removed from "{at}".'


def check(pair: BranchPair, ctx):
    gone = pair.old
    if gone is None or gone.kind == "null":
        return
    if any(matches(reader, gone) for reader in pair.new_branches):
        return  # another branch reads it, e.g. a promotion to a type already in the union
    yield SPEC.finding(path=pair.path, line=pair.line,
                       message=MESSAGE.format(branch=gone.label, at=pair.at))
