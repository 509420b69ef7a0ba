"""/schema-override and /schema-review on the local GitHub emulator, through the real App."""
import pytest

from tests.integration.conftest import settle, wait_for_check
from tests.integration.test_review_flow import AVRO_BASE, open_pull, review_of, send
from tests.security.commands_flow import clock_ahead

ADD_LEVEL = ('{"name": "email", "type": "string"}',
             '{"name": "email", "type": "string"},\n    {"name": "level", "type": "int"}')
ADD_TWO = ('{"name": "email", "type": "string"}',
           '{"name": "emailAddress", "type": "string"},\n    {"name": "level", "type": "int"}')
REASON = "consumers already migrated, see INC-123"


@pytest.fixture
def failing(github, app_url):
    """A pull request by octocat whose head adds a required Avro field (one breaking change)."""
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE},
                           {"schemas/user.avsc": AVRO_BASE.replace(*ADD_LEVEL)})
    assert review_of(github, app_url, repo, pull).conclusion == "failure"
    github.set_permission(repo.owner, repo.name, "maintainer", "maintain", role_name="maintain")
    return repo, pull


def comment(github, app_url, pull, body, user, *, user_type="User"):
    payload = github.issue_comment_event(pull, body, user, user_type=user_type)
    send(github, app_url, "issue_comment", payload)
    settle(github)
    comment.last = payload["comment"]
    return payload["comment"]["id"]


def check(github, repo, pull):
    (run,) = wait_for_check(github, repo, pull.head_sha)
    return run


def replies(github, repo, pull):
    return [c.body for c in github.issue_comments(repo.owner, repo.name, pull.number) if c.user_type == "Bot"]


def reactions(github, comment_id):
    return [r.content for r in github.reactions(comment_id)]


def test_maintainer_override_turns_the_check_green_with_an_audit_trail(github, app_url, failing):
    repo, pull = failing
    command = comment(github, app_url, pull, f"/schema-override {REASON}", "maintainer")
    run = check(github, repo, pull)
    assert run.conclusion == "success"
    assert run.output["title"] == "Overridden by @maintainer"
    assert REASON in run.output["summary"] and "AVRO_FIELD_ADDED_WITHOUT_DEFAULT" in run.output["summary"]
    assert f"[comment]({comment.last['html_url']})" in run.output["summary"]
    assert reactions(github, command) == ["+1"]
    assert any("override accepted" in body for body in replies(github, repo, pull))


def test_read_only_org_member_is_refused_politely(github, app_url, failing):
    repo, pull = failing
    github.set_permission(repo.owner, repo.name, "reader", "read")
    command = comment(github, app_url, pull, f"/schema-override {REASON}", "reader")
    assert check(github, repo, pull).conclusion == "failure"
    assert reactions(github, command) == ["-1"]
    (reply,) = [b for b in replies(github, repo, pull) if "@reader" in b]
    assert "`write`" in reply and "`read`" in reply


def test_author_cannot_override_own_pull_request_by_default(github, app_url, failing):
    repo, pull = failing
    github.set_permission(repo.owner, repo.name, "octocat", "admin")
    command = comment(github, app_url, pull, f"/schema-override {REASON}", "octocat")
    assert check(github, repo, pull).conclusion == "failure"
    assert reactions(github, command) == ["-1"]
    assert any("you opened this pull request" in b for b in replies(github, repo, pull))


def test_author_may_override_when_the_config_allows_it(github, app_url):
    config = "override:\n  allow_author: true\n"
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE, ".github/schema-review.yml": config},
                           {"schemas/user.avsc": AVRO_BASE.replace(*ADD_LEVEL)})
    assert review_of(github, app_url, repo, pull).conclusion == "failure"
    github.set_permission(repo.owner, repo.name, "octocat", "write")
    comment(github, app_url, pull, f"/schema-override {REASON}", "octocat")
    assert check(github, repo, pull).conclusion == "success"


