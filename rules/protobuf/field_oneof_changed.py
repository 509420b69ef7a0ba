"""Flags a field that moved into or out of a oneof so that exclusivity with other fields changed.

Oneof names never reach the wire; what matters is which fields exclude each other. If a field
now shares a oneof with fields it used to coexist with, old data may set several of them and the
new reader keeps only the last (breaks backward). If it left a oneof, new data may set fields that
old readers treat as exclusive (breaks forward). Renaming a oneof, or moving one field alone into
a new oneof, changes no payload and is not reported here (buf's FIELD_SAME_ONEOF reports both;
Confluent agrees they are safe): PROTO_ONEOF_RENAMED and PROTO_FIELD_ONEOF_ALONE_CHANGED report
them where generated code is protected.

Example: `string email = 2;` and `string phone = 3;` move into `oneof contact { ... }`.

Fix: leave existing fields where they are; put only new fields into a new or existing oneof.
"""
from ..model import BACKWARD_ONLY, BOTH_DIRECTIONS, FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind

SPEC = RuleSpec(id="PROTO_FIELD_ONEOF_CHANGED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="a field's oneof membership changed which fields exclude each other",
                categories=ALL)
KINDS = (Kind.FIELD,)
JOINED = 'Field "{path}" moved into oneof "{oneof}", now exclusive with {names}.'
LEFT = 'Field "{path}" moved out of oneof "{oneof}", no longer exclusive with {names}.'


def _partners(parent, field, common) -> set[int]:
    if not field.oneof:
        return set()
    return {n for n, other in parent.fields.items()
            if other.oneof == field.oneof and n != field.number and n in common}


def _names(parent, numbers) -> str:
    return " and ".join(f'"{parent.fields[n].name}"' for n in sorted(numbers))


def exclusivity_change(pair) -> tuple[set[int], set[int]]:
    """The numbers of the fields the pair's field now excludes, and those it no longer does
    (fields of both versions only: an added or deleted partner changes no old data)."""
    common = pair.old_parent.fields.keys() & pair.new_parent.fields.keys()
    before = _partners(pair.old_parent, pair.old, common)
    after = _partners(pair.new_parent, pair.new, common)
    return after - before, before - after


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or old.oneof == new.oneof:
        return
    joined, left = exclusivity_change(pair)
    if not joined and not left:
        return
    parts = []
    if joined:
        parts.append(JOINED.format(path=pair.path, oneof=new.oneof,
                                   names=_names(pair.new_parent, joined)))
    if left:
        parts.append(LEFT.format(path=pair.path, oneof=old.oneof,
                                 names=_names(pair.new_parent, left)))
    breaks = BOTH_DIRECTIONS if joined and left else BACKWARD_ONLY if joined else FORWARD_ONLY
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side, message=" ".join(parts),
                       breaks=breaks)
