"""Flags a property that is new in this version and listed in `required`.

Why it breaks: data written with the old schema never has the property, so it fails the new
schema's `required` check (BACKWARD). A `default` does not help: validators do not fill in
defaults.

Example: `"userLevel": {"type": "integer"}` was added together with `"required": ["userLevel"]`.

Fix: add the property as optional (leave it out of `required`); make it required only once
no old data remains.
"""
from ..model import BACKWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import required
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_REQUIRED_PROPERTY_ADDED", format=Format.JSONSCHEMA, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR, summary="a new property is required")
PAIR = SchemaPair
MESSAGE = 'Property "{path}" was added to "required".'


def check(pair: SchemaPair, ctx):
    for name in required.newly_required(pair.old, pair.new):
        if name in pair.old.props:
            continue  # an existing property made required: JSONSCHEMA_PROPERTY_MADE_REQUIRED
        path = required.path(pair.path, name)
        yield SPEC.finding(path=path, line=required.line(ctx, pair.new, name),
                           message=MESSAGE.format(path=path), suggestion=required.drop(ctx, pair.new, name))
