"""Flags `enum`/`const` that now allows more values (or was removed).

Why it breaks: new data may hold a value the old schema does not list, so consumers still on
the old schema reject it (FORWARD). Backward compatible.

Example: `"color": {"enum": ["red"]}` became `"color": {"enum": ["red", "blue"]}`.

Fix: none for backward compatibility; for forward or full, upgrade consumers first.
"""
from ..model import FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import deltas
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_ENUM_WIDENED", format=Format.JSONSCHEMA, breaks=FORWARD_ONLY,
                severity=Severity.ERROR, summary="`enum`/`const` allows more values")
PAIR = SchemaPair
MESSAGE = 'Allowed values of "{path}" were widened from {old} to {new}.'


def check(pair: SchemaPair, ctx):
    fewer, more = deltas.enum(pair.old, pair.new)
    if more and not fewer and not pair.old.empty:
        line = pair.new.key_line("enum" if "enum" in pair.new.lines else "const")
        yield SPEC.finding(path=pair.path, line=line,
                           message=MESSAGE.format(path=pair.path, old=deltas.show_enum(pair.old),
                                                  new=deltas.show_enum(pair.new)))
