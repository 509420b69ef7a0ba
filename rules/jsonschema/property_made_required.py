"""Flags an existing optional property that was added to `required`.

Why it breaks: old data may omit the property (it was optional), and such data fails the new
schema (BACKWARD).

Example: `"email"` was declared in both versions but only the new one has
`"required": ["email"]`.

Inside a `oneOf` alternative it counts only when an old document without the property could
match that alternative alone: when another alternative accepts every such document, the old
schema already rejected them (they matched two).

Under the strict policy (Confluent's classification) a property made required with a
`default` is not reported here: the registry accepts it, and JSONSCHEMA_REQUIRED_DEFAULT_NOT_APPLIED
warns that old data without it still fails.

Fix: keep it optional; enforce presence in producers instead, and make it required only once
no old data without it remains.
"""
from ..model import BACKWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import old_data, required
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_PROPERTY_MADE_REQUIRED", format=Format.JSONSCHEMA, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR, summary="an optional property became required")
PAIR = SchemaPair
MESSAGE = 'Optional property "{path}" was added to "required".'


def check(pair: SchemaPair, ctx):
    for name in required.newly_required(pair.old, pair.new):
        if name not in pair.old.props or old_data.rejected_elsewhere(ctx, pair.old, pair.siblings, name):
            continue
        if ctx.strict and required.with_default(ctx, pair.new, name):
            continue  # Confluent accepts it; JSONSCHEMA_REQUIRED_DEFAULT_NOT_APPLIED says what breaks
        path = required.path(pair.path, name)
        yield SPEC.finding(path=path, line=required.line(ctx, pair.new, name),
                           message=MESSAGE.format(path=path), suggestion=required.drop(ctx, pair.new, name))
