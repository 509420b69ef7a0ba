"""What the review reads from the base branch's history: transitive modes, the deprecation and
promotion windows, the migration calendar."""
import collections
from datetime import datetime, timedelta, timezone

from tests.integration.test_review_flow import AVRO_BASE, JSON_BASE, PROTO_BASE, open_pull, review_of

NO_PHONE = JSON_BASE.replace(',\n    "phone": {"type": "string"}', "")
PHONE_REQUIRED = JSON_BASE.replace('"required": ["id"]', '"required": ["id", "phone"]')
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


def _promotion_pull(github, name, *, days, head=PHONE_REQUIRED):
    """"phone" added as optional `days` ago on main; the pull request makes it required."""
    path = "schemas/customer.schema.json"
    repo = github.create_repo("acme", name, {path: NO_PHONE})
    repo.commit("main", {path: JSON_BASE}, "Add phone",
                author_date=datetime.now(timezone.utc) - timedelta(days=days))
    repo.commit("feature", {path: head}, "Require phone", base="main")
    return repo, github.open_pull(repo.owner, repo.name, "feature", "main", "Require phone")


def test_promoting_a_field_optional_for_100_days_passes_with_a_warning(github, app_url):
    repo, pull = _promotion_pull(github, "promote-late", days=100)
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "success"
    since = (datetime.now(timezone.utc) - timedelta(days=100)).date().isoformat()
    assert "JSONSCHEMA_PROPERTY_MADE_REQUIRED" in run.output["summary"]
    assert f"Optional since {since}, 100 days; producers that still omit it will now fail." \
        in run.output["summary"]


def test_promoting_a_field_optional_for_10_days_fails_naming_the_date(github, app_url):
    head = PHONE_REQUIRED.replace('"phone": {"type": "string"}',
                                  '"phone": {"type": "string"},\n    "email": {"type": "string"}')
    repo, pull = _promotion_pull(github, "promote-early", days=10, head=head)
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure"
    allowed = (datetime.now(timezone.utc) + timedelta(days=80)).date().isoformat()
    assert f"may become required from {allowed}" in run.output["summary"]
    calendar = run.output["summary"].split("### Migrations in flight", 1)[1]
    assert "`Customer.email` | optional, pending promotion to required | this change" in calendar


def test_the_calendar_reads_every_files_history_in_a_constant_number_of_calls(github, app_url):
    """20 JSON Schemas, each with an optional property, a deprecated one and a new one: their
    histories (two versions each) are one GraphQL query for the commits and one for the texts
    of the older versions (the base's own were fetched with the review)."""
    base = JSON_BASE.replace('"phone": {"type": "string"}',
                             '"phone": {"type": "string"},\n    "fax": {"type": "string"}')
    head = base.replace('"fax": {"type": "string"}', '"fax": {"type": "string", "deprecated": true},'
                        '\n    "faxNumber": {"type": "string"}')
    files = {f"schemas/c{i:02}.schema.json": JSON_BASE for i in range(20)}
    repo = github.create_repo("acme", "calendar", files)
    repo.commit("main", {path: base for path in files}, "Add fax")
    repo.commit("feature", {path: head for path in files}, "Replace fax", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Replace fax")
    github.clear_calls()
    run = review_of(github, app_url, repo, pull)
    calendar = run.output["summary"].split("### Migrations in flight", 1)[1]
    # 20 double-writes and 20 new optional properties pending promotion, file by file; 15 shown.
    assert calendar.count("| double-write, replaced by `Customer.faxNumber` | this change |") == 8
    assert calendar.count("| optional, pending promotion to required | this change |") == 7
    assert "…and 25 more" in calendar
    reads = collections.Counter(c.operation for c in github.calls
                                if c.operation in ("graphql", "repos/list-commits"))
    assert reads == {"graphql": 3}, reads  # the review's query, the histories, the older texts
