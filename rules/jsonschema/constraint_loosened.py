"""Flags a validation keyword that now accepts values it used to reject.

The keywords of JSONSCHEMA_CONSTRAINT_TIGHTENED, relaxed or removed.

Why it breaks: new data may violate the old constraint, so consumers still on the old schema
reject it (FORWARD). Backward compatible: reported as info in `backward` mode, as an error in
`forward` and `full`.

Example: `"maxLength": 10` became `"maxLength": 12`.

Fix: none for backward compatibility; for forward or full, upgrade consumers first.
"""
from ..model import FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import deltas, paths
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_CONSTRAINT_LOOSENED", format=Format.JSONSCHEMA, breaks=FORWARD_ONLY,
                severity=Severity.ERROR, summary="a validation bound or keyword became looser")
PAIR = SchemaPair
MESSAGE = '"{keyword}" of "{path}" was loosened from {old} to {new}.'


def check(pair: SchemaPair, ctx):
    for delta in deltas.of(ctx, pair.old, pair.new):
        if delta.change == deltas.LOOSENED:
            severity, note = deltas.severity(delta, ctx.options)
            yield SPEC.finding(path=paths.keyword(pair.path, delta.keyword),
                               line=pair.new.key_line(delta.keyword), severity=severity,
                               message=MESSAGE.format(keyword=delta.keyword, path=pair.path,
                                                      old=delta.old, new=delta.new) + note)
