"""Flags a record, enum or fixed type renamed with its old name in the new type's `aliases`.

Why it matters: the alias lets new readers resolve old data, so **backward** compatibility holds.
Old readers do not know the new name ("NAME_MISMATCH"), so **forward** compatibility breaks
unless the old type already listed the new name as an alias (then nothing is reported).

Example: OLD `{"type": "record", "name": "Customer", ...}`, NEW `{"type": "record", "name":
"Client", "aliases": ["Customer"], ...}` -> `Type "Customer" was renamed to "Client"; old readers
do not know the new name.`

Fix: for forward compatibility, ship the alias the other way first (old schema gets
`"aliases": ["Client"]`), or keep the name.
"""
from ..model import FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from .pairs import TypePair
from .resolution import names_match
from .schema import Named

SPEC = RuleSpec(id="AVRO_NAMED_TYPE_RENAMED_WITH_ALIAS", format=Format.AVRO, breaks=FORWARD_ONLY,
                severity=Severity.ERROR,
                summary="A named type was renamed with an alias (old readers miss it).")
PAIR = TypePair
MESSAGE = 'Type "{old}" was renamed to "{new}"; old readers do not know the new name.'


def check(pair: TypePair, ctx):
    old, new = pair.old, pair.new
    if not (isinstance(old, Named) and isinstance(new, Named)) or old.kind != new.kind:
        return
    if old.name == new.name or not names_match(new, old) or names_match(old, new):
        return
    yield SPEC.finding(path=pair.path, line=pair.line,
                       message=MESSAGE.format(old=old.fullname, new=new.fullname))
