"""Flags a content model that now rejects undeclared properties it used to accept.

Covers `additionalProperties` (and 2020-12 `unevaluatedProperties`) going from absent/`true`
to `false` or to a schema, and patternProperties removed, or added with a narrower schema or
over names an old pattern matches (`-id$` added beside `^x-` also applies to `x-id`).

Why it breaks: old data with such properties fails the new schema (BACKWARD). Under the
LENIENT policy (default) producers never write undeclared names, so closing an *open*
model is not reported; a model that declared names (a pattern or a schema) still is. Either
policy reports an `additionalProperties` or an added pattern closing out a name the old object
requires without declaring it in `properties` (every old document holds it), or one only a
`then`, `else` or dependency declares (`additionalProperties` does not see those names;
`unevaluatedProperties` does). An `unevaluatedProperties` closing out such a required name is
reported where nothing else could evaluate the name (no `if`, branch, dependency or pattern).

Example (strict): `"additionalProperties": true` became `false`.

Fix: keep the content model open, or list the extra properties old data carries.
"""
import json

from ..model import BACKWARD_ONLY, Direction, Format, Severity
from ..registry import RuleSpec
from . import content, model_changes
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_CONTENT_MODEL_NARROWED", format=Format.JSONSCHEMA, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR, summary="undeclared properties are accepted less")
PAIR = SchemaPair
MESSAGE = '"{keyword}" of "{path}" was narrowed from {old} to {new}.'
OVERLAP = ('"patternProperties" of "{path}" gained {pattern}, which also applies to names an old '
           'pattern matches ({name}): the values old data holds there may fail it.')
CONDITIONAL = ('"{keyword}" of "{path}" now rejects {name}, which old data holds where a `then`, `else` '
               'or dependency declares it (additionalProperties does not see the names those declare).')
REQUIRED = '"{keyword}" of "{path}" now rejects {name}, which the old schema requires: every old document holds it.'


def check(pair: SchemaPair, ctx):
    for change in model_changes.changes(ctx, pair):
        if change.direction is Direction.BACKWARD:
            message = MESSAGE.format(keyword=change.keyword, path=pair.path, old=content.describe(change.old),
                                     new=content.describe(change.new))
            if change.name is not None:  # JSON text: a pattern or a name may hold any character
                name, pattern = json.dumps(change.name), json.dumps(change.added)
                template = OVERLAP if change.added else REQUIRED if change.required else CONDITIONAL
                message = template.format(keyword=change.keyword, path=pair.path, pattern=pattern, name=name)
            yield SPEC.finding(path=change.where, line=pair.new.key_line(change.keyword), message=message)
