"""Flags a record field that NEW removes although OLD declared it without a `default`.

Why it breaks: old readers still expect the field. Reading data written with the new schema they
find no value and, since their schema has no default for it, fail. New readers ignore nothing
and lose nothing, so only **forward** compatibility breaks.

Example: OLD has `{"name": "email", "type": "string"}`, NEW drops it ->
`Field "User.email" was removed, but old readers have no default for it.`

Fix: removal is a two-step change. First release a version that gives the field a default (old
readers then fill it in), and only remove it once every reader has that version; or keep the
field. No suggestion is offered: the field is gone from NEW and the remedy lives in the schema
the old readers use.
"""
from ..model import FORWARD_ONLY, Format, Severity, Side
from ..registry import RuleSpec
from .pairs import FieldPair

SPEC = RuleSpec(id="AVRO_FIELD_REMOVED_WITHOUT_DEFAULT", format=Format.AVRO, breaks=FORWARD_ONLY,
                severity=Severity.ERROR,
                summary="A field without a default was removed.")
PAIR = FieldPair
MESSAGE = 'Field "{path}" was removed, but old readers have no default for it.'


def check(pair: FieldPair, ctx):
    if pair.new is not None or pair.old is None or pair.old.has_default:
        return
    yield SPEC.finding(path=pair.path, line=pair.old.line, side=Side.OLD,
                       message=MESSAGE.format(path=pair.path))
