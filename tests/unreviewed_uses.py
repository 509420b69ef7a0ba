"""Issue 18 (round 3): a reviewed schema uses a file the config does not review (a `$ref`
target or a protobuf import outside `paths`, `.proto` or not), and the pull request changes only that file.
The gate said "No schema files changed"; the reviewed users must fail as not reviewed. Each
case: base files, head changes, and the reviewed files that must be listed as not reviewed
(an empty tuple: nothing uses the changed file, the review stays green)."""
from __future__ import annotations

import json

ORDER = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
         "properties": {"id": {"$ref": "common/defs.json#/$defs/id"}}}
DEFS = {"$defs": {"id": {"type": "string"}}}
DEFS_BROKEN = {"$defs": {"id": {"type": "integer"}}}  # {"id": "abc"} was valid, is not
# A reviewed schema using the order schema: it changes meaning through it too.
INVOICE = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
           "properties": {"order": {"$ref": "order.schema.json"}}}
API = 'syntax = "proto3";\npackage shop.api;\nimport "common/money.proto";\n' \
      'message Price { shop.common.Money amount = 1; }\n'
MONEY = 'syntax = "proto3";\npackage shop.common;\nmessage Money { int64 units = 1; }\n'
MONEY_BROKEN = MONEY.replace("int64 units", "string units")  # varint bytes no longer a string
CONFIG = ".github/schema-review.yml"
PROTO_PATHS = "paths:\n  protobuf: [\"proto/api/**\"]\nprotobuf:\n  import_roots: [proto]\n"


def pretty(document) -> str:
    return json.dumps(document, indent=2) + "\n"


CASES = {
    "ref-target-outside-paths": (
        {"order.schema.json": pretty(ORDER), "common/defs.json": pretty(DEFS)},
        {"common/defs.json": pretty(DEFS_BROKEN)}, ("order.schema.json",)),
    "ref-target-deleted": (
        {"order.schema.json": pretty(ORDER), "common/defs.json": pretty(DEFS)},
        {"common/defs.json": None}, ("order.schema.json",)),
    "used-through-a-reviewed-file": (
        {"order.schema.json": pretty(ORDER), "invoice.schema.json": pretty(INVOICE),
         "common/defs.json": pretty(DEFS)},
        {"common/defs.json": pretty(DEFS_BROKEN)}, ("invoice.schema.json", "order.schema.json")),
    "unused-json-changed": (
        {"order.schema.json": pretty(ORDER), "common/defs.json": pretty(DEFS),
         "package.json": "{}\n"},
        {"package.json": '{"name": "x"}\n'}, ()),
    # protoc imports any file name: a change to an imported `.inc` changes the importer.
    "proto-import-of-another-suffix": (
        {"price.proto": API.replace('"common/money.proto"', '"types.inc"'), "types.inc": MONEY},
        {"types.inc": MONEY_BROKEN}, ("price.proto",)),
    "unimported-file-beside-protos-changed": (
        {"price.proto": API.replace('"common/money.proto"', '"types.inc"'), "types.inc": MONEY,
         "notes.txt": "a\n"},
        {"notes.txt": "b\n"}, ()),
    "proto-import-outside-paths": (
        {CONFIG: PROTO_PATHS, "proto/api/price.proto": API, "proto/common/money.proto": MONEY},
        {"proto/common/money.proto": MONEY_BROKEN}, ("proto/api/price.proto",)),
}
