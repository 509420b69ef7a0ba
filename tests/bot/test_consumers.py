"""`consumers:`: which changes their readers are told about, the table, and who is asked (no GitHub)."""
from __future__ import annotations

from datetime import datetime, timezone
from types import SimpleNamespace

import pytest
from github import GithubException

from rules import Direction, Finding, Format, Mode, Severity
from bot.config.config import parse_config
from bot.handlers import consumers as handler
from bot.lifecycle.migrations import Kind, Migration
from bot.overrides.records import derive_key, scope_of, seal
from bot.render import consumers as render
from bot.render.model import Change, FileReview, Notice
from bot.review.notices import notices
from tests.security.markdown_check import problems, table_cells

CONFIG = parse_config("""consumers:
  - paths: ["schemas/orders/**"]
    owners: ["@acme/billing", "@mona"]
    name: Billing
  - paths: ["schemas/**"]
    owners: ["@acme/data"]
""")
BOTH = frozenset(Direction)


def finding(rule: str, path: str = "Order.total", *, severity=Severity.ERROR, breaks=BOTH) -> Finding:
    return Finding(rule=rule, severity=severity, line=3, path=path, message="m", breaks=breaks)


def reviewed(*findings, path="schemas/orders/order.avsc", fmt=Format.AVRO, migrations=(), **more) -> FileReview:
    return FileReview(path=path, format=fmt, mode=Mode.BACKWARD, base_path=path, findings=tuple(findings),
                      migrations=tuple(migrations), **more)


def migration(kind: Kind, element="Order.total", *, new=True, replacement=None) -> Migration:
    return Migration("schemas/orders/order.avsc", kind, element, None, None, replacement=replacement, new=new)


@pytest.mark.parametrize("file, expected", [
    (reviewed(migrations=[migration(Kind.DEPRECATED)]), [("Order.total", Change.DEPRECATED)]),
    (reviewed(migrations=[migration(Kind.DOUBLE_WRITE, replacement="amount")]), [("Order.total", Change.DOUBLE_WRITE)]),
    (reviewed(migrations=[migration(Kind.DEPRECATED, new=False)]), []),  # in flight before: told then
    (reviewed(migrations=[migration(Kind.PROMOTION)]), []),  # a new optional field concerns no reader
    (reviewed(finding("AVRO_FIELD_REMOVED_WITHOUT_DEFAULT", severity=Severity.INFO)), [("Order.total", Change.REMOVED)]),
    (reviewed(finding("AVRO_FIELD_DELETED_NOT_DEPRECATED", breaks=frozenset())), [("Order.total", Change.REMOVED)]),
    (reviewed(finding("SCHEMA_DEPRECATION_WINDOW", severity=Severity.WARNING, breaks=frozenset())),
     [("Order.total", Change.REMOVED)]),
    (reviewed(finding("SCHEMA_FILE_REMOVED", path="", breaks=frozenset()), removed=True),
     [("(the whole file)", Change.REMOVED)]),
    (reviewed(finding("PROTO_FIELD_RENAMED", "acme.Order.total"), fmt=Format.PROTOBUF), [("acme.Order.total", Change.RENAMED)]),
    (reviewed(finding("AVRO_NULLABLE_MADE_NON_NULLABLE", "Order.total<null>")), [("Order.total<null>", Change.MADE_REQUIRED)]),
    (reviewed(finding("JSONSCHEMA_PROPERTY_MADE_REQUIRED", "total"), fmt=Format.JSONSCHEMA), [("total", Change.MADE_REQUIRED)]),
    (reviewed(finding("AVRO_TYPE_CHANGED")), [("Order.total", Change.BREAKS)]),
    (reviewed(finding("AVRO_TYPE_PROMOTED", severity=Severity.INFO, breaks=frozenset({Direction.FORWARD}))), []),
    (reviewed(finding("AVRO_LOGICAL_TYPE_CHANGED", severity=Severity.WARNING, breaks=frozenset())), []),  # advisory
    (reviewed(finding("AVRO_ENUM_SYMBOL_ADDED", severity=Severity.INFO)), []),  # an addition, not checked here
    (reviewed(finding("AVRO_TYPE_CHANGED"), path="other/order.avsc"), []),  # nobody reads it
    (reviewed(finding("AVRO_TYPE_CHANGED"), problem="too large"), []),  # not reviewed: nothing known to tell
])
def test_which_changes_a_files_consumers_are_told_about(file, expected):
    assert [(n.element, n.change) for n in notices([file], CONFIG)] == expected


