"""Flags a new `required` entry that names a property the schema does not declare.

Advisory (a warning in every mode): usually a typo or a property removed from `properties`
but not from `required`. With `additionalProperties: false` no object can satisfy it at all.

Example: `"properties": {"foo": ...}, "required": ["fooo"]`.

Fix: declare the property under `properties`, or correct the name in `required`.
"""
from ..model import ADVISORY, Format, Severity
from ..registry import RuleSpec
from . import content, required
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_REQUIRED_UNDECLARED", format=Format.JSONSCHEMA, breaks=ADVISORY,
                severity=Severity.WARNING, summary="`required` names an undeclared property")
PAIR = SchemaPair
MESSAGE = 'Property "{path}" was added to "required" but is not declared in "properties".'


def check(pair: SchemaPair, ctx):
    for name in required.newly_required(pair.old, pair.new):
        if name in pair.new.props or content.pattern_match(pair.new, name):
            continue  # declared, or matched by patternProperties
        path = required.path(pair.path, name)
        yield SPEC.finding(path=path, line=required.line(ctx, pair.new, name), message=MESSAGE.format(path=path))