def test_override_follows_findings_across_pushes(github, app_url, failing):
    repo, pull = failing
    comment(github, app_url, pull, f"/schema-override {REASON}", "maintainer")
    # A push that keeps the same finding stays overridden.
    same = AVRO_BASE.replace(*ADD_LEVEL).replace('"type": "record"', '"type": "record",\n  "doc": "users"')
    repo.commit("feature", {"schemas/user.avsc": same}, "Document")
    assert review_of(github, app_url, repo, pull, action="synchronize").conclusion == "success"
    # A push that adds another breaking change is not covered.
    worse = same.replace('{"name": "level", "type": "int"}',
                         '{"name": "level", "type": "int"},\n    {"name": "tier", "type": "string"}')
    repo.commit("feature", {"schemas/user.avsc": worse}, "Add tier")
    run = review_of(github, app_url, repo, pull, action="synchronize")
    assert run.conclusion == "failure"
    assert "1 not covered" in run.output["title"] and "UserEvent.tier" in run.output["summary"]


def test_revoke_turns_the_check_red_again(github, app_url, failing):
    repo, pull = failing
    comment(github, app_url, pull, f"/schema-override {REASON}", "maintainer")
    assert check(github, repo, pull).conclusion == "success"
    command = comment(github, app_url, pull, "/schema-override revoke", "maintainer")
    assert check(github, repo, pull).conclusion == "failure"
    assert reactions(github, command) == ["+1"]


def test_scoped_override_leaves_other_findings_failing(github, app_url):
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE},
                           {"schemas/user.avsc": AVRO_BASE.replace(*ADD_TWO)})
    assert review_of(github, app_url, repo, pull).conclusion == "failure"
    github.set_permission(repo.owner, repo.name, "maintainer", "admin")
    comment(github, app_url, pull, f"/schema-override AVRO_FIELD_ADDED_WITHOUT_DEFAULT -- {REASON}", "maintainer")
    run = check(github, repo, pull)
    assert run.conclusion == "failure" and "1 not covered" in run.output["title"]
    assert "AVRO_FIELD_RENAMED_WITHOUT_ALIAS" in run.output["summary"].split("Not covered")[1]


def test_unknown_rule_in_scope_is_refused_with_a_hint(github, app_url, failing):
    repo, pull = failing
    command = comment(github, app_url, pull, f"/schema-override PROTO_NOPE -- {REASON}", "maintainer")
    assert check(github, repo, pull).conclusion == "failure"
    assert reactions(github, command) == ["confused"]
    assert any("`PROTO_NOPE`" in b for b in replies(github, repo, pull))


@pytest.mark.parametrize("body, reply", [
    ("/schema-override", "reason of at least 10 characters"),
    ("/schema-override too short", "reason of at least 10 characters"),
    ("/schema-overide please", "not a schema-review command"),
])
def test_bad_syntax_gets_an_explanation(github, app_url, failing, body, reply):
    repo, pull = failing
    command = comment(github, app_url, pull, body, "maintainer")
    assert reactions(github, command) == ["confused"]
    assert any(reply in b for b in replies(github, repo, pull))
    assert check(github, repo, pull).conclusion == "failure"


def test_bots_and_the_app_itself_never_trigger_commands(github, app_url, failing):
    repo, pull = failing
    github.clear_calls()
    comment(github, app_url, pull, f"/schema-override {REASON}", "dependabot[bot]", user_type="Bot")
    comment(github, app_url, pull, f"/schema-override {REASON}", github.bot_login, user_type="Bot")
    assert check(github, repo, pull).conclusion == "failure"
    assert [c for c in github.calls if c.method != "GET" or "comments" in c.path] == []


def test_a_command_in_an_edited_comment_is_ignored(github, app_url, failing):
    repo, pull = failing
    original = github.add_issue_comment(pull, "looks good", user="maintainer")
    payload = github.issue_comment_event(pull, f"/schema-override {REASON}", "maintainer",
                                         action="edited", comment=original)
    send(github, app_url, "issue_comment", payload)
    settle(github)
    assert check(github, repo, pull).conclusion == "failure"
    assert reactions(github, original.id) == []


