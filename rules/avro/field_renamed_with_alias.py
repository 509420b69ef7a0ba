"""Flags a field renamed with its old name in the new field's `aliases`.

Why it matters: the alias lets new readers find the old field, so **backward** compatibility
holds. Aliases are a reader-side feature: old readers do not know the new name and look for the
old one in new data. If the old field had no default they fail, so the rename breaks **forward**
compatibility (an error in forward and full modes); if it had one, they silently read that
default (info).

Example: OLD `{"name": "userName", "type": "string"}`, NEW
`{"name": "login", "type": "string", "aliases": ["userName"]}` ->
`Field "User.userName" was renamed to "login" with an alias; old readers cannot find it.`

Fix: for forward compatibility, first give the old field a default and let readers upgrade, then
rename. No suggestion: the remedy is in the schema old readers use.
"""
from ..model import FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from .pairs import FieldPair

SPEC = RuleSpec(id="AVRO_FIELD_RENAMED_WITH_ALIAS", format=Format.AVRO, breaks=FORWARD_ONLY,
                severity=Severity.ERROR,
                summary="A field was renamed with an alias (old readers miss it).")
PAIR = FieldPair
MESSAGE = 'Field "{old_path}" was renamed to "{name}" with an alias; old readers cannot find it.'
DEFAULTED = ('Field "{old_path}" was renamed to "{name}" with an alias; old readers will read '
             'its default.')


def check(pair: FieldPair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or old.name == new.name or old.name not in new.aliases:
        return
    if new.name in old.aliases:
        return  # each side names the other: readers of both versions resolve the field
    words = dict(old_path=pair.old_path, name=new.name)
    if old.has_default:
        yield SPEC.finding(path=pair.path, line=new.line, message=DEFAULTED.format(**words),
                           severity=Severity.INFO)
        return
    yield SPEC.finding(path=pair.path, line=new.line, message=MESSAGE.format(**words))
