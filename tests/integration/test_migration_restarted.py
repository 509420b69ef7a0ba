"""A migration undone and started again is a new migration: its consumers confirm again. The
tracking issue of the earlier run is closed, saying why, when the App sees the merge that undid
or restarted it; and the gate counts an issue's confirmations only for the run it was opened in,
however the migration was undone (a push the App never sees included)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tests.harness.flow import AVRO_BASE, wait_for
from tests.integration.conftest import settle
from tests.integration.test_migrations_tracked import (DEPRECATED, REMOVED, RULE, _said, check, command, deliver,
                                                       merged_deprecation, removal, replies)

FILE = "schemas/user.avsc"


def merged(github, app_url, repo, branch, text, title):
    """Merge a pull request changing the schema to `text`, and deliver the merge."""
    repo.commit(branch, {FILE: text}, title, base="main")
    pull = github.open_pull(repo.owner, repo.name, branch, "main", title)
    github.merge_pull(pull)
    github.clear_calls()
    deliver(github, app_url, "pull_request", github.pull_request_event("closed", pull))
    return pull


def confirmed_by_everyone(github, app_url, repo):
    [issue] = github.issues(repo.owner, repo.name)
    for login in ("carol", "mona"):
        command(github, app_url, issue, "/schema-migrated", login)
    assert "Every consumer has confirmed" in replies(github, repo, issue)[-1]
    return issue


def issue_patches(github):
    return [c.json for c in github.calls_to("PATCH", r"/issues/\d+$") if (c.json or {}).get("state")]


def test_a_deprecation_undone_and_made_again_needs_every_consumer_to_confirm_again(github, app_url):
    repo, _ = merged_deprecation(github, app_url)
    first = confirmed_by_everyone(github, app_url, repo)

    undo = merged(github, app_url, repo, "undeprecate", AVRO_BASE, "Un-deprecate email")
    wait_for(lambda: github.issues(repo.owner, repo.name)[0].state == "closed", what="the issue closed")
    settle(github)
    assert replies(github, repo, first)[-1] == (
        f"Pull request #{undo.number} withdrew the deprecation of `UserEvent.email`: this migration is over, "
        "and the confirmations here no longer count. Deprecating it again starts a new migration with its "
        "own tracking issue, where consumers confirm again. Closing.")
    assert issue_patches(github) == [{"state": "closed", "state_reason": "not_planned"}]
    said = len(replies(github, repo, first))
    deliver(github, app_url, "pull_request", github.pull_request_event("closed", undo))  # a redelivery
    settle(github)
    assert len(replies(github, repo, first)) == said  # no second note
    command(github, app_url, first, "/schema-migrated", "mona")  # too late: not thanked, nothing counts
    assert replies(github, repo, first)[-1] == (
        "@mona this tracking issue is closed: its migration is over (completed, or undone), so a confirmation "
        "here counts for nothing. A migration started again has its own tracking issue.")

    merged(github, app_url, repo, "redeprecate", DEPRECATED, "Deprecate email again")
    wait_for(lambda: len(github.issues(repo.owner, repo.name)) == 2, what="a new tracking issue")
    settle(github)
    second = next(i for i in github.issues(repo.owner, repo.name) if i.number != first.number)
    assert second.state == "open" and "- [ ] `@acme/billing`\n- [ ] `@mona`" in second.body

    pull = removal(github, app_url, repo)
    run = check(github, repo, pull)
    assert run.conclusion == "failure", _said(run)
    assert RULE in _said(run)
    assert ("consumers who have not confirmed they moved: @\u200bacme/billing, @\u200bmona. Tracking issue: "
            f"#\u200b{second.number}.") in _said(run), _said(run)
    for login in ("carol", "mona"):
        command(github, app_url, second, "/schema-migrated", login)
    run = check(github, repo, pull)
    assert run.conclusion == "success", _said(run)
    assert github.violations == []


def test_a_field_removed_unseen_then_added_back_deprecated_opens_a_new_issue_and_closes_the_old(github, app_url):
    repo, _ = merged_deprecation(github, app_url)
    first = confirmed_by_everyone(github, app_url, repo)
    repo.commit("main", {FILE: REMOVED}, "Remove email (pushed, no pull request)")

    again = merged(github, app_url, repo, "readd", DEPRECATED, "Add email back, deprecated")
    wait_for(lambda: len(github.issues(repo.owner, repo.name)) == 2, what="a new tracking issue")
    settle(github)
    assert [i.state for i in github.issues(repo.owner, repo.name) if i.number == first.number] == ["closed"]
    assert replies(github, repo, first)[-1].startswith(
        f"Pull request #{again.number} started a migration of `UserEvent.email` again after this one had been "
        "undone: that is a new migration, with its own tracking issue, where consumers confirm again")
    second = next(i for i in github.issues(repo.owner, repo.name) if i.number != first.number)

    pull = removal(github, app_url, repo)
    run = check(github, repo, pull)
    assert run.conclusion == "failure", _said(run)
    assert ("consumers who have not confirmed they moved: @\u200bacme/billing, @\u200bmona. Tracking issue: "
            f"#\u200b{second.number}.") in _said(run), _said(run)
    assert github.violations == []


def test_a_deprecation_undone_and_made_again_by_pushes_the_app_never_saw_is_not_confirmed(github, app_url):
    repo, _ = merged_deprecation(github, app_url)
    first = confirmed_by_everyone(github, app_url, repo)
    later = datetime.now(timezone.utc) + timedelta(minutes=1)  # after the merge, on any clock
    repo.commit("main", {FILE: AVRO_BASE}, "Un-deprecate email", author_date=later)
    repo.commit("main", {FILE: DEPRECATED}, "Deprecate email again", author_date=later + timedelta(minutes=1))

    pull = removal(github, app_url, repo)
    run = check(github, repo, pull)
    assert run.conclusion == "failure", _said(run)
    assert (f"consumers who have not confirmed they moved: @\u200bacme/billing, @\u200bmona. Tracking issue "
            f"#\u200b{first.number} was opened for an earlier run of this migration") in _said(run), _said(run)
    assert [i.state for i in github.issues(repo.owner, repo.name)] == ["open"]  # no merge: nothing closed
    assert github.violations == []
