"""Flags a `pattern`, `format` or `multipleOf` replaced by one unrelated to it.

Why it breaks: neither constraint implies the other, so old data can fail the new schema
(BACKWARD) and new data the old one (FORWARD).

Example: `"pattern": "^[a-z]+$"` became `"pattern": "^[0-9]+$"`; `"multipleOf": 10` became 11.

A pattern that provably accepts a superset (`^a$` to `^(a|b)$`, a character class widened,
anchors dropped, `^[0-9a-zA-Z]+$` to `^.+$`) is a loosening, a subset a tightening. The proof
covers common shapes only (bounded work); when it finds neither, the change is reported here
and the message says it was not decided.

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
    for delta in deltas.constraints(pair.old, pair.new):
        if delta.change == deltas.CHANGED:
            severity, note = deltas.severity(delta, ctx.options)
            yield SPEC.finding(path=paths.keyword(pair.path, delta.keyword),
                               line=pair.new.key_line(delta.keyword), severity=severity,
                               message=MESSAGE.format(keyword=delta.keyword, path=pair.path,
                                                      old=delta.old, new=delta.new) + note)
