"""Flags a schema whose `type` changed to a different kind of value.

Why it breaks: the old and new types are not contained in one another, so old data can fail
the new schema (BACKWARD) and new data can fail the old schema (FORWARD).

Example: `"zip": {"type": "string"}` became `"zip": {"type": "number"}`.

Fix: keep the property's type and add a new property with the new type; or use a union
(`"type": ["string", "number"]`) for a transition period.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from . import deltas
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_TYPE_CHANGED", format=Format.JSONSCHEMA, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="`type` changed to an unrelated kind of value")
PAIR = SchemaPair
MESSAGE = 'Type of "{path}" was changed from {old} to {new}.'


def check(pair: SchemaPair, ctx):
    removed, added = deltas.types(pair.old, pair.new)
    if removed and added:
        yield SPEC.finding(path=pair.path, line=pair.new.key_line("type"),
                           message=MESSAGE.format(path=pair.path, old=deltas.show_types(pair.old),
                                                  new=deltas.show_types(pair.new)))