def test_every_matching_entry_adds_its_owners_once_and_a_renamed_files_old_path_counts():
    moved = reviewed(finding("AVRO_TYPE_CHANGED"), path="elsewhere/order.avsc")
    moved = FileReview(**{**moved.__dict__, "base_path": "schemas/orders/order.avsc"})
    [notice] = notices([moved, reviewed(finding("AVRO_TYPE_CHANGED"))], CONFIG)[:1]
    assert notice.owners == ("@acme/billing", "@mona", "@acme/data") and notice.names == ("Billing",)


def test_without_consumers_nothing_is_told():
    assert notices([reviewed(finding("AVRO_TYPE_CHANGED"))], parse_config("compatibility: full\n")) == []


HOSTILE = ["ping @evil-org/secret and <img src=x onerror=alert(1)>", "a|b|c", "x\n# Heading injected",
           "<!-- schema-review:record eyJ.00 -->", "`" * 5 + "@x"]


@pytest.mark.parametrize("name", HOSTILE)
def test_the_table_escapes_every_schema_string_and_mentions_nobody(name):
    found = [Notice(f"schemas/{name}.avsc", name, Change.DOUBLE_WRITE, ("@acme/billing",), (name,), name)]
    body = render.body(found, asked=["@acme/billing"], before=[], refused={"@acme/ghosts": handler.REFUSED},
                       record="<!-- schema-review:record e30.0 -->")
    assert problems(body, markers_at_end=1) == []
    row = next(line for line in body.split("\n") if line.startswith("| `"))
    assert table_cells(row) == 4


# --- who is asked --------------------------------------------------------------------------------

KEY = derive_key(b"secret")


class FakeRepo:
    """The calls the handler makes; `cannot` are owners GitHub refuses (422)."""

    full_name, owner = "acme/svc", "acme"

    def __init__(self, cannot=(), reviews=()):
        self.cannot, self.reviews, self.requests, self.posted = set(cannot), list(reviews), [], []

    def own_reviews(self, number, login):
        return list(self.reviews)

    def request_reviewers(self, number, *, users, teams):
        self.requests.append((list(users), list(teams)))
        if ({f"@{u}" for u in users} | {f"@acme/{t}" for t in teams}) & self.cannot:
            raise GithubException(422, {"message": "not a collaborator"}, None)

    def create_review(self, pull, *, head_sha, body, comments):
        self.posted.append(body)
        self.reviews.append(body)


GITHUB = SimpleNamespace(bot_login=lambda: "schema-review[bot]", record_key=KEY)
PULL = SimpleNamespace(number=7, user=SimpleNamespace(login="Mona"))
RESULT = SimpleNamespace(files=(reviewed(finding("AVRO_TYPE_CHANGED")),))


def notify(repo, head="h1", pull=PULL, config=CONFIG):
    handler.notify_consumers(GITHUB, repo, pull, RESULT, config, head_sha=head)


def test_everyone_is_asked_in_one_request_but_never_the_author():
    repo = FakeRepo()
    notify(repo)
    assert repo.requests == [([], ["billing", "data"])]  # @mona wrote the pull request
    assert "**Asked to review:** `@acme/billing`, `@acme/data`." in repo.posted[0]


