"""Issue 18, item 1: a type leaves the review and comes back broken. Each case is a pull request
(base files, head changes: None deletes) that takes `com.acme.orders.Order` (or a type with a
weak identity) out of the reviewed set and adds it elsewhere with `id` turned into a string and
a field gone; the gate must fail, through the App (tests/security) and `schema-review review`
(tests/bot). The re-added files are minified: they share no line with the old ones, so neither
git nor GitHub lists a rename to follow."""
from __future__ import annotations

import json

ORDER = {"type": "record", "name": "Order", "namespace": "com.acme.orders",
         "fields": [{"name": "id", "type": "long"}, {"name": "total", "type": "double"},
                    {"name": "note", "type": "string"}]}
BROKEN = {**ORDER, "fields": [{"name": "id", "type": "string"}, {"name": "total", "type": "double"}]}
REFUND = {"type": "record", "name": "Refund", "namespace": "com.acme.orders",
          "fields": [{"name": "order", "type": "long"}]}
SCHEMA = {"type": "object", "properties": {"id": {"type": "integer"}, "total": {"type": "number"},
                                           "note": {"type": "string"}}, "required": ["id", "total"]}
SCHEMA_BROKEN = {"type": "object", "properties": {"id": {"type": "string"}, "total": {"type": "number"}},
                 "required": ["id", "total"]}
UNRELATED = {"type": "object", "properties": {"sku": {"type": "string"}, "colour": {"enum": ["red"]}},
             "required": ["sku"], "additionalProperties": False}


def pretty(document) -> str:
    return json.dumps(document, indent=2) + "\n"


def minified(document) -> str:
    return json.dumps(document, separators=(",", ":")) + "\n"


def with_id(document, ident: str) -> dict:
    return {"$id": ident, **document}


# A type moved below another file's top level (issue 18 item 1, follow-up): the removed file's
# record now nested in an added one, or its protobuf package written with spaces around the dots.
USER = {"type": "record", "name": "User", "namespace": "com.shop",
        "fields": [{"name": "id", "type": "long"}, {"name": "email", "type": "string"}]}
ENVELOPE = {"type": "record", "name": "Envelope", "namespace": "com.shop", "fields": [
    {"name": "user", "type": {"type": "record", "name": "User", "fields": [
        {"name": "id", "type": "string"}, {"name": "level", "type": "int"}]}}]}
PROTO_ORDER = "syntax = \"proto3\";\npackage shop.orders;\nmessage Order{string id=1; int64 amount_cents=2; string note=3;}\n"
PROTO_MOVED = ('syntax="proto3"; package shop . orders; '
               "message Order{int32 id=1; string amount_cents=2;}\n")

C_ID = "https://ex.com/c.json"
C = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
C_BROKEN = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}

