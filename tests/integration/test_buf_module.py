"""End to end: a buf module under proto/ is reviewed by the App with no configuration: imports
resolve from the module root, and buf.yaml's `breaking:` section at the base is honoured."""
from tests.bufmodule import trees
from tests.integration.test_review_flow import open_pull, review_of


def _module(buf_yaml: str | None) -> tuple[dict, dict]:
    return trees({} if buf_yaml is None else {"proto/buf.yaml": buf_yaml})


def test_a_buf_module_is_reviewed_with_no_configuration(github, app_url):
    repo, pull = open_pull(github, *_module("version: v1\n"))
    run = review_of(github, app_url, repo, pull)
    assert "SCHEMA_INVALID" not in str(run.output)
    # The default, WIRE_JSON: the rename breaks JSON; the deleted message is silent (as in buf).
    assert run.conclusion == "failure"
    assert [a["title"].split(":")[0] for a in run.annotations] == ["PROTO_FIELD_RENAMED"], run.annotations


def test_buf_yaml_breaking_use_file_is_honoured(github, app_url):
    repo, pull = open_pull(github, *_module("version: v1\nbreaking:\n  use: [FILE]\n"))
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure"
    assert sorted(a["title"].split(":")[0] for a in run.annotations) == [
        "PROTO_FIELD_RENAMED", "PROTO_MESSAGE_DELETED"], run.annotations


def test_without_a_layout_file_the_missing_import_names_the_setting(github, app_url):
    repo, pull = open_pull(github, *_module(None))
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure"
    assert "protobuf.import_roots" in str(run.output) + str(run.annotations)


def test_a_pull_request_cannot_relax_its_gate_through_buf_yaml(github, app_url):
    base, head = _module("version: v1\nbreaking:\n  use: [FILE]\n")
    head["proto/buf.yaml"] = "version: v1\nbreaking:\n  use: [WIRE]\n"
    repo, pull = open_pull(github, base, head)
    run = review_of(github, app_url, repo, pull)
    assert sorted(a["title"].split(":")[0] for a in run.annotations) == [
        "PROTO_FIELD_RENAMED", "PROTO_MESSAGE_DELETED"], run.annotations
