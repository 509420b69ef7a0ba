"""End to end: the head's file list (searched for files using a changed Avro or JSON Schema
file) comes with the review state query, nested bot/github/tree_query.py TREE_DEPTH levels deep; a
deeper repository falls back to REST's recursive tree listing. A Protobuf review reads it in the
same query too (searched for files importing a changed .proto, and for a type defined twice)."""
import json
from posixpath import dirname, relpath

from bot.github.tree_query import TREE_DEPTH
from tests.integration.test_review_flow import PROTO_BASE, open_pull, review_of

DEFS = "schemas/common/defs.schema.json"


def defs(required: list[str]) -> str:
    """A shared file of `$defs` only: alone it compares as unchanged, its users show a break."""
    line = {"type": "object", "properties": {"sku": {"type": "string"}, "qty": {"type": "string"}},
            "required": required}
    return json.dumps({"$defs": {"line": line}}, indent=2)


def user(path: str) -> str:
    target = relpath(DEFS, dirname(path))
    return json.dumps({"title": "Order", "type": "object",
                       "properties": {"line": {"$ref": f"{target}#/$defs/line"}}}, indent=2)


def tree_asked(github) -> list[str]:
    """The `$tree` expressions GraphQL queries asked for (the head's root directory)."""
    return [c.json["variables"]["tree"] for c in github.calls
            if c.operation == "graphql" and "tree" in (c.json.get("variables") or {})]


def review_of_user_at(github, app_url, path: str):
    repo, pull = open_pull(github, {DEFS: defs(["sku"]), path: user(path)}, {DEFS: defs(["sku", "qty"])})
    github.clear_calls()
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output["summary"]
    # A new required property, shown through the user (alone, defs.schema.json compares equal).
    assert [a["title"] for a in run.annotations] == ["JSONSCHEMA_PROPERTY_MADE_REQUIRED: Order.line.qty"]
    assert tree_asked(github) == [f"{pull.head_sha}:"]
    return run


def test_a_nested_user_is_found_without_a_tree_call(github, app_url):
    review_of_user_at(github, app_url, "schemas/orders/eu/v2/order.schema.json")
    assert github.calls_to("GET", r"/git/trees/") == []


def test_a_user_deeper_than_the_query_reaches_is_found_through_the_tree_call(github, app_url):
    deep = "/".join(["schemas", *(f"d{level}" for level in range(TREE_DEPTH))]) + "/order.schema.json"
    review_of_user_at(github, app_url, deep)
    assert len(github.calls_to("GET", r"/git/trees/")) == 1


def test_a_protobuf_review_reads_the_file_list_in_the_state_query(github, app_url):
    """The head's other .proto files are read for a second definition of a changed file's types
    (bot/review/duplicate_types.py): their list comes with the review state query, no REST call."""
    new = PROTO_BASE.replace("  string note = 2;\n", "")
    repo, pull = open_pull(github, {"proto/order.proto": PROTO_BASE, DEFS: defs(["sku"])},
                           {"proto/order.proto": new})
    github.clear_calls()
    assert review_of(github, app_url, repo, pull).conclusion == "failure"
    assert tree_asked(github) == [f"{pull.head_sha}:"] and github.calls_to("GET", r"/git/trees/") == []
