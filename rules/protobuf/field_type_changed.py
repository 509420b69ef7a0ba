"""Flags a field changed between the signed and unsigned integer of one width (WIRE_JSON).

int32 and uint32, int64 and uint64, fixed32 and sfixed32, fixed64 and sfixed64 share their
bytes and their JSON syntax, but not their range. The binary form still decodes: a value only
one type holds is cast, so old data's int32 -1 reads as uint32 4294967295 (protobuf's documented
cast, silently another number). JSON refuses it: a uint32 parser rejects old JSON `{"a": -1}`
("Value out of range"), and an int32 parser new JSON `{"a": 4294967295}`, so both directions
break. buf's WIRE_JSON table accepts the change (FIELD_WIRE_JSON_COMPATIBLE_TYPE); schema-review
follows the runtime and reports it wherever JSON is protected (WIRE_JSON, the default, and
PACKAGE and FILE, where generated code's accessor type changes too: buf's FIELD_SAME_TYPE).
Under WIRE alone, as in buf, the change passes: a warning says values may change meaning.

Example: `int64 total_cents = 3;` becomes `uint64 total_cents = 3;`.

Fix: restore the old type (the suggestion does), or add a new field with the new type.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import JSON
from .pairs import Kind
from .suggest import swap_on_line
from .types import Level, describe, type_change

IMPACT = ("binary payloads decode, but a value only one of the types holds (a negative number, "
          "or one above the signed maximum) is read as another number; a JSON parser of the "
          "other version refuses it. Generated code gives the field another type too.")
SPEC = RuleSpec(id="PROTO_FIELD_TYPE_CHANGED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="a field's integer type changed signedness: same bytes, another range "
                        "(WIRE_JSON; a warning under WIRE)",
                impact=IMPACT, categories=JSON, outside=Severity.WARNING)
KINDS = (Kind.FIELD,)
MESSAGE = ('Field "{path}" changed type from {old} to {new}: the same bytes, but a value only '
           'one of them holds changes meaning in binary ({writer} {written} reads as {reader} {read}) '
           'and is refused in JSON.')
TITLE = "Restore the type {old}"
SIGNED = ("int32", "int64", "sfixed32", "sfixed64")
UNSIGNED_MAX = {"32": 2**32 - 1, "64": 2**64 - 1}  # its bytes are the signed type's -1


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or type_change(old, new) is not Level.RANGE:
        return
    before, after = describe(old), describe(new)
    elements = zip(old.map_types, new.map_types) if old.map_types else [(old, new)]
    writer, reader = next((o.kind, n.kind) for o, n in elements if o.kind != n.kind)
    top = UNSIGNED_MAX[writer[-2:]]
    written, read = (-1, top) if writer in SIGNED else (top, -1)
    line, side = pair.where()
    suggestion = None if pair.imported or new.map_types else swap_on_line(
        ctx.new, new, rf"\b{after}\b", before, TITLE.format(old=before))
    yield SPEC.finding(path=pair.path, line=line, side=side, suggestion=suggestion,
                       message=MESSAGE.format(path=pair.path, old=before, new=after, writer=writer,
                                              reader=reader, written=written, read=read))
