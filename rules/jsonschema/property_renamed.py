"""Flags a property removed and another added with the same schema: a rename.

Plain JSON has no aliases, so a rename is a removal plus an addition: consumers of the old
name stop seeing the value, and the directions in which it breaks are those of the removal
and of the addition (see JSONSCHEMA_PROPERTY_REMOVED and _ADDED). When neither breaks
validation (e.g. an open content model under LENIENT) it is still reported as a warning,
because readers of the old name silently lose the data.

Example: `"userName": {"type": "string"}` became `"username": {"type": "string"}`.

Fix: double-write. Keep the old property, marked `"deprecated": true`, next to the new
optional one; producers write both until every consumer reads the new name, then remove the
old one.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from . import members, paths, suggest
from .pairs import PropertyPair

SPEC = RuleSpec(id="JSONSCHEMA_PROPERTY_RENAMED", format=Format.JSONSCHEMA, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="a property was renamed (removed and re-added under a new name)")
PAIR = PropertyPair
MESSAGE = 'Property "{old}" was renamed to "{new}".'
TITLE = 'Keep "{old}" (marked deprecated) next to "{new}" and write both'


def check(pair: PropertyPair, ctx):
    if pair.old_name is None or pair.new_name is None:
        return
    parent = pair.parent
    removed, _ = members.removed(ctx, parent, pair.old_name)
    added, _ = members.added(ctx, parent, pair.new_name)
    breaks = removed | added
    old_path = paths.prop(parent.path, pair.old_name)
    yield SPEC.finding(path=pair.path, line=parent.new.prop_lines.get(pair.new_name, parent.new.line),
                       message=MESSAGE.format(old=old_path, new=pair.path), breaks=breaks,
                       severity=None if breaks else Severity.WARNING,
                       suggestion=_double_write(pair, ctx))


def _double_write(pair: PropertyPair, ctx):
    old_schema = pair.parent.old.props[pair.old_name]
    holder = pair.parent.new.holders.get("properties")
    schema = suggest.deprecated(old_schema[0]) if len(old_schema) == 1 else None
    if holder is None or schema is None:
        return None
    return suggest.insert_property(ctx.new.lines, holder["properties"], pair.new_name, pair.old_name,
                                   schema, TITLE.format(old=pair.old_name, new=pair.new_name))
