"""Flags `enum`/`const` whose values were both removed and added.

Why it breaks: old data may hold a removed value (BACKWARD) and new data an added one the
old schema rejects (FORWARD).

Example: `"color": {"const": "red"}` became `"color": {"const": "blue"}`.

Fix: keep the old values alongside the new ones: `{"enum": ["red", "blue"]}`.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from . import deltas
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_ENUM_CHANGED", format=Format.JSONSCHEMA, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="`enum`/`const` values replaced")
PAIR = SchemaPair
MESSAGE = 'Allowed values of "{path}" were changed from {old} to {new}.'


def check(pair: SchemaPair, ctx):
    fewer, more = deltas.enum(pair.old, pair.new)
    if fewer and more:
        line = pair.new.key_line("enum" if "enum" in pair.new.lines else "const")
        yield SPEC.finding(path=pair.path, line=line,
                           message=MESSAGE.format(path=pair.path, old=deltas.show_enum(pair.old),
                                                  new=deltas.show_enum(pair.new)))
