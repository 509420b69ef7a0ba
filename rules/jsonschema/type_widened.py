"""Flags a schema whose `type` now admits more kinds of value.

Why it breaks: data written with the new schema may hold a value of a type the old schema
rejects, so a consumer still on the old schema fails on new data (FORWARD). Backward
compatible: in `backward` mode this is reported as info.

Example: `"id": {"type": "integer"}` became `"id": {"type": ["integer", "string"]}`;
`{"id": "a1"}` is new data the old schema rejects.

Fix: none needed for backward compatibility; for forward or full compatibility upgrade all
consumers before producers start writing the new type.
"""
from ..model import FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import deltas, values
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_TYPE_WIDENED", format=Format.JSONSCHEMA, breaks=FORWARD_ONLY,
                severity=Severity.ERROR, summary="`type` admits more kinds of value")
PAIR = SchemaPair
MESSAGE = 'Type of "{path}" was widened from {old} to {new}.'


def check(pair: SchemaPair, ctx):
    removed, added = deltas.types(pair.old, pair.new)
    if added and not removed:
        yield SPEC.finding(path=pair.path, line=pair.new.key_line("type"),
                           message=MESSAGE.format(path=pair.path, old=values.show(pair.old.types),
                                                  new=deltas.show_types(pair.new)))
