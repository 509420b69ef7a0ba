"""Flags a `pattern`, `format` or `multipleOf` replaced by one unrelated to it.

Why it breaks: neither constraint implies the other, so old data can fail the new schema
(BACKWARD) and new data the old one (FORWARD).

Example: `"pattern": "^[a-z]+$"` became `"pattern": "^[0-9]+$"`; `"multipleOf": 10` became 11.

Patterns are compared as languages, by automata over the syntax schemas use (classes,
alternation, repeats, anchors, lookaheads after a leading `^`; bounded work): a superset
(`^a$` to `^(a|b)$`, `^(?!.*(local|meta)).*$` to `^(?!(?:meta|local)$).*$`) is a loosening, a
subset a tightening. A pattern change is an error only with a string in hand that the old
pattern accepts and the new one rejects (or the reverse, for forward), checked with the
ECMA-262 engine and quoted in the message; when none is found and neither side is shown to
contain the other, the change is reported here as a warning that says it was not decided.

Fix: keep the old constraint; if both must hold for a while, state both (e.g. in `allOf`).
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from . import deltas, paths
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_CONSTRAINT_CHANGED", format=Format.JSONSCHEMA, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="a pattern, format or multipleOf was replaced")
PAIR = SchemaPair
MESSAGE = '"{keyword}" of "{path}" was changed from {old} to {new}.'


def check(pair: SchemaPair, ctx):
    for delta in deltas.of(ctx, pair.old, pair.new):
        if delta.change == deltas.CHANGED:
            severity, note = deltas.severity(delta, ctx.options)
            yield SPEC.finding(path=paths.keyword(pair.path, delta.keyword),
                               line=pair.new.key_line(delta.keyword), severity=severity,
                               message=MESSAGE.format(keyword=delta.keyword, path=pair.path,
                                                      old=delta.old, new=delta.new) + note)
