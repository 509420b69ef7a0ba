"""Flags a field whose JSON name changed while its proto name stayed (WIRE_JSON only).

`[json_name = "..."]` sets the key of the field in the proto3 JSON mapping. Changing it means
JSON written by one version is not understood by the other, in both directions (buf:
FIELD_SAME_JSON_NAME). Renames of the field itself are reported by PROTO_FIELD_RENAMED.

Example: `string user_id = 1 [json_name = "userId"];` becomes `[json_name = "uid"]`.

Fix: keep the JSON name.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import JSON
from .pairs import Kind

IMPACT = ("binary data is unaffected (it carries numbers). JSON payloads key the field by its "
          "JSON name, so a parser of either version does not recognise the other's key: it "
          "rejects the payload, or silently drops the value if it ignores unknown fields.")
SPEC = RuleSpec(id="PROTO_FIELD_JSON_NAME_CHANGED", format=Format.PROTOBUF,
                breaks=BOTH_DIRECTIONS, severity=Severity.ERROR,
                summary="a field's JSON name changed (WIRE_JSON)",
                impact=IMPACT,
                categories=JSON)
KINDS = (Kind.FIELD,)
MESSAGE = 'Field "{path}" changed its JSON name from "{old}" to "{new}".'


def check(pair, ctx):
    old, new = pair.old, pair.new
    if old is None or new is None or old.name != new.name or old.json_name == new.json_name:
        return
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side,
                       message=MESSAGE.format(path=pair.path, old=old.json_name,
                                              new=new.json_name))