def test_help_and_recheck(github, app_url, failing):
    repo, pull = failing
    github.set_permission(repo.owner, repo.name, "someone", "read")  # commands need read access
    comment(github, app_url, pull, "/schema-review help", "someone")
    assert any("/schema-override revoke" in b and "`write`" in b for b in replies(github, repo, pull))
    (run,) = github.check_runs(repo.owner, repo.name, pull.head_sha)
    before = run.updates
    comment(github, app_url, pull, "/schema-review recheck", "someone")
    (run,) = github.check_runs(repo.owner, repo.name, pull.head_sha)
    assert run.updates > before and run.conclusion == "failure"


def test_override_button_explains_the_command(github, app_url, failing):
    repo, pull = failing
    run = check(github, repo, pull)
    assert [a["identifier"] for a in run.actions] == ["override-help"]
    send(github, app_url, "check_run", github.check_run_event("requested_action", run, identifier="override-help"))
    settle(github)
    assert any("/schema-override <reason>" in b for b in replies(github, repo, pull))


def pushed_by_member(github, app_url, *, config: str = "", sender: str = "member"):
    """octocat's pull request, to which `member` (write access) pushed a commit adding a required
    Avro field; `sender` is who the `synchronize` delivery says pushed it."""
    files = {"schemas/user.avsc": AVRO_BASE, **({".github/schema-review.yml": config} if config else {})}
    repo, pull = open_pull(github, files, {"README.md": "contracts\n"})
    send(github, app_url, "pull_request", github.pull_request_event("opened", pull))  # as GitHub does
    settle(github)
    repo.commit("feature", {"schemas/user.avsc": AVRO_BASE.replace(*ADD_LEVEL)}, "Add level", by="member")
    send(github, app_url, "pull_request", github.pull_request_event("synchronize", pull, sender=sender))
    assert check(github, repo, pull).conclusion == "failure"
    settle(github)
    github.set_permission(repo.owner, repo.name, "member", "write")
    github.set_permission(repo.owner, repo.name, "maintainer", "maintain", role_name="maintain")
    return repo, pull


@pytest.mark.parametrize("sender, did", [
    ("member", "pushed"),  # the App's push log names the pusher
    ("octocat", "authored or committed"),  # the commit list names the commit's author
])
def test_whoever_pushed_or_wrote_a_commit_cannot_override_it(github, app_url, sender, did):
    repo, pull = pushed_by_member(github, app_url, sender=sender)
    command = comment(github, app_url, pull, f"/schema-override {REASON}", "member")
    assert check(github, repo, pull).conclusion == "failure"
    assert reactions(github, command) == ["-1"]
    (reply,) = [b for b in replies(github, repo, pull) if "@member" in b]
    assert reply.startswith(f"@member I can't accept this override: you {did} `{pull.head_sha[:7]}` "
                            "in this pull request"), reply
    assert "`override.allow_committers` in `.github/schema-review.yml`" in reply


@pytest.mark.parametrize("config, user", [
    ("", "maintainer"),  # wrote and pushed nothing here
    ("override:\n  allow_committers: true\n", "member"),  # a small team allows it
])
def test_an_uninvolved_maintainer_or_an_allowed_committer_may_override(github, app_url, config, user):
    repo, pull = pushed_by_member(github, app_url, config=config)
    before = len(github.calls)
    # Written a few seconds after the push: in the push's own second (GitHub's times have
    # one-second resolution) the opened head may have been on screen too, and an override
    # covers only what both heads had (tests/security/test_override_binding.py).
    with clock_ahead(github, 3):
        command = comment(github, app_url, pull, f"/schema-override {REASON}", user)
    run = check(github, repo, pull)
    assert run.conclusion == "success" and run.output["title"] == f"Overridden by @{user}"
    assert reactions(github, command) == ["+1"]
    # The commit list for the command, again for the check it completes (the overrider must
    # still be uninvolved on every review), and none when the config makes it moot.
    listed = [c for c in github.calls[before:] if c.operation == "pulls/list-commits"]
    assert len(listed) == (0 if config else 2)
