"""Flags a newly required property whose only protection is a `default`.

Advisory (a warning in every mode): JSON Schema validators do not insert defaults, so
`"default"` does not make old data that lacks the property valid. The `required` change
itself is reported by JSONSCHEMA_REQUIRED_PROPERTY_ADDED or _MADE_REQUIRED.

Example: `"level": {"type": "integer", "default": 0}` with `"required": ["level"]`.

Under the strict policy, which follows Confluent's classification, an existing property made
required with a `default` is compatible (the registry accepts it): this warning is then the only
finding, and it says where Confluent and the semantics disagree.

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
# Where the strict policy (Confluent's classification) and the semantics part ways.
CONFLUENT = (" Confluent's registry accepts this change (REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED), so the"
             " strict policy does not block it.")


def check(pair: SchemaPair, ctx):
    for name in required.newly_required(pair.old, pair.new):
        if required.with_default(ctx, pair.new, name):
            path = required.path(pair.path, name)
            yield SPEC.finding(path=path, line=pair.new.prop_lines.get(name, pair.new.line),
                               message=MESSAGE.format(path=path) + (CONFLUENT if ctx.strict else ""))
