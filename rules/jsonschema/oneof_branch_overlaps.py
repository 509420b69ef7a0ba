"""Flags a oneOf alternative added (or widened) where old data may match it as well as its own.

Why it breaks: `oneOf` requires exactly one alternative to match. Old data that matched one
alternative and now also matches the added one fails the new schema (BACKWARD), although
adding an alternative looks like a widening.

Example: `"oneOf": [{"type": "string"}, {"type": "number"}]` gained
`{"type": "string", "format": "email"}`; every old email string now matches two alternatives.

An alternative changed in place counts only when it accepts more than before, and only when a
document valid under the old schema can match it besides its own: two alternatives are told
apart by a discriminator `const` or `enum` (also against `"not": {"enum": [...]}`), by their
types, by a property one requires and the other forbids (`false`, `{"not": {}}`, or undeclared
in a closed object), by an alternative such data already failed in the old `oneOf` and that
did not change or only narrowed (a property added beside an unchanged `oneOf`), and, under the
lenient policy, by a property the new alternative requires that the old one does not declare.

Mirrored (FORWARD): new data may match two alternatives of the old `oneOf`, which the old
schema rejects: a `oneOf` became an `anyOf` ("inclusive"), or an alternative was added or
widened that overlaps two old ones. Under `not` the directions swap, as everywhere.

Fix: use `anyOf`, or make the alternatives disjoint (a distinct `type`, or a discriminator
property with a different `const` in each).
"""
from ..model import BACKWARD_ONLY, FORWARD_ONLY, Format, Severity, Side
from ..registry import RuleSpec
from .pairs import OverlapPair

SPEC = RuleSpec(id="JSONSCHEMA_ONEOF_BRANCH_OVERLAPS", format=Format.JSONSCHEMA, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR, summary="an added oneOf alternative overlaps an existing one")
PAIR = OverlapPair
MESSAGE = 'Alternative "{path}" was added to "oneOf" and overlaps an existing alternative; old data matching both no longer validates.'


WIDENED = ('Alternative "{path}" of "oneOf" was widened and now overlaps another; old data matching '
           'both no longer validates.')
BECAME_EXCLUSIVE = ('Alternative "{path}" became exclusive ("anyOf" to "oneOf") and overlaps another; '
                    'old data matching both no longer validates.')


BECAME_INCLUSIVE = ('Alternative "{path}" became inclusive ("oneOf" to "anyOf") and overlaps another; '
                    'a value matching both is valid under the new schema only (under "not": the old only).')
OLD_OVERLAP = ('Alternative "{path}" of the old "oneOf" overlaps another for data the new schema accepts; '
               'such a value matches both, so the old schema rejects it (under "not": the new one).')


def check(pair: OverlapPair, ctx):
    if pair.forward:
        template = BECAME_INCLUSIVE if pair.became_exclusive else OLD_OVERLAP
        yield SPEC.finding(path=pair.path, line=pair.added.line, side=Side.OLD, breaks=FORWARD_ONLY,
                           message=template.format(path=pair.path))
        return
    template = BECAME_EXCLUSIVE if pair.became_exclusive else WIDENED if pair.widened else MESSAGE
    yield SPEC.finding(path=pair.path, line=pair.added.line, message=template.format(path=pair.path))
