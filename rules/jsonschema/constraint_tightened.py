"""Flags a validation keyword that now rejects values it used to accept.

Covers `minLength`, `maxLength`, `pattern`, `format`, `minimum`, `maximum`,
`exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `minItems`, `maxItems`, `uniqueItems`,
`contains`, `minContains`, `maxContains`, `minProperties`, `maxProperties` and `not`: a bound
raised or lowered towards the middle, or a keyword added.

Why it breaks: old data may violate the tighter constraint, so it fails validation with the
new schema (BACKWARD).

Example: `"name": {"type": "string", "maxLength": 12}` became `"maxLength": 10`; a 12-character
name written before no longer validates.

Fix: keep the old bound, or clean up existing data before tightening it.
"""
from ..model import BACKWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import deltas, paths
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_CONSTRAINT_TIGHTENED", format=Format.JSONSCHEMA, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR, summary="a validation bound or keyword became stricter")
PAIR = SchemaPair
MESSAGE = '"{keyword}" of "{path}" was tightened from {old} to {new}.'


def check(pair: SchemaPair, ctx):
    for delta in deltas.of(ctx, pair.old, pair.new):
        if delta.change == deltas.TIGHTENED:
            severity, note = deltas.severity(delta, ctx.options)
            yield SPEC.finding(path=paths.keyword(pair.path, delta.keyword),
                               line=pair.new.key_line(delta.keyword), severity=severity,
                               message=MESSAGE.format(keyword=delta.keyword, path=pair.path,
                                                      old=delta.old, new=delta.new) + note)
