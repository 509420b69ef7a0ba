"""The "Proof by example" section of docs/rules.md: one real example per format.

Each entry names a rule case under tests/rules/cases/; tests/rules/test_examples.py checks that
`check --examples` on that case still produces exactly the example shown.
"""
from __future__ import annotations

import json

from ..model import Format

INTRO = """
## Proof by example

`python -m rules check OLD NEW --examples` (always on in the App) looks for a record that shows
each breaking error at runtime: written with one version, then read with the other by the
format's own runtime (fastavro's schema resolution; the protobuf runtime with the descriptors
protoc compiled, in binary and, under `WIRE_JSON`, canonical JSON; `jsonschema` with the file's
draft and ECMA-262 patterns). The JSON output gains `"example": {"written_with": "old"|"new",
"payload", "outcome": "error"|"changed", "reader_error", "changed"}`, or `"example": null` when
the bounded search found none; the App shows it in a collapsed *Example that breaks* under the
inline comment. A protobuf example also says which form broke (`"encoding": "binary"|"json"`),
carries the binary message written (`"binary"`, base64) and, for a changed value, what the reader
decoded (`"read"`: its fields and the ones it kept aside as unknown). Only the finding's own field
is set and compared, so the break shown is the finding's. An error whose rule breaks reading but
has no example is counted in the notes (`examples_missing: N ...`): a search gap or a false
alarm. Where no record can show the break (a reservation removed, a package change, a deleted
message; a deleted protobuf field or enum value when JSON is not checked, as its binary form
still decodes) the finding says why instead, in `"example_why"` and on its example line.
"""
# (title, case folder under tests/rules/cases, what changed, mode, the finding's "example")
EXAMPLES = (
    ("Avro", Format.AVRO, "AVRO_FIELD_ADDED_WITHOUT_DEFAULT/fires-with-suggestion",
     'NEW adds `{"name": "userLevel", "type": "string"}` to `UserEvent`', "backward",
     {"written_with": "old", "payload": {"id": 1}, "outcome": "error",
      "reader_error": "No default value for field userLevel in com.example.UserEvent",
      "changed": None}),
    ("Protobuf", Format.PROTOBUF, "PROTO_FIELD_NUMBER_CHANGED/renumbered",
     "`string email = 4;` becomes `string email = 9;`", "backward",
     {"written_with": "old", "payload": {"email": "x"}, "outcome": "changed",
      "reader_error": None, "changed": ["$.email"], "encoding": "binary", "binary": "IgF4",
      "read": "the reader reads {\"email\": \"\"}; unknown to it: field 4 (length-delimited)"}),
    ("JSON Schema", Format.JSONSCHEMA, "JSONSCHEMA_CONSTRAINT_TIGHTENED/maxlength-lowered",
     '`"name": {"type": "string", "maxLength": 12}` becomes `"maxLength": 10`', "backward",
     {"written_with": "old", "payload": {"name": "example.com"}, "outcome": "error",
      "reader_error": "'example.com' is too long (at $.name)", "changed": None}),
)


def section() -> str:
    parts = [INTRO]
    for title, fmt, case, change, mode, example in EXAMPLES:
        rule = case.split("/")[0]
        parts.append(f"**{title}** (`{rule}`, {mode}): {change}.\n\n"
                     f"```json\n{json.dumps({'example': example}, indent=2)}\n```\n")
    return "\n".join(parts)
