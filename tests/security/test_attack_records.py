"""Red team: a sealed record moved between the App's own comments.

Anyone with write access may edit any comment of the repository, the App's replies included
(GitHub: "Anyone with write access to a repository can edit comments on issues, pull requests,
and commits"). The MAC binds a record to the pull request, not to the comment that carries it
or to its place in the sequence: a pull request author with write access, who may not override
their own change (`allow_author: false`), pastes an earlier override record at the end of
the App's reply to a later revoke, or deletes that reply. The revoke is gone, the old
override counts again.
"""
from __future__ import annotations

import pytest

from bot.overrides.records import MARKER_PATTERN
from tests.security.commands_flow import (check, deliver_comment, failing_pull, replies, review_of)

REASON = "every consumer was upgraded in the same deploy"


@pytest.mark.parametrize("how", ["edit", "delete"])
@pytest.mark.parametrize("fmt", ["avro", "protobuf"])
def test_an_edited_or_deleted_app_reply_cannot_bring_back_a_revoked_override(github, app_url, fmt, how):
    repo, pull = failing_pull(github, app_url, fmt, ["a"])
    github.set_permission(repo.owner, repo.name, "maintainer", "admin")
    github.set_permission(repo.owner, repo.name, pull.user, "write")  # the author: write, not allowed
    deliver_comment(github, app_url, github.issue_comment_event(pull, f"/schema-override {REASON}", "maintainer"))
    assert check(github, repo, pull.head_sha).conclusion == "success"
    # The author copies the override's record while it is there (the App strikes it on revoke).
    (accepted,) = [b for b in replies(github, repo, pull) if "override accepted" in b]
    override_record = MARKER_PATTERN.search(accepted).group(0)
    deliver_comment(github, app_url, github.issue_comment_event(pull, "/schema-override revoke", "maintainer"))
    run = check(github, repo, pull.head_sha)
    assert run.conclusion == "failure", run.output
    (accepted,) = [b for b in replies(github, repo, pull) if "override accepted" in b]
    assert MARKER_PATTERN.search(accepted) is None and "Withdrawn by @maintainer" in accepted
    (revoke,) = [c for c in github.issue_comments(repo.owner, repo.name, pull.number)
                 if c.user_type == "Bot" and "withdrawn" in c.body]
    if how == "edit":
        # The author edits the App's revoke reply (PATCH /issues/comments/{id}): its last record
        # now is the override the revoke withdrew.
        github.edit_issue_comment(revoke.id, revoke.body + "\n\n" + override_record)
    else:  # or deletes it (DELETE /issues/comments/{id}): write access suffices for that too
        del github.state.issue_comments[revoke.id]

    repo.commit("feature", {"README.md": "touch\n"}, "Unrelated push")  # any re-review will do
    run = review_of(github, app_url, repo, pull, action="synchronize")
    assert run.conclusion == "failure", (
        f"the revoked override counts again after a {how} of the App's reply: {run.output['title']}")
