"""Flags `enum`/`const` that now allows fewer values (or was added).

Why it breaks: old data may hold a value the new schema no longer lists, so it fails
validation with the new schema (BACKWARD).

Example: `"color": {"enum": ["red", "blue"]}` became `"color": {"enum": ["red"]}`.

Fix: keep every value old data may hold; deprecate a value in its description instead.
"""
from ..model import BACKWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import deltas
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_ENUM_NARROWED", format=Format.JSONSCHEMA, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR, summary="`enum`/`const` allows fewer values")
PAIR = SchemaPair
MESSAGE = 'Allowed values of "{path}" were narrowed from {old} to {new}.'


def check(pair: SchemaPair, ctx):
    fewer, more = deltas.enum(pair.old, pair.new)
    if fewer and not more and not pair.new.empty:
        line = pair.new.key_line("enum" if "enum" in pair.new.lines else "const")
        yield SPEC.finding(path=pair.path, line=line,
                           message=MESSAGE.format(path=pair.path, old=deltas.show_enum(pair.old),
                                                  new=deltas.show_enum(pair.new)))
