"""An override never comes from whoever pushed the change, even a push GitHub sent no
`synchronize` for: made while the pull request was closed, or whose delivery was lost
(issue 18 item 5; bot/github/pushers.py). The head must be explained by the App's push log."""
from tests.integration.conftest import settle
from tests.integration.test_commands import ADD_LEVEL, REASON, check, comment, reactions, replies
from tests.integration.test_review_flow import AVRO_BASE, open_pull, review_of, send
from tests.security.commands_flow import clock_ahead

UNEXPLAINED = "I can't accept this override: I have no record of who pushed `{sha}`"


def octocats_pull(github, app_url, *, opened: bool = True):
    """octocat's pull request changing only the README; `member` (write) and `maintainer` may override."""
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE}, {"README.md": "contracts\n"})
    if opened:
        send(github, app_url, "pull_request", github.pull_request_event("opened", pull))
        settle(github)
    github.set_permission(repo.owner, repo.name, "member", "write")
    github.set_permission(repo.owner, repo.name, "maintainer", "maintain", role_name="maintain")
    return repo, pull


def break_as_octocat(repo) -> None:
    """A breaking commit whose author and committer emails are octocat's, whoever pushes it."""
    repo.commit("feature", {"schemas/user.avsc": AVRO_BASE.replace(*ADD_LEVEL)}, "Add level", by="octocat")


def override(github, app_url, repo, pull, user):
    """The command's reaction, the App's reply to `user`, and the check's conclusion after it.
    Written a few seconds after the pushes: in a push's own second (GitHub's times have
    one-second resolution) the head before it may have been on screen too, and an override
    covers only what both heads had (tests/security/test_override_binding.py)."""
    with clock_ahead(github, 3):
        command = comment(github, app_url, pull, f"/schema-override {REASON}", user)
    (reply,) = [b for b in replies(github, repo, pull) if b.startswith(f"@{user} ")][-1:]
    return reactions(github, command), reply, check(github, repo, pull).conclusion


def test_a_push_made_while_closed_is_the_reopeners_and_they_cannot_override_it(github, app_url):
    """The attack: member pushes while the pull request is closed (no `synchronize`), reopens it
    and overrides their own change. Refused; an uninvolved maintainer still may."""
    repo, pull = octocats_pull(github, app_url)
    break_as_octocat(repo)
    send(github, app_url, "pull_request", github.pull_request_event("reopened", pull, sender="member"))
    settle(github)
    assert check(github, repo, pull).conclusion == "failure"
    assert override(github, app_url, repo, pull, "member") == (
        ["-1"], f"@member I can't accept this override: you reopened this pull request at "
                f"`{pull.head_sha[:7]}` in this pull request, and this repository asks that its breaking "
                "changes be accepted by someone who did not write or push them (`override.allow_committers` "
                "in `.github/schema-review.yml`); please ask another maintainer.", "failure")
    reaction, _reply, conclusion = override(github, app_url, repo, pull, "maintainer")
    assert (reaction, conclusion) == (["+1"], "success")


def test_a_push_whose_delivery_was_lost_clears_nobody_until_it_is_redelivered(github, app_url):
    """member's `synchronize` never arrived; octocat pushed on top. Nobody knows who pushed the
    breaking commit: refused for everyone (fail closed). Once GitHub redelivers it (the queue's
    recovery), the log names member, who is refused, and the maintainer may override."""
    repo, pull = octocats_pull(github, app_url)
    break_as_octocat(repo)
    lost = github.pull_request_event("synchronize", pull, sender="member")
    repo.commit("feature", {"README.md": "contracts, more\n"}, "Docs", by="octocat")
    send(github, app_url, "pull_request", github.pull_request_event("synchronize", pull))
    settle(github)
    assert check(github, repo, pull).conclusion == "failure"
    for user in ("member", "maintainer"):
        reaction, reply, conclusion = override(github, app_url, repo, pull, user)
        assert (reaction, conclusion) == (["-1"], "failure")
        assert reply.startswith(f"@{user} " + UNEXPLAINED.format(sha=pull.head_sha[:7])), reply
        assert "`override.allow_committers` in `.github/schema-review.yml`" in reply
    send(github, app_url, "pull_request", lost)
    settle(github)
    reaction, reply, conclusion = override(github, app_url, repo, pull, "member")
    assert (reaction, conclusion) == (["-1"], "failure")
    assert reply.startswith(f"@member I can't accept this override: you pushed `{lost['after'][:7]}`"), reply
    reaction, _reply, conclusion = override(github, app_url, repo, pull, "maintainer")
    assert (reaction, conclusion) == (["+1"], "success")


def test_a_pull_request_the_app_never_saw_opened_clears_nobody(github, app_url):
    """No `opened` delivery (lost, or the App was installed later): whoever pushed is unknown."""
    repo, pull = octocats_pull(github, app_url, opened=False)
    break_as_octocat(repo)
    assert review_of(github, app_url, repo, pull, action="ready_for_review").conclusion == "failure"
    reaction, reply, conclusion = override(github, app_url, repo, pull, "maintainer")
    assert (reaction, conclusion) == (["-1"], "failure")
    assert reply.startswith("@maintainer " + UNEXPLAINED.format(sha=pull.head_sha[:7])), reply


def test_closing_and_reopening_to_rerun_checks_involves_nobody(github, app_url):
    """The ordinary flow: octocat pushes, a maintainer closes and reopens the unchanged pull
    request, then overrides it."""
    repo, pull = octocats_pull(github, app_url)
    break_as_octocat(repo)
    send(github, app_url, "pull_request", github.pull_request_event("synchronize", pull))
    send(github, app_url, "pull_request", github.pull_request_event("reopened", pull, sender="maintainer"))
    settle(github)
    assert check(github, repo, pull).conclusion == "failure"
    reaction, _reply, conclusion = override(github, app_url, repo, pull, "maintainer")
    assert (reaction, conclusion) == (["+1"], "success")
