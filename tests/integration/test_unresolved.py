"""End to end through the emulator: a pull request that deletes a JSON Schema another file still
`$ref`s fails its check, naming the reference and the file holding it (issue 18)."""
import json

import pytest

from tests.bot.test_broken_users_local import CASES as USER_CASES
from tests.integration.test_review_flow import open_pull, review_of

ORDER = json.dumps({"type": "object", "properties": {
    "id": {"type": "string"},
    "shipTo": {"$ref": "../common/address.schema.json"}}}, indent=2)
ADDRESS = json.dumps({"type": "object", "properties": {"zip": {"type": "string"}}}, indent=2)


def test_deleting_a_referenced_schema_fails_naming_the_reference_and_its_file(github, app_url):
    repo, pull = open_pull(github, {"schemas/orders/order.schema.json": ORDER,
                                    "schemas/common/address.schema.json": ADDRESS},
                           {"schemas/common/address.schema.json": None})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output
    problem = ('$ref "../common/address.schema.json" does not resolve: there is no schema file '
               "schemas/common/address.schema.json")
    assert any(a["path"] == "schemas/orders/order.schema.json" and problem in a["message"]
               for a in run.annotations), run.annotations
    assert "schemas/orders/order.schema.json" in run.output["summary"]


def test_deleting_an_imported_proto_fails_naming_the_import_and_the_file_importing_it(github, app_url):
    a = 'syntax = "proto3";\npackage shop;\nimport "shop/b.proto";\nmessage A { B b = 1; }\n'
    b = 'syntax = "proto3";\npackage shop;\nmessage B { string x = 1; }\n'
    repo, pull = open_pull(github, {"proto/buf.yaml": "version: v1\n", "proto/shop/a.proto": a,
                                    "proto/shop/b.proto": b}, {"proto/shop/b.proto": None})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output
    assert any(a["path"] == "proto/shop/a.proto" and 'import "shop/b.proto" was not found' in a["message"]
               for a in run.annotations), run.annotations


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
