"""What the review reads from the base branch's history: transitive modes, the deprecation and
promotion windows, the migration calendar."""
import collections
from datetime import datetime, timedelta, timezone

import pytest

from tests.integration.test_review_flow import AVRO_BASE, JSON_BASE, PROTO_BASE, open_pull, review_of
from tests.security.commands_flow import clock_ahead

DAY = 86400
NO_PHONE = JSON_BASE.replace(',\n    "phone": {"type": "string"}', "")
PHONE_REQUIRED = JSON_BASE.replace('"required": ["id"]', '"required": ["id", "phone"]')
DEPRECATED = PROTO_BASE.replace("string note = 2;", "string note = 2 [deprecated = true];")
RESERVED = PROTO_BASE.replace("  string note = 2;\n", "  reserved 2;\n  reserved \"note\";\n")
# The deleted field's name left in a comment, and a namesake in another message: neither is it.
DISGUISED = RESERVED.replace('reserved "note";', 'reserved "note"; // was: note = 2') + \
    "message Refund {\n  string note = 1;\n}\n"
TOTAL_DEPRECATED = DEPRECATED.replace("int64 total = 3;", "int64 total = 3 [deprecated = true];")


@pytest.mark.parametrize("head", [RESERVED, DISGUISED], ids=["reserved", "name-left-elsewhere"])
def test_deleting_a_field_deprecated_three_days_ago_warns_about_the_window(github, app_url, head):
    refund = "message Refund {\n  string note = 1;\n}\n" if head is DISGUISED else ""
    repo = github.create_repo("acme", f"window-{len(refund)}", {"proto/order.proto": PROTO_BASE + refund})
    three_days_ago = datetime.now(timezone.utc) - timedelta(days=3)
    repo.commit("main", {"proto/order.proto": DEPRECATED + refund}, "Deprecate note",
                author_date=three_days_ago)
    repo.commit("feature", {"proto/order.proto": head}, "Remove note", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Remove note")
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "success"  # reserved correctly: only the window warns
    assert "SCHEMA_DEPRECATION_WINDOW" in run.output["summary"]
    # Pushed straight to main, no pull request merged it: the commit's own date, and said so.
    marked = three_days_ago.date().isoformat()
    assert f"3 days after it was marked deprecated on {marked} (commit date)" in run.output["summary"]


def _backdated_deprecation(github, name, *, squash):
    """`note` deprecated by a commit its author dated 60 days ago (author and committer dates),
    brought to main by a pull request merged today."""
    repo = github.create_repo("acme", name, {"proto/order.proto": PROTO_BASE})
    repo.commit("deprecate", {"proto/order.proto": DEPRECATED}, "Deprecate note", base="main",
                author_date=datetime.now(timezone.utc) - timedelta(days=60))
    github.merge_pull(github.open_pull(repo.owner, repo.name, "deprecate", "main", "Deprecate note"),
                      squash=squash)
    return repo


@pytest.mark.parametrize("squash", [False, True], ids=["merge-commit", "squash"])
def test_a_backdated_deprecation_is_dated_by_the_merge_of_its_pull_request(github, app_url, squash):
    """Deleting the field today is inside the window GitHub's clock gives, whatever date the
    author wrote into the commit; the finding says which clock it used."""
    repo = _backdated_deprecation(github, f"backdated-{squash}", squash=squash)
    repo.commit("feature", {"proto/order.proto": RESERVED}, "Remove note", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Remove note")
    run = review_of(github, app_url, repo, pull)
    today = datetime.now(timezone.utc).date()
    assert "SCHEMA_DEPRECATION_WINDOW" in run.output["summary"]
    assert (f"on the day it was marked deprecated, {today.isoformat()} (merged on GitHub); the "
            f"deprecation window is 14 days, so it may be deleted from "
            f"{(today + timedelta(days=14)).isoformat()}") in run.output["summary"]


def test_the_calendar_dates_a_backdated_deprecation_by_the_merge_of_its_pull_request(github, app_url):
    repo = _backdated_deprecation(github, "backdated-calendar", squash=False)
    repo.commit("feature", {"proto/order.proto": TOTAL_DEPRECATED}, "Deprecate total", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Deprecate total")
    calendar = review_of(github, app_url, repo, pull).output["summary"].split("### Migrations in flight", 1)[1]
    today = datetime.now(timezone.utc).date()
    assert (f"| `Order.note` | deprecated | {today.isoformat()} (merged on GitHub) | removable from "
            f"{(today + timedelta(days=14)).isoformat()} |") in calendar
    assert "| `Order.total` | deprecated | this change |" in calendar


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
    assert f"Optional since {since} (commit date), 100 days; producers that still omit it will now fail." \
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


@pytest.mark.parametrize("kept_ours", [True, False], ids=["side-branch-kept-ours", "straight"])
def test_an_undeprecation_on_main_is_not_skipped_by_a_merge_that_keeps_an_older_version(
        github, app_url, kept_ours):
    """`note` deprecated 70 days ago, un-deprecated 40 days ago, deprecated again today by a
    pull request whose branch was cut from the first deprecation and merged main with `-s ours`:
    GitHub's `history(path:)` follows that branch past main's un-deprecation, yet the
    deprecation counts from today's merge either way."""
    repo = github.create_repo("acme", f"undeprecated-{kept_ours}", {"proto/order.proto": PROTO_BASE})
    with clock_ahead(github, -70 * DAY):
        first = repo.commit("deprecate", {"proto/order.proto": DEPRECATED}, "Deprecate", base="main")
        github.merge_pull(github.open_pull(repo.owner, repo.name, "deprecate", "main", "Deprecate"))
    with clock_ahead(github, -40 * DAY):
        repo.commit("restore", {"proto/order.proto": PROTO_BASE}, "Un-deprecate", base="main")
        github.merge_pull(github.open_pull(repo.owner, repo.name, "restore", "main", "Un-deprecate"))
    again = DEPRECATED.replace("int64 total", "uint64 total")
    repo.commit("again", {"proto/order.proto": again}, "Deprecate again",
                base=first if kept_ours else "main")
    if kept_ours:
        repo.commit("again", {"proto/order.proto": again}, "Merge main, keep ours",
                    merged=(repo.sha("main"),))
    github.merge_pull(github.open_pull(repo.owner, repo.name, "again", "main", "Deprecate again"))
    repo.commit("feature", {"proto/order.proto": RESERVED.replace("int64 total", "uint64 total")},
                "Remove note", base="main")
    run = review_of(github, app_url, repo,
                    github.open_pull(repo.owner, repo.name, "feature", "main", "Remove note"))
    today = datetime.now(timezone.utc).date().isoformat()
    assert f"on the day it was marked deprecated, {today} (merged on GitHub)" in run.output["summary"]
