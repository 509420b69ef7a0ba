"""Flags a field whose default value changed (proto2 and editions `[default = ...]`).

A reader substitutes its own default for an absent field. If the defaults differ, the same
bytes mean different values to old and new readers, in both directions (buf:
FIELD_SAME_DEFAULT). Adding an explicit default equal to the type's zero value changes nothing.
An enum field without one defaults to its enum's first value: reordering a closed enum's values
changes it too.

Example: `optional int32 retries = 2 [default = 3];` becomes `[default = 5]`.

Fix: keep the default; if the meaning must change, add a new field.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind

SPEC = RuleSpec(id="PROTO_FIELD_DEFAULT_CHANGED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="a field's default value changed",
                categories=ALL)
KINDS = (Kind.FIELD,)
MESSAGE = 'Field "{path}" changed its default value from {old} to {new}.'
ZERO = {"bool": "false", "string": '""', "bytes": '""'}
FLOATS = ("float", "double")


def _default(field, types) -> tuple[str, object]:
    """(shown text, comparable value) of the value a reader assumes when the field is absent."""
    if field.kind == "enum":
        enum = types.get(field.ref_full)
        name = field.default or (enum.values[0].name if enum and enum.values else "")
        value = enum.by_name.get(name) if enum else None
        return name, value.number if value else name
    if field.default is None:
        return ZERO.get(field.kind, "0"), ZERO.get(field.kind, 0.0 if field.kind in FLOATS else 0)
    if field.kind in ("string", "bytes"):
        return f'"{field.default}"', f'"{field.default}"'
    if field.kind == "bool":
        return field.default, field.default
    try:
        return field.default, float(field.default) if field.kind in FLOATS else int(field.default)
    except ValueError:
        return field.default, field.default


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or old.kind != new.kind or old.kind in ("message", "group"):
        return
    # Without [default] a scalar's default is its zero on both sides; an enum's is its first
    # value, which a closed (proto2) enum may reorder (LOW, HIGH -> HIGH, LOW).
    if old.cardinality.value == "repeated" or (old.default is None and new.default is None
                                               and old.kind != "enum"):
        return
    (old_text, old_value), (new_text, new_value) = (_default(old, ctx.old.types),
                                                    _default(new, ctx.new.types))
    if old_value == new_value or (old_value != old_value and new_value != new_value):
        return  # equal, or both NaN
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(path=pair.path, old=old_text, new=new_text))
