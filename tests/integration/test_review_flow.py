"""End to end: signed webhook -> gunicorn app -> emulator: check runs, reviews, suggestions."""
import collections
import itertools

import pytest

from tests.harness.flow import AVRO_BASE, wait_for
from tests.integration.conftest import SECRET, settle, wait_for_check

_names = itertools.count()

PROTO_BASE = """syntax = "proto3";

package acme.v1;

message Order {
  string id = 1;
  string note = 2;
  int64 total = 3;
}
"""
JSON_BASE = """{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "Customer",
  "type": "object",
  "properties": {
    "id": {"type": "string"},
    "phone": {"type": "string"}
  },
  "required": ["id"]
}
"""


def open_pull(github, files, changes, *, title="Change contracts"):
    repo = github.create_repo("acme", f"contracts-{next(_names)}", files)
    repo.commit("feature", changes, "Change contracts", base="main")
    return repo, github.open_pull(repo.owner, repo.name, "feature", "main", title)


def send(github, app_url, event, payload):
    response = github.deliver(app_url + "/webhook", event, payload, SECRET)
    assert response.status_code in (200, 202), response.text
    return response


def review_of(github, app_url, repo, pull, action="opened"):
    send(github, app_url, "pull_request", github.pull_request_event(action, pull))
    (run,) = wait_for_check(github, repo, pull.head_sha)
    settle(github)
    return run


def comments(github, repo, pull):
    return github.review_comments(repo.owner, repo.name, pull.number)


def test_required_avro_field_fails_with_an_optional_default_suggestion(github, app_url):
    new = AVRO_BASE.replace('{"name": "email", "type": "string"}',
                            '{"name": "email", "type": "string"},\n    {"name": "userLevel", "type": "string"}')
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE}, {"schemas/user.avsc": new})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure"
    assert "1 breaking change" in run.output["title"]
    assert "AVRO_FIELD_ADDED_WITHOUT_DEFAULT" in run.output["summary"]
    assert [a["start_line"] for a in run.annotations] == [7]
    (comment,) = comments(github, repo, pull)
    assert (comment.path, comment.line, comment.side) == ("schemas/user.avsc", 7, "RIGHT")
    assert '```suggestion\n    {"name": "userLevel", "type": ["null", "string"], "default": null}\n```' in comment.body
    (review,) = github.reviews(repo.owner, repo.name, pull.number)
    assert review.state == "COMMENTED"


def test_optional_avro_field_passes_without_comments(github, app_url):
    new = AVRO_BASE.replace('{"name": "email", "type": "string"}',
                            '{"name": "email", "type": "string"},\n'
                            '    {"name": "userLevel", "type": ["null", "string"], "default": null}')
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE}, {"schemas/user.avsc": new})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "success", run.output
    assert comments(github, repo, pull) == [] and github.reviews(repo.owner, repo.name, pull.number) == []


def test_deleted_protobuf_field_suggests_reserved(github, app_url):
    new = PROTO_BASE.replace("  string note = 2;\n", "")
    repo, pull = open_pull(github, {"proto/order.proto": PROTO_BASE}, {"proto/order.proto": new})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure"
    bodies = [c.body for c in comments(github, repo, pull)]
    reserved = [b for b in bodies if "PROTO_FIELD_DELETED_NOT_RESERVED" in b]
    assert len(reserved) == 1 and "```suggestion" in reserved[0]
    assert "reserved 2;" in reserved[0] and 'reserved "note";' in reserved[0]


def test_newly_required_json_property_fails(github, app_url):
    new = JSON_BASE.replace('"required": ["id"]', '"required": ["id", "phone"]')
    repo, pull = open_pull(github, {"schemas/customer.schema.json": JSON_BASE},
                           {"schemas/customer.schema.json": new})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure"
    assert "JSONSCHEMA_" in run.output["summary"] and "phone" in run.output["summary"]
    (comment,) = [c for c in comments(github, repo, pull) if "phone" in c.body]
    assert comment.side == "RIGHT" and comment.line == 9


def test_avro_rename_without_alias_suggests_aliases(github, app_url):
    new = AVRO_BASE.replace('"name": "email"', '"name": "emailAddress"')
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE}, {"schemas/user.avsc": new})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure"
    (comment,) = comments(github, repo, pull)
    assert "RENAMED" in comment.body and '"aliases": ["email"]' in comment.body


def test_pull_request_without_schema_files_still_gets_a_green_check(github, app_url):
    repo, pull = open_pull(github, {"README.md": "hello\n"}, {"README.md": "hello world\n"})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "success" and "No schema files" in run.output["title"]
    assert github.reviews(repo.owner, repo.name, pull.number) == []


