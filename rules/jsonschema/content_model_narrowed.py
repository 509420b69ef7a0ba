"""Flags a content model that now rejects undeclared properties it used to accept.

Covers `additionalProperties` (and 2020-12 `unevaluatedProperties`) going from absent/`true`
to `false` or to a schema, and patternProperties removed, or added with a narrower schema or
over names an old pattern matches (`-id$` added beside `^x-` also applies to `x-id`).

Why it breaks: old data with such properties fails the new schema (BACKWARD). Under the
LENIENT policy (default) producers never write undeclared names, so closing an *open*
model is not reported; a model that declared names (a pattern or a schema) still is, and so
is an `additionalProperties` closing out a name only a `then`, `else` or dependency declares
(it does not see those names).

Example (strict): `"additionalProperties": true` became `false`.

Fix: keep the content model open, or list the extra properties old data carries.
"""
from ..model import BACKWARD_ONLY, Direction, Format, Severity
from ..registry import RuleSpec
from . import content, model_changes
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_CONTENT_MODEL_NARROWED", format=Format.JSONSCHEMA, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR, summary="undeclared properties are accepted less")
PAIR = SchemaPair
MESSAGE = '"{keyword}" of "{path}" was narrowed from {old} to {new}.'


def check(pair: SchemaPair, ctx):
    for direction, where, keyword, old, new in model_changes.changes(ctx, pair):
        if direction is Direction.BACKWARD:
            yield SPEC.finding(path=where, line=pair.new.key_line(keyword),
                               message=MESSAGE.format(keyword=keyword, path=pair.path,
                                                      old=content.describe(old), new=content.describe(new)))