OLD, NEW = "schemas/order.avsc", "schemas/v2/order.avsc"
JSON_OLD, JSON_NEW = "schemas/order.schema.json", "schemas/v2/order.schema.json"
ID = "https://acme.example/order"
# name -> (config or None, base files, head changes, a rule the review must report)
CASES = {
    "rename-to-bak": (None, {OLD: pretty(ORDER)},
                      {OLD: None, OLD + ".bak": pretty(ORDER), NEW: minified(BROKEN)},
                      "AVRO_TYPE_CHANGED"),
    "move-under-exclude": ('exclude: ["schemas/archive/**"]\n', {OLD: pretty(ORDER)},
                           {OLD: None, "schemas/archive/order.avsc": pretty(ORDER), NEW: minified(BROKEN)},
                           "AVRO_TYPE_CHANGED"),
    "move-outside-paths": ('paths:\n  avro: ["schemas/**/*.avsc"]\n', {OLD: pretty(ORDER)},
                           {OLD: None, "legacy/order.avsc": pretty(ORDER), NEW: minified(BROKEN)},
                           "AVRO_TYPE_CHANGED"),
    "delete-and-re-add": (None, {OLD: pretty(ORDER)}, {OLD: None, NEW: minified(BROKEN)},
                          "AVRO_TYPE_CHANGED"),
    "avro-top-level-union": (None, {OLD: pretty([ORDER, REFUND])},
                             {OLD: None, NEW: minified([BROKEN, REFUND])}, "AVRO_TYPE_CHANGED"),
    "json-schema-without-id": (None, {JSON_OLD: pretty(SCHEMA)},
                               {JSON_OLD: None, JSON_NEW: minified(SCHEMA_BROKEN)},
                               "JSONSCHEMA_TYPE_CHANGED"),
    "id-with-trailing-hash": (None, {JSON_OLD: pretty(with_id(SCHEMA, ID + "#"))},
                              {JSON_OLD: None, JSON_NEW: minified(with_id(SCHEMA_BROKEN, ID))},
                              "JSONSCHEMA_TYPE_CHANGED"),
    "json-schema-without-id-renamed-to-bak": (
        None, {JSON_OLD: pretty(SCHEMA)},
        {JSON_OLD: None, JSON_OLD + ".bak": pretty(SCHEMA), JSON_NEW: minified(SCHEMA_BROKEN)},
        "JSONSCHEMA_TYPE_CHANGED"),
    "avro-record-moved-into-another": (None, {"avro/user.avsc": pretty(USER)},
                                       {"avro/user.avsc": None, "avro/v2/envelope.avsc": minified(ENVELOPE)},
                                       "AVRO_TYPE_CHANGED"),
    "proto-package-with-spaces": (None, {"proto/a/b/order.proto": PROTO_ORDER},
                                  {"proto/a/b/order.proto": None, "proto/a/b/v2/orders.proto": PROTO_MOVED},
                                  "PROTO_FIELD_TYPE_INCOMPATIBLE"),
    "json-schema-id-moved-into-another": (
        None, {JSON_OLD: pretty(with_id(SCHEMA, ID))},
        {JSON_OLD: None, "schemas/v2/envelope.schema.json": minified(
            {"$id": "https://acme.example/envelope", "type": "object",
             "properties": {"order": with_id(SCHEMA_BROKEN, ID)}})},
        "JSONSCHEMA_TYPE_CHANGED"),
    # Issue 18 item 1, follow-up: an added file redefines a type another file of the head still
    # defines (a second definition nothing compares), or two added files take a removed one's.
    "json-id-redefined-beside-the-original": (
        None, {"schemas/c.json": pretty(with_id(C, C_ID))},
        {"schemas/v2/d2.json": minified(with_id(C_BROKEN, C_ID))}, "SCHEMA_IDENTITY_DUPLICATED"),
    "avro-name-redefined-beside-the-original": (
        None, {"schemas/u.avsc": pretty(USER)},
        {"schemas/v2/v.avsc": minified({**USER, "fields": [{"name": "id", "type": "string"}]})},
        "SCHEMA_IDENTITY_DUPLICATED"),
    "removed-id-taken-by-a-copy-and-a-broken-one": (
        None, {"schemas/c.json": pretty(with_id(C, C_ID))},
        {"schemas/c.json": None, "schemas/d1.json": minified(with_id(C, C_ID)),
         "schemas/v2/d2.json": minified(with_id(C_BROKEN, C_ID))}, "SCHEMA_IDENTITY_DUPLICATED"),
    "proto-message-redefined-beside-the-original": (
        None, {"proto/a.proto": 'syntax = "proto3";\npackage p;\nmessage Money { int64 units = 1; }\n'},
        {"proto/v2/z.proto": 'syntax = "proto3";\npackage p;\nmessage Money { string units = 1; }\n'},
        "SCHEMA_IDENTITY_DUPLICATED"),
    # Without an identity: an identical copy and a broken one are both alike; each is compared.
    "json-schema-without-id-copied-and-broken": (
        None, {JSON_OLD: pretty(SCHEMA)},
        {JSON_OLD: None, "schemas/copy.schema.json": minified(SCHEMA), JSON_NEW: minified(SCHEMA_BROKEN)},
        "JSONSCHEMA_TYPE_CHANGED"),
    # No identity and nothing alike: whether it moved cannot be told, so the removal fails closed.
    "weak-identity-unlike": (None, {JSON_OLD: pretty(SCHEMA)},
                             {JSON_OLD: None, JSON_NEW: minified(UNRELATED)}, "SCHEMA_NOT_REVIEWED"),
}
CONFIG_PATH = ".github/schema-review.yml"


def base_files(case: str) -> dict[str, str]:
    config, base, _head, _rule = CASES[case]
    return {**base, **({CONFIG_PATH: config} if config else {})}
