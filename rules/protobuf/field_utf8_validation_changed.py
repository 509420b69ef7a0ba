"""Flags a string field whose reader started or stopped refusing text that is not UTF-8.

proto2 strings, and editions' `[features.utf8_validation = NONE]` ones, read and write any
bytes; proto3 strings and editions' default (VERIFY) refuse a message holding a string that is
not valid UTF-8: the whole record fails to parse, not just the field. So a string that becomes
verified (proto2 to proto3 or to an edition, NONE dropped, on the field, its map or the file)
breaks backward: data old producers wrote with such bytes is refused by new readers. The
reverse (verified to NONE) breaks forward: new producers may write bytes old readers refuse.
Map keys and values and extensions count like fields. The Python runtime (upb) shows both
(tests/rules/protobuf/example_cases: `utf8`). buf files this under FILE and PACKAGE only
(FIELD_SAME_UTF8_VALIDATION), so its WIRE and WIRE_JSON stay silent; as a payload break it is
reported in every category here (a buf.yaml turns it off by naming that id in `except`). A type
change (bytes to string) is the type rules' finding.

Example: `optional string note = 4;` (proto2) becomes `string note = 4;` (proto3).

Fix: keep the field unverified (in an editions file, `[features.utf8_validation = NONE]`), or
first make sure no producer writes text that is not UTF-8 and accept the finding.
"""
from ..model import BACKWARD_ONLY, BOTH_DIRECTIONS, FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind

IMPACT = ("a reader that verifies UTF-8 refuses the whole record when a string holds bytes that "
          "are not UTF-8, which a writer that does not verify may write: new readers refuse such "
          "old data (verification added), old readers such new data (verification dropped).")
SPEC = RuleSpec(id="PROTO_FIELD_UTF8_VALIDATION_CHANGED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="a string field's UTF-8 validation changed (proto2/NONE to verified, or back)",
                impact=IMPACT, categories=ALL)
KINDS = (Kind.FIELD,)
MESSAGE = 'Field "{path}"{part} {change}.'
ADDED = ("now refuses text that is not UTF-8 (it did not): old data holding such bytes no "
         "longer parses")
DROPPED = "no longer verifies UTF-8 (it did): new writers may write bytes old readers refuse"
PARTS = {(): "", ("key",): " (map key)", ("value",): " (map value)",
         ("key", "value"): " (map key and value)"}


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None:
        return
    elements = [(old, new, "")]
    if old.map_types and new.map_types:
        elements = list(zip(old.map_types, new.map_types, ("key", "value")))
    changed = [(after.utf8_verified, part) for before, after, part in elements
               if before.kind == after.kind == "string"
               and before.utf8_verified != after.utf8_verified]
    if not changed:
        return
    # Both parts of a map take the map field's features: they change the same way.
    verified = changed[0][0]
    parts = tuple(part for _, part in changed if part)
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       breaks=BACKWARD_ONLY if verified else FORWARD_ONLY,
                       message=MESSAGE.format(path=pair.path, part=PARTS[parts],
                                              change=ADDED if verified else DROPPED))
