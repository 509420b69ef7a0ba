"""Flags a schema whose `type` now admits fewer kinds of value.

Why it breaks: data written with the old schema may hold a value of a type the new schema
rejects, so a consumer validating with the new schema fails on old data (BACKWARD).
`integer` is a subset of `number`, so `number` -> `integer` is a narrowing.

Example: `"age": {"type": "number"}` became `"age": {"type": "integer"}`; `{"age": 1.5}`
no longer validates.

Fix: keep the old type (widening is backward compatible), or add a new property with the
narrower type and migrate readers to it.
"""
from ..model import BACKWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import deltas, values
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_TYPE_NARROWED", format=Format.JSONSCHEMA, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR, summary="`type` admits fewer kinds of value")
PAIR = SchemaPair
MESSAGE = 'Type of "{path}" was narrowed from {old} to {new}.'
# Nothing valid is rarely a `type` edit: say where such a rejection can come from.
NOTHING = (' No value is valid there now: look for a `false` schema, keywords that contradict each'
           ' other, or (for a property) an `additionalProperties`, `unevaluatedProperties` or'
           ' `patternProperties` that applies to its name; one in an allOf, $ref or dependent schema'
           ' does not see the properties declared beside it.')
NAMES = "/propertyNames"  # the path of a `propertyNames` schema ends so


def check(pair: SchemaPair, ctx):
    removed, added = deltas.types(pair.old, pair.new)
    if pair.path.endswith(NAMES) and pair.new.has("string"):
        return  # a property name is a string: the other types never applied to one
    if removed and not added:
        yield SPEC.finding(path=pair.path, line=pair.new.key_line("type"),
                           message=MESSAGE.format(path=pair.path, old=deltas.show_types(pair.old),
                                                  new=values.show(pair.new.types))
                           + (NOTHING if pair.new.empty else ""))