def test_fixing_push_minimizes_the_stale_comment_and_turns_green(github, app_url):
    broken = AVRO_BASE.replace('{"name": "email", "type": "string"}',
                               '{"name": "email", "type": "string"},\n    {"name": "level", "type": "int"}')
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE}, {"schemas/user.avsc": broken})
    assert review_of(github, app_url, repo, pull).conclusion == "failure"
    # The same push delivered again posts nothing new: no comment spam.
    send(github, app_url, "pull_request", github.pull_request_event("synchronize", pull))
    wait_for_check(github, repo, pull.head_sha)
    settle(github)
    fixed = broken.replace('"type": "int"}', '"type": ["null", "int"], "default": null}')
    repo.commit("feature", {"schemas/user.avsc": fixed}, "Make level optional")
    run = review_of(github, app_url, repo, pull, action="synchronize")
    assert run.conclusion == "success"
    # The stale comment is minimized after the check completes: waited for, not assumed settled.
    wait_for(lambda: all(c.is_minimized for c in comments(github, repo, pull)),
             what="the stale comment minimized")
    (comment,) = comments(github, repo, pull)
    assert comment.is_minimized and "Resolved" in comment.body
    assert len(github.reviews(repo.owner, repo.name, pull.number)) == 1


def test_a_120_file_pull_request_is_reviewed_in_a_constant_number_of_calls(github, app_url):
    base = {f"schemas/s{i:03}.avsc": AVRO_BASE for i in range(120)}
    head = {path: text.replace('"name": "email"', '"name": "mail"') for path, text in base.items()}
    repo, pull = open_pull(github, base, head)
    github.clear_calls()
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure" and "120 schema files" in run.output["title"]
    # One request's worth of annotations (errors first); the summary's table lists all 120.
    assert len(run.annotations) == 50 and "The first 50 findings" in run.output["summary"]
    # 120 comments, each with its example, are one large request: wait for it, then for quiet.
    wait_for(lambda: github.reviews(repo.owner, repo.name, pull.number), timeout=60, what="the review")
    settle(github)
    (review,) = github.reviews(repo.owner, repo.name, pull.number)
    assert len(comments(github, repo, pull)) == 50  # per push; the check's table lists all 120
    assert "70 more are listed in the check only" in review.body
    # Steady state (the token and the App's login are cached): the file listing (two pages),
    # one GraphQL query for everything else read, the head's file list among it (are there
    # other Avro files using the changed ones? here none), the check created and completed,
    # one review.
    calls = collections.Counter(c.operation for c in github.calls
                                if not c.path.endswith("/access_tokens") and c.path != "/app")
    assert calls == {"pulls/list-files": 2, "graphql": 1, "checks/create": 1,
                     "checks/update": 1, "pulls/create-review": 1}, calls


@pytest.mark.parametrize("config, conclusion", [
    ("compatibility: forward\n", "success"),
    ("rules:\n  AVRO_FIELD_ADDED_WITHOUT_DEFAULT: warning\n", "success"),
    ("compatibility: sideways\n", "failure"),
])
def test_config_on_the_default_branch_governs_the_check(github, app_url, config, conclusion):
    new = AVRO_BASE.replace('{"name": "email", "type": "string"}',
                            '{"name": "email", "type": "string"},\n    {"name": "userLevel", "type": "string"}')
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE, ".github/schema-review.yml": config},
                           {"schemas/user.avsc": new})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == conclusion, run.output
    if config.startswith("compatibility: sideways"):
        assert "schema-review.yml:1" in run.output["summary"]


def test_a_pull_request_cannot_relax_its_own_gate(github, app_url):
    new = AVRO_BASE.replace('{"name": "email", "type": "string"}',
                            '{"name": "email", "type": "string"},\n    {"name": "userLevel", "type": "string"}')
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE},
                           {"schemas/user.avsc": new, ".github/schema-review.yml": "compatibility: forward\n"})
    assert review_of(github, app_url, repo, pull).conclusion == "failure"


def test_unparseable_head_fails_with_the_parser_message_on_its_line(github, app_url):
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE},
                           {"schemas/user.avsc": AVRO_BASE.replace('"string"}\n  ]', '"string"\n  ]')})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure"
    assert any(a["annotation_level"] == "failure" and "JSON" in a["message"] for a in run.annotations)


def test_bad_signature_reaches_no_github_endpoint(github, app_url):
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE}, {"schemas/user.avsc": AVRO_BASE + "\n"})
    github.clear_calls()
    response = github.deliver(app_url + "/webhook", "pull_request", github.pull_request_event("opened", pull), "wrong")
    assert response.status_code == 401
    assert github.calls == []
