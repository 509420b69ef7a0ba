"""Flags a field whose `ctype` or `jstype` option changed (buf's PACKAGE and FILE categories).

`[ctype = CORD]` (or STRING_PIECE) changes the C++ type generated for a string or bytes field;
`[jstype = JS_STRING]` (or JS_NUMBER) the JavaScript type of a 64-bit integer field. The bytes
on the wire and the JSON stay the same, but C++ or JavaScript code written against one version's
accessors does not compile, or computes with another type, against the other's, in both
directions (buf: FIELD_SAME_CPP_STRING_TYPE, which replaced FIELD_SAME_CTYPE, and
FIELD_SAME_JSTYPE). Spelling out the default (`ctype = STRING`, `jstype = JS_NORMAL`) is no change,
and each option counts only while the field keeps a type it applies to (string or bytes; a 64-bit
integer): a type change is the type rules' finding.

Example: `bytes payload = 4;` becomes `bytes payload = 4 [ctype = CORD];`.

Fix: restore the old value (the suggestion does when the new value is written on the field's line).
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import CODE
from .pairs import Kind
from .suggest import swap_on_line

IMPACT = ("no payload changes. C++ or JavaScript code generated from the new file gives the "
          "field another type, so code written against the old accessors stops compiling or "
          "handles the value as another type, and the other way round.")
SPEC = RuleSpec(id="PROTO_FIELD_LANGUAGE_TYPE_CHANGED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="a field's `ctype` or `jstype` option changed (PACKAGE, FILE)",
                impact=IMPACT, categories=CODE)
KINDS = (Kind.FIELD,)
# Each option and the field types it applies to (buf compares it only where both sides have one).
OPTIONS = {"ctype": ("string", "bytes"),
           "jstype": ("int64", "uint64", "sint64", "fixed64", "sfixed64")}
BUF_IDS = {"ctype": ("FIELD_SAME_CPP_STRING_TYPE", "FIELD_SAME_CTYPE"),
           "jstype": ("FIELD_SAME_JSTYPE",)}  # a buf.yaml may leave either out
MESSAGE = 'Field "{path}" changed option "{option}" from {old} to {new}.'
TITLE = "Restore `{option} = {old}`"


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None:
        return
    for option, kinds in OPTIONS.items():
        before, after = getattr(old, option), getattr(new, option)
        if before == after or old.kind not in kinds or new.kind not in kinds \
                or not ctx.buf_checks(*BUF_IDS[option]):
            continue
        line, side = pair.where()
        suggestion = None if pair.imported else swap_on_line(
            ctx.new, new, rf"\b{option}\s*=\s*{after}\b", f"{option} = {before}",
            TITLE.format(option=option, old=before))
        yield SPEC.finding(path=pair.path, line=line, side=side, suggestion=suggestion,
                           message=MESSAGE.format(path=pair.path, option=option, old=before,
                                                  new=after))
