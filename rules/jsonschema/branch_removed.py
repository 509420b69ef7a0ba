"""Flags an anyOf/oneOf alternative of the old schema that no new alternative accepts.

Why it breaks: old data matching that alternative fails the new schema (BACKWARD). When a
new alternative of the same type exists, the differences are reported inside it instead.

Example: `"oneOf": [{"type": "number"}, {"type": "string"}]` became
`"oneOf": [{"type": "string"}]`; old `{"value": 3}` fails.

Fix: keep the alternative; deprecate it in its description until old data is gone.
"""
from ..model import BACKWARD_ONLY, Format, Severity, Side
from ..registry import RuleSpec
from . import deltas
from .pairs import BranchPair

SPEC = RuleSpec(id="JSONSCHEMA_BRANCH_REMOVED", format=Format.JSONSCHEMA, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR, summary="old data of an alternative matches no new alternative")
PAIR = BranchPair
MESSAGE = 'Alternative "{path}" ({types}) was removed or changed: no new alternative accepts its data.'


def check(pair: BranchPair, ctx):
    if pair.new is None and pair.old is not None:
        yield SPEC.finding(path=pair.path, line=pair.line, side=Side.OLD,
                           message=MESSAGE.format(path=pair.path, types=deltas.show_types(pair.old)))
