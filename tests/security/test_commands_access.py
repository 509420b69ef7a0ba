"""Attack 7 (commands): strangers get nothing, and `recheck` cannot be used to flood a PR.

Anyone who can comment on a pull request can send a command; on a public repository that is
anyone with an account. Without at least read access the App does not answer at all; with it,
`/schema-review recheck` runs at most once per window per pull request, and a refused recheck
gets a reaction, never a reply, so replies stay bounded by the App's own limit.
"""
from __future__ import annotations

import pytest

from tests.security.commands_flow import (check, clock_ahead, deliver_comment, failing_pull, reactions,
                                          replies)

COMMANDS = ["/schema-review help", "/schema-review recheck", "/schema-override revoke",
            "/schema-override every consumer is already on the new schema",
            "/schema-override AVRO_FIELD_ADDED_WITHOUT_DEFAULT -- every consumer migrated",
            "/schema-oops <b>what</b>", "/schema-review", "/schema-override"]


@pytest.mark.parametrize("permission", [None, "none"])
def test_commands_from_people_without_read_access_get_no_answer(github, app_url, permission):
    repo, pull = failing_pull(github, app_url, "avro", ["a"])
    stranger = f"stranger-{permission}"
    if permission:
        github.set_permission(repo.owner, repo.name, stranger, permission)
    (run,) = [r for r in github.check_runs(repo.owner, repo.name, pull.head_sha) if r.name == "schema-review"]
    updates = run.updates
    github.clear_calls()
    sent = []
    for body in COMMANDS:
        payload = github.issue_comment_event(pull, body, stranger)
        sent.append(payload["comment"]["id"])
        deliver_comment(github, app_url, payload, answered=False)
    assert replies(github, repo, pull) == []
    assert all(reactions(github, comment_id) == [] for comment_id in sent)
    assert check(github, repo, pull.head_sha).updates == updates
    writes = [f"{c.method} {c.path}" for c in github.calls if c.method != "GET" and "/app/installations" not in c.path]
    assert writes == []


@pytest.mark.parametrize("level", ["read", "triage", "write"])
def test_read_access_is_enough_for_help(github, app_url, level):
    repo, pull = failing_pull(github, app_url, "jsonschema", ["a"])
    github.set_permission(repo.owner, repo.name, "reader", level)
    deliver_comment(github, app_url, github.issue_comment_event(pull, "/schema-review help", "reader"))
    (reply,) = replies(github, repo, pull)
    assert "/schema-override revoke" in reply


@pytest.mark.parametrize("burst", [2, 6])
def test_recheck_runs_once_per_window_and_answers_the_rest_with_a_reaction(github, app_url, burst):
    repo, pull = failing_pull(github, app_url, "protobuf", ["a"])
    github.set_permission(repo.owner, repo.name, "reader", "read")
    (run,) = [r for r in github.check_runs(repo.owner, repo.name, pull.head_sha) if r.name == "schema-review"]
    before = run.updates
    sent = []
    for _ in range(burst):
        payload = github.issue_comment_event(pull, "/schema-review recheck", "reader")
        sent.append(payload["comment"]["id"])
        deliver_comment(github, app_url, payload)
    assert len(replies(github, repo, pull)) == 1
    assert [reactions(github, c) for c in sent] == [["+1"]] + [["eyes"]] * (burst - 1)
    once = check(github, repo, pull.head_sha).updates
    assert once > before
    # After the window (60 s by default) a recheck runs again, once.
    with clock_ahead(github, 61):
        payload = github.issue_comment_event(pull, "/schema-review recheck", "reader")
        deliver_comment(github, app_url, payload)
        again = github.issue_comment_event(pull, "/schema-review recheck", "reader")
        deliver_comment(github, app_url, again)
    assert reactions(github, payload["comment"]["id"]) == ["+1"]
    assert reactions(github, again["comment"]["id"]) == ["eyes"]
    assert len(replies(github, repo, pull)) == 2
    assert check(github, repo, pull.head_sha).updates > once


def test_the_recheck_window_is_per_pull_request(github, app_url):
    first_repo, first = failing_pull(github, app_url, "avro", ["a"])
    second_repo, second = failing_pull(github, app_url, "avro", ["b"])
    for repo in (first_repo, second_repo):
        github.set_permission(repo.owner, repo.name, "reader", "read")
    for pull in (first, second):
        payload = github.issue_comment_event(pull, "/schema-review recheck", "reader")
        deliver_comment(github, app_url, payload)
        assert reactions(github, payload["comment"]["id"]) == ["+1"]
