"""What the review reads from the base branch's history: transitive modes and the deprecation window."""
from datetime import datetime, timedelta, timezone

from tests.integration.test_review_flow import AVRO_BASE, PROTO_BASE, open_pull, review_of

DEPRECATED = PROTO_BASE.replace("string note = 2;", "string note = 2 [deprecated = true];")
RESERVED = PROTO_BASE.replace("  string note = 2;\n", "  reserved 2;\n  reserved \"note\";\n")


def test_deleting_a_field_deprecated_three_days_ago_warns_about_the_window(github, app_url):
    repo = github.create_repo("acme", "window", {"proto/order.proto": PROTO_BASE},)
    three_days_ago = datetime.now(timezone.utc) - timedelta(days=3)
    repo.commit("main", {"proto/order.proto": DEPRECATED}, "Deprecate note", author_date=three_days_ago)
    repo.commit("feature", {"proto/order.proto": RESERVED}, "Remove note", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Remove note")
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "success"  # reserved correctly: only the window warns
    assert "SCHEMA_DEPRECATION_WINDOW" in run.output["summary"]
    assert "3 days after it was marked deprecated" in run.output["summary"]


def test_deleting_a_long_deprecated_field_is_quiet(github, app_url):
    repo = github.create_repo("acme", "window-passed", {"proto/order.proto": PROTO_BASE})
    repo.commit("main", {"proto/order.proto": DEPRECATED}, "Deprecate note",
                author_date=datetime.now(timezone.utc) - timedelta(days=30))
    repo.commit("feature", {"proto/order.proto": RESERVED}, "Remove note", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Remove note")
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "success" and "SCHEMA_DEPRECATION_WINDOW" not in run.output["summary"]


def _transitive_pull(github, name, config):
    """v1 wrote "level" as a string, v2 (the base) dropped it, the head brings it back as an int."""
    v1 = AVRO_BASE.replace('{"name": "email", "type": "string"}',
                           '{"name": "email", "type": "string"},\n    {"name": "level", "type": "string"}')
    head = AVRO_BASE.replace('{"name": "email", "type": "string"}',
                             '{"name": "email", "type": "string"},\n    {"name": "level", "type": "int", "default": 0}')
    repo = github.create_repo("acme", name, {"schemas/user.avsc": v1, ".github/schema-review.yml": config})
    repo.commit("main", {"schemas/user.avsc": AVRO_BASE}, "Drop level")
    repo.commit("feature", {"schemas/user.avsc": head}, "Level is a number now", base="main")
    return repo, github.open_pull(repo.owner, repo.name, "feature", "main", "Level is a number")


def test_transitive_mode_checks_older_versions_on_the_base_branch(github, app_url):
    repo, pull = _transitive_pull(github, "transitive", "compatibility: backward_transitive\n")
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure"
    assert "AVRO_TYPE_CHANGED" in run.output["summary"] and "UserEvent.level" in run.output["summary"]


def test_plain_backward_mode_only_compares_with_the_base(github, app_url):
    repo, pull = _transitive_pull(github, "not-transitive", "compatibility: backward\n")
    assert review_of(github, app_url, repo, pull).conclusion == "success"
