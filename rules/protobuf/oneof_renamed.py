"""Flags a oneof whose fields stayed together but whose name changed.

Oneof names reach neither the binary encoding nor JSON (only the member fields do), so a rename
breaks no payload. Generated code names the oneof (Go's wrapper interface and getter, Java's and
C++'s case enum, Python's `WhichOneof("...")`), and that code stops compiling. In buf's PACKAGE
and FILE categories, which protect generated code, it is an error; in WIRE and WIRE_JSON (the
default) a warning. buf's FIELD_SAME_ONEOF reports it in every category. A field that joins or
leaves a oneof is PROTO_FIELD_ONEOF_CHANGED's business.

Example: `oneof contact { string email = 2; string phone = 3; }` becomes `oneof channel { ... }`.

Fix: keep the oneof's name.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import CODE
from .pairs import Kind

IMPACT = ("no payload: the name is in neither the binary nor the JSON form. Code generated from "
          "the new file names the oneof differently, so code that used the old name stops "
          "compiling.")
SPEC = RuleSpec(id="PROTO_ONEOF_RENAMED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="a oneof changed its name (same fields)",
                impact=IMPACT, categories=CODE, outside=Severity.WARNING)
KINDS = (Kind.MESSAGE,)
MESSAGE = 'Oneof "{message}.{old}" was renamed to "{new}".'


def _members(message) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for number, field in message.fields.items():
        if field.oneof:
            out.setdefault(field.oneof, []).append(number)
    return out


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None:
        return
    before, after = _members(old), _members(new)
    for name, numbers in before.items():
        kept = [new.fields[n] for n in numbers if n in new.fields]
        if name in after or not kept:
            continue
        names = {field.oneof for field in kept}
        if len(names) != 1 or None in names or names & before.keys():
            continue  # the fields left the oneof or split: PROTO_FIELD_ONEOF_CHANGED
        # On the first member's NEW line: oneof declarations carry no line of their own here.
        yield SPEC.finding(path=f"{pair.path}.{name}", line=pair.anchor or kept[0].line or new.line,
                           message=MESSAGE.format(message=pair.path, old=name, new=names.pop()))
