"""Flags a newly required property whose only protection is a `default`.

Advisory (a warning in every mode): JSON Schema validators do not insert defaults, so
`"default"` does not make old data that lacks the property valid. The `required` change
itself is reported by JSONSCHEMA_REQUIRED_PROPERTY_ADDED or _MADE_REQUIRED.

Example: `"level": {"type": "integer", "default": 0}` with `"required": ["level"]`.

Fix: leave the property optional and let consumers apply the default when it is missing.
"""
from ..model import ADVISORY, Format, Severity
from ..registry import RuleSpec
from . import required
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_REQUIRED_DEFAULT_NOT_APPLIED", format=Format.JSONSCHEMA, breaks=ADVISORY,
                severity=Severity.WARNING, summary="a newly required property relies on `default`")
PAIR = SchemaPair
MESSAGE = ('Property "{path}" was made required with a "default"; validators do not apply '
           'defaults, so old data without it still fails.')


def check(pair: SchemaPair, ctx):
    for name in required.newly_required(pair.old, pair.new):
        schemas = [ctx.new.refs.resolve(s) for s in pair.new.props.get(name, ())]
        if any(isinstance(s, dict) and "default" in s for s in schemas):
            path = required.path(pair.path, name)
            yield SPEC.finding(path=path, line=pair.new.prop_lines.get(name, pair.new.line),
                               message=MESSAGE.format(path=path))
