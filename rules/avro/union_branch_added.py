"""Flags a union branch (or a new union around a type) that old readers cannot read.

Why it breaks: new writers may write a value of the added branch; an old reader with no branch
matching it fails. New readers read all old data, so only **forward** compatibility breaks. This
includes making a type nullable: `"string"` -> `["null", "string"]` is fine for new readers, but
an old reader cannot read a null.

Example: OLD `"type": ["null", "string"]`, NEW `"type": ["null", "string", "int"]` ->
`Branch "int" was added to "Event.value".`

Fix: for forward compatibility, upgrade readers before writers start using the branch.
"""
from ..model import FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from .pairs import BranchPair
from .resolution import matches

SPEC = RuleSpec(id="AVRO_UNION_BRANCH_ADDED", format=Format.AVRO, breaks=FORWARD_ONLY,
                severity=Severity.ERROR,
                summary="A union branch old readers do not know was added.")
PAIR = BranchPair
MESSAGE = 'Branch "{branch}" was added to "{at}".'


def check(pair: BranchPair, ctx):
    added = pair.new
    if added is None or any(matches(reader, added) for reader in pair.old_branches):
        return
    yield SPEC.finding(path=pair.path, line=pair.line,
                       message=MESSAGE.format(branch=added.label, at=pair.at))
