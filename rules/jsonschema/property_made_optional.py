"""Flags a property removed from `required`.

Why it breaks: new data may omit the property, and consumers still on the old schema, which
requires it, reject such data (FORWARD). Backward compatible.

Example: `"required": ["id", "email"]` became `"required": ["id"]`.

Fix: none for backward compatibility; for forward or full, keep writing the property until
every consumer runs the new schema.
"""
from ..model import FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import required
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_PROPERTY_MADE_OPTIONAL", format=Format.JSONSCHEMA, breaks=FORWARD_ONLY,
                severity=Severity.ERROR, summary="a property was removed from `required`")
PAIR = SchemaPair
MESSAGE = 'Property "{path}" was removed from "required".'


def check(pair: SchemaPair, ctx):
    for name in required.no_longer_required(pair.old, pair.new):
        path = required.path(pair.path, name)
        yield SPEC.finding(path=path, line=pair.new.prop_lines.get(name, pair.new.key_line("required")),
                           message=MESSAGE.format(path=path))
