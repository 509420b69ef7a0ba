"""Flags a content model that now accepts undeclared properties it used to reject.

Covers `additionalProperties` (and `unevaluatedProperties`) going from `false` or a schema to
absent/`true` or a wider schema, and patternProperties added or removed.

Why it breaks: new data may carry properties the old schema rejects, so consumers still on the
old schema fail (FORWARD). Under LENIENT (default), opening a model is not reported:
producers never write undeclared names.

Example (strict): `"additionalProperties": false` was removed.

Fix: none for backward compatibility; for forward or full, declare new properties explicitly.
"""
from ..model import FORWARD_ONLY, Direction, Format, Severity
from ..registry import RuleSpec
from . import content, model_changes
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_CONTENT_MODEL_WIDENED", format=Format.JSONSCHEMA, breaks=FORWARD_ONLY,
                severity=Severity.ERROR, summary="undeclared properties are accepted more")
PAIR = SchemaPair
MESSAGE = '"{keyword}" of "{path}" was widened from {old} to {new}.'


def check(pair: SchemaPair, ctx):
    for change in model_changes.changes(ctx, pair):
        if change.direction is Direction.FORWARD:
            yield SPEC.finding(path=change.where, line=pair.new.key_line(change.keyword),
                               message=MESSAGE.format(keyword=change.keyword, path=pair.path,
                                                      old=content.describe(change.old),
                                                      new=content.describe(change.new)))
