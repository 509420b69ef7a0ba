"""Flags a property added where old or new data could disagree with it.

Backward (new schema reads old data): under the STRICT policy (Confluent's default) an
*open* content model (no `additionalProperties`, or `true`) lets old producers write any
name with any value, so a new property is only safe if its schema accepts anything. Under
LENIENT (the default here) producers are assumed never to write undeclared names, so only a
name the old schema declared through `required` (every old document holds it),
`patternProperties`, an `additionalProperties` schema or a `then`, `else` or dependency (old
data holds it where that applies) can clash. Forward (old schema reads new data): a *closed* old model (`additionalProperties:
false`) or one whose fallback schema rejects the new property's values breaks old consumers.

Example (strict): `{"properties": {"foo": ...}}` gained `"bar": {"type": "number"}`; an old
record `{"bar": "x"}` was valid and now fails.

Fix: give the new property a schema that accepts what the old fallback allowed, or use the
LENIENT policy if your producers never write undeclared properties.
"""
from ..model import BOTH_DIRECTIONS, Direction, Format, Severity
from ..registry import RuleSpec
from . import members
from .pairs import PropertyPair

SPEC = RuleSpec(id="JSONSCHEMA_PROPERTY_ADDED", format=Format.JSONSCHEMA, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="a new property clashes with what the old content model allowed")
PAIR = PropertyPair
OPEN = 'Property "{path}" was added to an open content model; old data may already hold "{name}" with another value.'
DECLARED = 'Property "{path}" was added with a schema that rejects values the old schema allowed for "{name}".'
CLOSED = 'Property "{path}" was added; the old schema does not accept it.'


def check(pair: PropertyPair, ctx):
    if pair.old_name is not None or pair.new_name is None:
        return
    name, parent = pair.new_name, pair.parent
    breaks, declared = members.added(ctx, parent, name)
    if not breaks:
        return
    template = (DECLARED if declared else OPEN) if Direction.BACKWARD in breaks else CLOSED
    yield SPEC.finding(path=pair.path, line=parent.new.prop_lines.get(name, parent.new.line),
                       message=template.format(path=pair.path, name=name), breaks=breaks)
