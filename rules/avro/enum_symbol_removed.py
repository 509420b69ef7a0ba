"""Flags an enum symbol that NEW removed while the new enum has no `default`.

Why it breaks: data written with the old schema may hold the symbol; a new reader that does not
know it falls back to the enum's `default` and, without one, fails ("MISSING_ENUM_SYMBOLS").
Field defaults do not help here. Old readers know every remaining symbol, so only **backward**
compatibility breaks. With an enum default the removal is compatible (the symbol reads as the
default) and is not reported.

Example: OLD `"symbols": ["ACTIVE", "ARCHIVED", "UNKNOWN"]`, NEW `"symbols": ["ACTIVE", "UNKNOWN"]`
-> `Symbol "ARCHIVED" was removed from enum "Status".`

Fix: keep the symbol, or give the enum a `default`. The suggestion adds one only when the enum
has an obvious fallback symbol (UNKNOWN, UNSPECIFIED, UNDEFINED, OTHER or DEFAULT) and its
`"symbols"` list sits on a line of its own; choosing any other default is a decision about the
data that a reviewer must make.
"""
from ..model import BACKWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import suggest
from .pairs import TypePair
from .schema import Enum

SPEC = RuleSpec(id="AVRO_ENUM_SYMBOL_REMOVED", format=Format.AVRO, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR,
                summary="An enum symbol was removed and the enum has no default.")
PAIR = TypePair
MESSAGE = 'Symbol "{symbol}" was removed from enum "{name}".'
TITLE = 'Add "default": "{symbol}" to enum "{name}"'
FALLBACKS = ("UNKNOWN", "UNSPECIFIED", "UNDEFINED", "OTHER", "DEFAULT")


def check(pair: TypePair, ctx):
    old, new = pair.old, pair.new
    if not (isinstance(old, Enum) and isinstance(new, Enum)) or new.default is not None:
        return
    remaining = set(new.symbols)
    for symbol in (s for s in old.symbols if s not in remaining):
        yield SPEC.finding(path=f"{pair.path}.{symbol}", line=new.node.key_line("symbols"),
                           message=MESSAGE.format(symbol=symbol, name=new.label),
                           suggestion=_default(new, ctx))


def _default(enum: Enum, ctx):
    upper = {s.upper(): s for s in enum.symbols}
    fallback = next((upper[name] for name in FALLBACKS if name in upper), None)
    if fallback is None:
        return None
    return suggest.set_keys(ctx.new, enum.node, "symbols", {"default": fallback},
                            TITLE.format(symbol=fallback, name=enum.label))
