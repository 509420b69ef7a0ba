"""Flags a field renamed without listing its old name in the new field's `aliases`.

A rename is recognised when a field disappears and another of the same type appears (the only
such pair, or the one at the same position); it is reported once, instead of a deletion and an
addition.

Why it breaks: readers match fields by name and by their *own* aliases (writer aliases are
ignored). A new reader looks for the new name in old data, does not find it and fails, or, when
the new field has a default, silently reads the default instead of the value (reported as a
warning). Old readers look for the old name in new data and fail when the old field had no
default, so the change breaks **backward** and usually **forward** compatibility too.

Example: OLD `{"name": "userName", "type": "string"}`, NEW `{"name": "login", "type": "string"}`
-> `Field "User.userName" was renamed to "login" without an alias.`

Fix: add `"aliases": ["userName"]` to the new field (the suggestion does this). That repairs
backward compatibility; forward compatibility additionally needs the old field to have had a
default (see `AVRO_FIELD_RENAMED_WITH_ALIAS`).
"""
from ..model import BOTH_DIRECTIONS, Direction, Format, Severity
from ..registry import RuleSpec
from . import suggest
from .pairs import FieldPair

SPEC = RuleSpec(id="AVRO_FIELD_RENAMED_WITHOUT_ALIAS", format=Format.AVRO, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="A field was renamed without an alias for its old name.")
PAIR = FieldPair
MESSAGE = 'Field "{old_path}" was renamed to "{name}" without an alias.'
SILENT = ('Field "{old_path}" was renamed to "{name}" without an alias; new readers will read '
          'its default instead of the old values.')
TITLE = 'Add "{old}" to the aliases of "{name}"'


def check(pair: FieldPair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or old.name == new.name or old.name in new.aliases:
        return
    breaks = set()
    if not new.has_default:
        breaks.add(Direction.BACKWARD)
    if not old.has_default and new.name not in old.aliases:
        breaks.add(Direction.FORWARD)
    words = dict(old_path=pair.old_path, name=new.name)
    fix = _alias(new, old.name, ctx)
    if not breaks:  # both have defaults: readable, but the values are replaced by the default
        yield SPEC.finding(path=pair.path, line=new.line, message=SILENT.format(**words),
                           severity=Severity.WARNING, suggestion=fix)
        return
    yield SPEC.finding(path=pair.path, line=new.line, message=MESSAGE.format(**words),
                       breaks=frozenset(breaks), suggestion=fix)


def _alias(field, old_name: str, ctx):
    anchor = "aliases" if "aliases" in field.node else "name"
    aliases = [*field.aliases, old_name]
    return suggest.set_keys(ctx.new, field.node, anchor, {"aliases": aliases},
                            TITLE.format(old=old_name, name=field.name))
