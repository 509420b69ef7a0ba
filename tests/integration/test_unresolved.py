"""End to end through the emulator: a pull request that deletes a JSON Schema another file still
`$ref`s fails its check, naming the reference and the file holding it (issue 18)."""
import json

import pytest

from tests.bot.test_broken_users_local import CASES as USER_CASES, HARMLESS
from tests.integration.test_review_flow import open_pull, review_of

ORDER = json.dumps({"type": "object", "properties": {
    "id": {"type": "string"},
    "shipTo": {"$ref": "../common/address.schema.json"}}}, indent=2)
ADDRESS = json.dumps({"type": "object", "properties": {"zip": {"type": "string"}}}, indent=2)


def _fails_naming(github, app_url, files, changes, path: str, problem: str):
    """The pull request's check fails with an annotation on `path` saying `problem`."""
    repo, pull = open_pull(github, files, changes)
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output
    assert any(a["path"] == path and problem in a["message"] for a in run.annotations), run.annotations
    return run


def test_deleting_a_referenced_schema_fails_naming_the_reference_and_its_file(github, app_url):
    problem = ('$ref "../common/address.schema.json" does not resolve: there is no schema file '
               "schemas/common/address.schema.json")
    run = _fails_naming(github, app_url, {"schemas/orders/order.schema.json": ORDER,
                                          "schemas/common/address.schema.json": ADDRESS},
                        {"schemas/common/address.schema.json": None}, "schemas/orders/order.schema.json", problem)
    assert "schemas/orders/order.schema.json" in run.output["summary"]


def test_deleting_an_imported_proto_fails_naming_the_import_and_the_file_importing_it(github, app_url):
    a = 'syntax = "proto3";\npackage shop;\nimport "shop/b.proto";\nmessage A { B b = 1; }\n'
    b = 'syntax = "proto3";\npackage shop;\nmessage B { string x = 1; }\n'
    _fails_naming(github, app_url, {"proto/buf.yaml": "version: v1\n", "proto/shop/a.proto": a,
                                    "proto/shop/b.proto": b}, {"proto/shop/b.proto": None},
                  "proto/shop/a.proto", 'import "shop/b.proto" was not found')


# A `$ref` whose target the App did not fetch because of a limit fails naming the cause: it is
# never taken for a reference outside the repository (those are opaque and may pass).
ORDER_BY_URL = {"type": "object", "properties": {
    "id": {"type": "string"}, "total": {"$ref": "https://example.com/money.json"}}}
ORDER_PLUS = {**ORDER_BY_URL, "properties": {**ORDER_BY_URL["properties"], "note": {"type": "string"}}}


def test_a_ref_to_a_file_outside_the_configs_paths_fails_saying_so(github, app_url):
    # vendor/money.json declares the URL but the default `paths` do not review it as JSON Schema.
    problem = ('$ref "https://example.com/money.json" was not checked: its target may be '
               "vendor/money.json, which was not read (the config's `paths` do not review it")
    _fails_naming(github, app_url, {"schemas/order.schema.json": json.dumps(ORDER_BY_URL, indent=2),
                                    "vendor/money.json": json.dumps({"$id": "https://example.com/money.json",
                                                                     "type": "integer"})},
                  {"schemas/order.schema.json": json.dumps(ORDER_PLUS, indent=2)}, "schemas/order.schema.json",
                  problem)


def test_a_ref_past_the_schema_set_limit_fails_saying_so(github, app_url):
    parts = {f"schemas/parts/p{i:03}.schema.json": '{"type": "string"}' for i in range(205)}
    big = {"type": "object", "properties": {f"p{i:03}": {"$ref": f"parts/p{i:03}.schema.json"}
                                            for i in range(205)}}
    bigger = {**big, "properties": {**big["properties"], "note": {"type": "string"}}}
    _fails_naming(github, app_url, {"schemas/big.schema.json": json.dumps(big, indent=2), **parts},
                  {"schemas/big.schema.json": json.dumps(bigger, indent=2)}, "schemas/big.schema.json",
                  "was not read (past the 200-file limit")


@pytest.mark.parametrize("name", sorted(USER_CASES))
def test_an_unchanged_user_the_change_leaves_unresolvable_fails_the_check(github, app_url, name):
    """The local review's cases (tests/bot/test_broken_users_local.py) through the App: e.g. a type
    renamed with its old name only as an alias fails on the unchanged file still using the name."""
    case = USER_CASES[name]
    repo, pull = open_pull(github, case.base, case.head)
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output
    assert any(a["path"] == case.user and a["annotation_level"] == "failure"
               and case.reference in a["message"] and f'"{case.changed}"' in a["message"]
               for a in run.annotations), run.annotations
    assert case.user in run.output["summary"]


@pytest.mark.parametrize("name", sorted(HARMLESS))
def test_a_user_the_change_leaves_resolvable_has_no_annotation(github, app_url, name):
    """The control: an importer that still compiles is reviewed but says nothing."""
    base, head, user = HARMLESS[name]
    repo, pull = open_pull(github, base, head)
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion != "failure", run.output
    assert not [a for a in run.annotations if a["path"] == user], run.annotations


# A `$dynamicRef` is a reference in the App too: its target file is fetched and compared, never
# read as "anything" (issue 18 item 2 follow-up).
ORDER_2020 = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
              "properties": {"id": {"type": "string"}, "total": {"type": "integer"}}}
BY_DYNAMIC_REF = {**ORDER_2020, "properties": {**ORDER_2020["properties"],
                                               "total": {"$dynamicRef": "money.schema.json"}}}


def _dynamic_ref_review(github, app_url, money: str):
    repo, pull = open_pull(github, {"schemas/order.schema.json": json.dumps(ORDER_2020, indent=2),
                                    "schemas/money.schema.json": json.dumps({"type": money}, indent=2)},
                           {"schemas/order.schema.json": json.dumps(BY_DYNAMIC_REF, indent=2)})
    return review_of(github, app_url, repo, pull)


def test_a_dynamic_ref_is_compared_by_the_file_it_names(github, app_url):
    run = _dynamic_ref_review(github, app_url, "string")
    assert run.conclusion == "failure", run.output
    assert any("JSONSCHEMA_TYPE_CHANGED" in a["title"] + a["message"] for a in run.annotations), run.annotations
    assert _dynamic_ref_review(github, app_url, "integer").conclusion == "success"
