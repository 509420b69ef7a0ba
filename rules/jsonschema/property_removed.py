"""Flags a property removed where old or new data could disagree with what remains.

Backward: old data still holds the removed name; if the new schema's fallback for it
(`patternProperties`, `additionalProperties`) rejects its old values, old data fails.
Forward: under STRICT, new producers may now write the name with any value the new
fallback allows, which old consumers (still declaring it) may reject; under LENIENT
producers never write undeclared names, so removing from an open model is safe.

Example: `"bar": {"type": "number"}` was removed while `"additionalProperties":
{"type": "string"}`; old `{"bar": 1}` now fails.

Fix: keep the property (mark it `"deprecated": true`), or make the fallback accept its values.
"""
from ..model import BOTH_DIRECTIONS, Direction, Format, Severity, Side
from ..registry import RuleSpec
from . import members
from .pairs import PropertyPair

SPEC = RuleSpec(id="JSONSCHEMA_PROPERTY_REMOVED", format=Format.JSONSCHEMA, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="a removed property's data no longer fits the schema")
PAIR = PropertyPair
REJECTED = 'Property "{path}" was removed and the new schema rejects the values old data holds for "{name}".'
OPEN = 'Property "{path}" was removed; new data may hold "{name}" with a value the old schema rejects.'


def check(pair: PropertyPair, ctx):
    if pair.new_name is not None or pair.old_name is None:
        return
    name, parent = pair.old_name, pair.parent
    breaks, _declared = members.removed(ctx, parent, name)
    if not breaks:
        return
    template = REJECTED if Direction.BACKWARD in breaks else OPEN
    yield SPEC.finding(path=pair.path, line=parent.old.prop_lines.get(name, parent.old.line),
                       side=Side.OLD, message=template.format(path=pair.path, name=name), breaks=breaks)
