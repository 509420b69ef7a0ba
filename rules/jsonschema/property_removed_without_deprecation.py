"""Flags a property deleted without first being marked `"deprecated": true`.

Advisory (a warning in every mode): removing a property is the end of its lifecycle, and
consumers need a release in which the property is still there but marked deprecated to
stop reading it. Compatibility itself is judged by JSONSCHEMA_PROPERTY_REMOVED.

Example: `"fax": {"type": "string"}` disappeared in one step.

Fix: restore it with `"deprecated": true` for at least one release, then remove it.
"""
from ..model import ADVISORY, Format, Severity, Side
from ..registry import RuleSpec
from . import suggest
from .pairs import PropertyPair

SPEC = RuleSpec(id="JSONSCHEMA_PROPERTY_REMOVED_WITHOUT_DEPRECATION", format=Format.JSONSCHEMA,
                breaks=ADVISORY, severity=Severity.WARNING,
                summary="a property was deleted without being deprecated first")
PAIR = PropertyPair
MESSAGE = 'Property "{path}" was removed without first being marked "deprecated": true.'
TITLE = 'Keep "{name}" for now, marked "deprecated": true'


def check(pair: PropertyPair, ctx):
    if pair.new_name is not None or pair.old_name is None:
        return
    parent, name = pair.parent, pair.old_name
    schemas = parent.old.props[name]
    resolved = [ctx.old.refs.resolve(s) for s in schemas]
    if schemas == (False,) or any(isinstance(s, dict) and s.get("deprecated") is True for s in resolved):
        return
    yield SPEC.finding(path=pair.path, line=parent.old.prop_lines.get(name, parent.old.line),
                       side=Side.OLD, message=MESSAGE.format(path=pair.path),
                       suggestion=_restore(parent, name, schemas, ctx))


def _restore(parent, name, schemas, ctx):
    holder = parent.new.holders.get("properties")
    schema = suggest.deprecated(schemas[0]) if len(schemas) == 1 else None
    if holder is None or schema is None or not holder["properties"]:
        return None
    first = next(iter(holder["properties"]))
    return suggest.insert_property(ctx.new.lines, holder["properties"], first, name, schema,
                                   TITLE.format(name=name))
