"""Attacks on the review of files that use a changed Avro or JSON Schema file (bot/gather/users.py):
a break only a user shows must not be hidden by filling `max_files`, by burying the user among
other files, or by a `$ref` the App fails to follow (one relative to the user's `$id`)."""
import json

from tests.integration.test_review_flow import open_pull, review_of

DRAFT = "https://json-schema.org/draft/2020-12/schema"
ID = "https://acme.example/schemas/"


def defs(required: list[str], ident: str | None = None) -> str:
    """A shared file of `$defs` only: its root uses none, so alone it compares as unchanged."""
    line = {"type": "object", "properties": {p: {"type": "string"} for p in ("sku", "qty")},
            "required": required}
    return json.dumps({"$schema": DRAFT, **({"$id": ident} if ident else {}), "$defs": {"line": line}},
                      indent=2)


def order(ref: str, ident: str | None = None) -> str:
    return json.dumps({"$schema": DRAFT, **({"$id": ident} if ident else {}), "title": "Order",
                       "type": "object", "properties": {"line": {"$ref": ref}}}, indent=2)


BASE = {"schemas/common/defs.schema.json": defs(["sku"]),
        "schemas/orders/order.schema.json": order("../common/defs.schema.json#/$defs/line")}
# Breaking for old data: a new required property.
BREAK = {"schemas/common/defs.schema.json": defs(["sku", "qty"])}
FILLER = '{"type": "object"}\n'


def rules_of(run) -> set[str]:
    return {a["title"].split(":")[0] for a in run.annotations} | {
        rule for rule in ("JSONSCHEMA_PROPERTY_MADE_REQUIRED", "SCHEMA_NOT_REVIEWED")
        if rule in run.output["summary"]}


def test_filling_max_files_does_not_hide_a_break_only_a_user_shows(github, app_url):
    repo, pull = open_pull(github, {**BASE, ".github/schema-review.yml": "max_files: 2\n"},
                           {**BREAK, "schemas/zz/new.schema.json": FILLER})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output["summary"]
    assert "JSONSCHEMA_PROPERTY_MADE_REQUIRED" in rules_of(run)


def test_a_user_after_200_other_files_is_still_found(github, app_url):
    filler = {f"schemas/a/f{i:03}.schema.json": FILLER for i in range(200)}
    repo, pull = open_pull(github, {**BASE, **filler}, BREAK)
    github.clear_calls()
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output["summary"]
    assert "JSONSCHEMA_PROPERTY_MADE_REQUIRED" in rules_of(run)
    # The head's listing, read once, with the review state query (no tree call).
    assert github.calls_to("GET", r"/git/trees/") == []


def test_a_user_whose_ref_is_relative_to_its_id_is_found(github, app_url):
    base = {"schemas/common/defs.schema.json": defs(["sku"], ID + "defs.schema.json"),
            "schemas/orders/order.schema.json": order("defs.schema.json#/$defs/line",
                                                      ID + "order.schema.json")}
    repo, pull = open_pull(github, base, {
        "schemas/common/defs.schema.json": defs(["sku", "qty"], ID + "defs.schema.json")})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output["summary"]
    assert "JSONSCHEMA_PROPERTY_MADE_REQUIRED" in rules_of(run)


def test_a_changed_files_ref_relative_to_its_id_is_fetched(github, app_url):
    """order.schema.json retargets its `$ref` to a `$def` that requires more: the target is
    found through the `$id` (not the file's folder), so the change is judged, not its text."""
    shared = json.dumps({"$schema": DRAFT, "$id": ID + "defs.schema.json", "$defs": {
        "line": {"type": "object", "properties": {"sku": {"type": "string"}}},
        "line2": {"type": "object", "properties": {"sku": {"type": "string"}},
                  "required": ["sku", "qty"]}}}, indent=2)
    old = order("defs.schema.json#/$defs/line", ID + "order.schema.json")
    repo, pull = open_pull(github, {"schemas/common/defs.schema.json": shared,
                                    "schemas/orders/order.schema.json": old},
                           {"schemas/orders/order.schema.json": old.replace("/line", "/line2")})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output["summary"]
    assert "JSONSCHEMA_PROPERTY_MADE_REQUIRED" in rules_of(run)