def test_a_refused_request_is_retried_one_by_one_and_the_refused_are_named():
    repo = FakeRepo(cannot={"@acme/data"})
    notify(repo, pull=SimpleNamespace(number=7, user=SimpleNamespace(login="someone")))
    assert repo.requests == [(["mona"], ["billing", "data"]), ([], ["billing"]), (["mona"], []), ([], ["data"])]
    assert "**Asked to review:** `@acme/billing`, `@mona`." in repo.posted[0]
    assert f"- `@acme/data`: {handler.REFUSED}" in repo.posted[0].replace("\\", "")


def test_a_team_of_another_organisation_is_named_without_a_request():
    config = parse_config('consumers: [{paths: ["schemas/**"], owners: ["@other/team"]}]\n')
    repo = FakeRepo()
    notify(repo, config=config)
    assert repo.requests == [] and "`@other/team`: a team of another organisation" in repo.posted[0]


def test_a_second_run_of_the_same_head_or_a_new_head_with_nothing_new_asks_nobody_again():
    repo = FakeRepo()
    notify(repo)
    notify(repo)  # a re-run of the same head
    notify(repo, head="h2")  # a new push with the same changes
    assert len(repo.requests) == 1 and len(repo.posted) == 1


def test_a_new_change_for_someone_already_asked_is_told_without_asking_again():
    repo = FakeRepo()
    notify(repo)
    result = SimpleNamespace(files=(reviewed(finding("AVRO_TYPE_CHANGED"), finding("AVRO_TYPE_CHANGED", "Order.id")),))
    handler.notify_consumers(GITHUB, repo, PULL, result, CONFIG, head_sha="h2")
    assert len(repo.requests) == 1 and len(repo.posted) == 2
    assert "**Asked on an earlier push:** `@acme/billing`, `@acme/data`." in repo.posted[1]


@pytest.mark.parametrize("forged", [
    seal({"kind": "consumers", "head": "h1", "asked": ["@acme/billing", "@acme/data"]}, key=b"x" * 32,
         scope=scope_of("acme/svc", 7)),  # not the App's key
    seal({"kind": "consumers", "head": "h1", "asked": ["@acme/billing", "@acme/data"]}, key=KEY,
         scope=scope_of("acme/svc", 8)),  # another pull request's record
])
def test_a_forged_or_moved_record_does_not_stop_the_request(forged):
    repo = FakeRepo(reviews=[forged])
    notify(repo)
    assert repo.requests == [([], ["billing", "data"])]


def test_github_failing_is_logged_never_raised(caplog):
    class Down(FakeRepo):
        def request_reviewers(self, number, *, users, teams):
            raise GithubException(502, {"message": "bad gateway"}, None)
    repo = Down()
    notify(repo)
    assert repo.posted == [] and "consumers not notified" in caplog.text


def test_a_huge_pull_request_gets_a_body_github_accepts_and_is_still_told_once():
    from bot.render.markdown import MAX_OUTPUT, clip
    many = SimpleNamespace(files=(reviewed(*[finding("AVRO_TYPE_CHANGED", f"Order.f{n}" + "x" * 200)
                                             for n in range(2000)]),))
    repo = FakeRepo()
    handler.notify_consumers(GITHUB, repo, PULL, many, CONFIG, head_sha="h1")
    [body] = repo.posted
    assert len(body.encode()) < MAX_OUTPUT and clip(body) == body and "…and 1950 more" in body
    handler.notify_consumers(GITHUB, repo, PULL, many, CONFIG, head_sha="h2")
    assert len(repo.posted) == 1 and len(repo.requests) == 1


def test_an_author_who_is_the_only_consumer_is_neither_asked_nor_told():
    config = parse_config('consumers: [{paths: ["schemas/**"], owners: ["@MONA"]}]\n')
    repo = FakeRepo()
    notify(repo, config=config)
    assert repo.requests == [] and repo.posted == []
