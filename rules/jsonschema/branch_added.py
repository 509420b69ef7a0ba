"""Flags an anyOf/oneOf alternative of the new schema that no old alternative accepts.

Why it breaks: new data matching it fails consumers still on the old schema (FORWARD).
Backward compatible: adding an alternative widens the schema (but see
JSONSCHEMA_ONEOF_BRANCH_OVERLAPS).

Example: `"type": "string"` became `"oneOf": [{"type": "number"}, {"type": "string"}]`.

Fix: none for backward compatibility; for forward or full, upgrade consumers first.
"""
from ..model import FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import deltas
from .pairs import BranchPair

SPEC = RuleSpec(id="JSONSCHEMA_BRANCH_ADDED", format=Format.JSONSCHEMA, breaks=FORWARD_ONLY,
                severity=Severity.ERROR, summary="a new alternative accepts data the old schema rejects")
PAIR = BranchPair
MESSAGE = 'Alternative "{path}" ({types}) was added; the old schema rejects its data.'


def check(pair: BranchPair, ctx):
    if pair.old is None and pair.new is not None:
        yield SPEC.finding(path=pair.path, line=pair.line,
                           message=MESSAGE.format(path=pair.path, types=deltas.show_types(pair.new)))
