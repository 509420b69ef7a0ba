"""Flags an enum symbol that NEW added while the old enum has no `default`.

Why it breaks: new writers may write the symbol; an old reader that does not know it falls back
to its enum `default` and, without one, fails. New readers know all old symbols, so only
**forward** compatibility breaks. If the old enum had a default the addition is compatible and
is not reported.

Example: OLD `"symbols": ["ACTIVE", "ARCHIVED"]`, NEW `"symbols": ["ACTIVE", "ARCHIVED", "DELETED"]`
-> `Symbol "DELETED" was added to enum "Status".`

Fix: for forward compatibility, give the enum a `default` in a release old readers get first,
then add symbols. No suggestion: the default must already be in the readers' schema.
"""
from ..model import FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from .pairs import TypePair
from .schema import Enum

SPEC = RuleSpec(id="AVRO_ENUM_SYMBOL_ADDED", format=Format.AVRO, breaks=FORWARD_ONLY,
                severity=Severity.ERROR,
                summary="An enum symbol was added and the old enum has no default.")
PAIR = TypePair
MESSAGE = 'Symbol "{symbol}" was added to enum "{name}".'


def check(pair: TypePair, ctx):
    old, new = pair.old, pair.new
    if not (isinstance(old, Enum) and isinstance(new, Enum)) or old.default is not None:
        return
    known = set(old.symbols)
    for symbol in (s for s in new.symbols if s not in known):
        yield SPEC.finding(path=f"{pair.path}.{symbol}", line=new.node.key_line("symbols"),
                           message=MESSAGE.format(symbol=symbol, name=new.label))
