"""Flags a required field (proto2, or editions LEGACY_REQUIRED) that appeared or went away.

A parser rejects a message that lacks a required field. A field that is added as required, or
made required, rejects old data written without it (breaks backward). A required field that is
deleted or made optional lets new writers omit it, which old readers reject (breaks forward).
(buf: MESSAGE_SAME_REQUIRED_FIELDS; Confluent: REQUIRED_FIELD_ADDED, REQUIRED_FIELD_REMOVED.)

Example: `optional string sku = 4;` becomes `required string sku = 4;`.

Fix: new fields are `optional`; keep existing required fields required.
"""
from ..model import BACKWARD_ONLY, BOTH_DIRECTIONS, FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind
from .schema import Cardinality
from .suggest import swap_on_line

SPEC = RuleSpec(id="PROTO_REQUIRED_FIELD_CHANGED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="a required field was added, removed, or a field's required-ness changed",
                categories=ALL)
KINDS = (Kind.FIELD,)
ADDED = 'Field "{path}" was added as required.'
MADE = 'Field "{path}" became required.'
DELETED = 'Required field "{path}" was deleted.'
UNMADE = 'Field "{path}" is no longer required.'
OPTIONAL_TITLE = 'Declare "{name}" optional'
REQUIRED_TITLE = 'Keep "{name}" required'


def _required(field) -> bool:
    return field is not None and field.cardinality is Cardinality.REQUIRED


def check(pair, ctx):
    old, new = pair.old, pair.new
    if _required(old) == _required(new):
        return
    line, side = pair.where()
    fix = None
    if _required(new):
        text, breaks = (ADDED if old is None else MADE), BACKWARD_ONLY
        if not pair.imported:
            fix = swap_on_line(ctx.new, new, r"\brequired\b", "optional",
                               OPTIONAL_TITLE.format(name=new.name))
    else:
        text, breaks = (DELETED if new is None else UNMADE), FORWARD_ONLY
        if new is not None and not pair.imported:
            fix = swap_on_line(ctx.new, new, r"^optional\b", "required",
                               REQUIRED_TITLE.format(name=new.name))
    yield SPEC.finding(path=pair.path, line=line, side=side, message=text.format(path=pair.path),
                       breaks=breaks, suggestion=fix)
