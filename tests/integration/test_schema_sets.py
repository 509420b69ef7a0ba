"""End to end: a repository whose Avro schemas share named types across files and whose JSON
Schemas `$ref` each other (tests/rules/trees/shop), reviewed with no configuration."""
import posixpath
from pathlib import Path

from rules.protobuf import bufyaml

from tests.integration.test_review_flow import open_pull, review_of

SHOP = Path(__file__).parent.parent / "rules" / "trees" / "shop"


def blob_queries(github) -> list[set[str]]:
    """The paths each GraphQL blob query asked for (the config's own lookup aside)."""
    asked = [{value.split(":", 1)[1] for key, value in (c.json.get("variables") or {}).items()
              if key.startswith("e")} for c in github.calls if c.operation == "graphql"]
    return [paths for paths in asked if paths and not any(p.startswith(".github/") for p in paths)]


def sets(files: dict[str, str]) -> set[str]:
    """The Avro and JSON Schema files (the ones whose users are looked for)."""
    return {p for p in files if not p.startswith("proto/")}


def tree(side: str) -> dict[str, str]:
    root = SHOP / side
    return {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_change_to_shared_files_is_reviewed_where_it_breaks(github, app_url):
    old, new = tree("old"), tree("new")
    repo, pull = open_pull(github, old, {p: t for p, t in new.items() if t != old[p]})
    github.clear_calls()
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure"
    assert "SCHEMA_INVALID" not in run.output["summary"]
    # Each break is annotated once, on the file and line where it is, however many files use it
    # (issue 21: they are named in its message).
    # defs.schema.json's root uses none of its $defs: its change shows through order.schema.json,
    # which the pull request does not change (reviewed as a user of changed files).
    assert sorted((a["path"], a["start_line"], a["title"]) for a in run.annotations) == [
        ("avro/common/currency.avsc", 5, "AVRO_ENUM_SYMBOL_REMOVED: Currency.JPY"),
        # Where the deleted field stood (base line 10); imports resolve from proto/buf.yaml's module.
        ("proto/acme/shop/v1/order.proto", 10, "PROTO_FIELD_DELETED_NOT_DEPRECATED: Order.coupon"),
        ("proto/acme/shop/v1/order.proto", 10, "PROTO_FIELD_DELETED_NOT_RESERVED: Order.coupon"),
        ("schemas/common/address.schema.json", 9, "JSONSCHEMA_PROPERTY_MADE_REQUIRED: $.zip"),
        ("schemas/common/defs.schema.json", 4,
         "JSONSCHEMA_CONSTRAINT_LOOSENED: Order.lines[].sku/maxLength"),
    ]
    zip_required = next(a for a in run.annotations if a["title"].endswith("$.zip"))
    assert zip_required["message"].startswith('Optional property "$.zip" was added to "required".')
    assert ("Used by schemas/orders/customer.schema.json (Customer.home.zip), "
            "schemas/orders/order.schema.json (Order.shipTo.zip).") in zip_required["message"]
    # The changed files in one query (they hold each other's types and targets) with the places
    # buf's layout files may sit, then the .proto imports (from proto/, the module buf.yaml
    # declares), then the head's other Avro and JSON Schema files, for the files using them, then
    # its other .proto files, for those importing a changed one and a second definition of its types.
    changed = {p for p, t in new.items() if t != old[p]}
    queries = blob_queries(github)
    layout = {p for p in queries[0] if posixpath.basename(p) in bufyaml.NAMES}
    assert "proto/buf.yaml" in layout and queries[0] - layout == changed
    assert "proto/acme/common/v1/money.proto" in queries[1]
    protos = {p for p in old if p.endswith(".proto")}
    assert queries[2:] == [sets(old) - changed, protos - changed]
    # The head's file list came with the review state query (bot/github/tree_query.py): no tree call.
    assert github.calls_to("GET", r"/git/trees/") == []


def test_files_using_unchanged_shared_files_get_them_from_the_repository(github, app_url):
    old = tree("old")
    order = old["avro/shop/order.avsc"].replace(
        '{"name": "total", "type": "com.shop.Money"}',
        '{"name": "total", "type": "com.shop.Money"},\n    {"name": "note", "type": ["null", "string"], "default": null}')
    customer = old["schemas/orders/customer.schema.json"].replace(
        '"name": {"type": "string"},', '"name": {"type": "string"},\n    "nickname": {"type": "string"},')
    repo, pull = open_pull(github, old, {"avro/shop/order.avsc": order,
                                         "schemas/orders/customer.schema.json": customer,
                                         "schemas/orders/order.schema.json": old[
                                             "schemas/orders/order.schema.json"] + "\n"})
    github.clear_calls()
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "success", run.output
    assert run.annotations == []
    # The changed files; then Money and the JSON Schemas the `$ref`s name (the carrier's by its
    # `$id`'s last segment); then the Currency Money uses: one query per level; then the
    # others, for files using the changed ones.
    changed = {"avro/shop/order.avsc", "schemas/orders/customer.schema.json",
               "schemas/orders/order.schema.json"}
    assert blob_queries(github) == [changed, {
        "avro/common/money.avsc", "schemas/common/address.schema.json",
        "schemas/common/defs.schema.json", "schemas/vendor/tracking.schema.json"},
        {"avro/common/currency.avsc"}, sets(old) - changed]


def test_a_change_to_an_imported_message_is_annotated_once_where_it_is_defined(github, app_url):
    # proto/acme/common/v1/money.proto changes a field's type; order.proto, unchanged, imports
    # it (through proto/buf.yaml's module) and is reviewed as its user: one annotation, on the
    # field's own line in money.proto, naming order.proto (issue 21).
    old = tree("old")
    money = "proto/acme/common/v1/money.proto"
    repo, pull = open_pull(github, old, {money: old[money].replace("int64 units", "string units")})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure"
    changed = [(a["path"], a["start_line"], a["title"]) for a in run.annotations
               if a["title"].endswith("Money.units")]
    assert changed == [(money, 7, "PROTO_FIELD_TYPE_INCOMPATIBLE: Money.units")]
    assert next(a for a in run.annotations if a["title"].endswith("Money.units"))[
        "message"].endswith(" Used by proto/acme/shop/v1/order.proto.")
