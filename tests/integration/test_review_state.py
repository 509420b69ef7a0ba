"""The review state query follows long histories: an override record or the App's own comment
on an older page still counts (GraphQL returns the newest 100 of each per page)."""
from __future__ import annotations

import pytest

from tests.security.commands_flow import (check, deliver_comment, failing_pull, push, review_of,
                                          settle)

REASON = "consumers migrated together, see INC-12"


@pytest.mark.parametrize("chatter", [99, 250])
def test_an_override_on_an_older_page_of_the_conversation_still_holds(github, app_url, chatter):
    repo, pull = failing_pull(github, app_url, "avro", ["a"])
    github.set_permission(repo.owner, repo.name, "maintainer", "write")
    deliver_comment(github, app_url, github.issue_comment_event(pull, f"/schema-override {REASON}", "maintainer"))
    assert check(github, repo, pull.head_sha).conclusion == "success"
    for index in range(chatter):
        github.add_issue_comment(pull, f"comment {index}")
    run = push(github, app_url, repo, pull, "avro", ["a"])  # same breaking change, new head
    assert run.conclusion == "success", run.output
    assert sum(1 for c in github.calls if c.operation == "graphql") >= 1 + chatter // 100


@pytest.mark.parametrize("threads", [60, 230])
def test_the_apps_comment_on_an_older_page_of_threads_is_not_posted_again(github, app_url, threads):
    repo, pull = failing_pull(github, app_url, "avro", ["a"])
    (ours,) = [c for c in github.review_comments(repo.owner, repo.name, pull.number)]
    for index in range(threads):
        github.add_review_thread(pull, f"question {index}", "s/user.avsc")
    push(github, app_url, repo, pull, "avro", ["a", "b"])  # `a` again, and a new one
    settle(github)
    mine = [c for c in github.review_comments(repo.owner, repo.name, pull.number) if c.user_type == "Bot"]
    assert len(mine) == 2, [c.body[:60] for c in mine]  # `a` once (no spam), `b` new
    push(github, app_url, repo, pull, "avro", ["b"])  # `a` fixed: its old comment is resolved
    settle(github)
    first = next(c for c in github.review_comments(repo.owner, repo.name, pull.number) if c.id == ours.id)
    assert first.is_minimized and "Resolved" in first.body
