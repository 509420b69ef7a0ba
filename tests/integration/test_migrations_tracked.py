"""A migration has a home, and the gate uses it: merging a deprecation of a file with `consumers:`
opens one tracking issue; removing the field fails until every consumer (and only a real one) has
confirmed there with `/schema-migrated`; edited or forged confirmations count for nothing; a
revoke restores the failure; after the window an unconfirmed consumer is a warning; the merge
that completes the migration closes the issue."""
from __future__ import annotations

import itertools
from datetime import datetime, timedelta, timezone

from tests.harness.flow import AVRO_BASE, wait_for
from tests.integration.conftest import SECRET, settle, wait_for_check

_names = itertools.count()
CONFIG = ".github/schema-review.yml"
CONSUMERS = """consumers:
  - paths: ["schemas/**"]
    owners: ["@acme/billing", "@mona"]
    name: Billing
"""
DEPRECATED = AVRO_BASE.replace('{"name": "email", "type": "string"}',
                               '{"name": "email", "type": "string", "deprecated": true}')
REMOVED = AVRO_BASE.replace(',\n    {"name": "email", "type": "string"}', "")
RULE = "SCHEMA_CONSUMERS_MIGRATION"


def deliver(github, app_url, event, payload):
    response = github.deliver(app_url + "/webhook", event, payload, SECRET)
    assert response.status_code in (200, 202), response.text


def merged_deprecation(github, app_url, config=CONSUMERS, change=DEPRECATED):
    """A repository whose `email` a merged pull request deprecated, its merge delivered."""
    repo = github.create_repo("acme", f"migrating-{next(_names)}",
                              {"schemas/user.avsc": AVRO_BASE, CONFIG: config})
    github.grant_team("acme", repo.name, "billing")
    for login in ("mona", "carol", "dave"):
        github.set_permission("acme", repo.name, login, "read")
    github.set_team_member("acme", "billing", "carol")
    repo.commit("deprecate", {"schemas/user.avsc": change}, "Deprecate email", base="main")
    pull = github.open_pull(repo.owner, repo.name, "deprecate", "main", "Deprecate email")
    github.merge_pull(pull)
    github.clear_calls()
    deliver(github, app_url, "pull_request", github.pull_request_event("closed", pull))
    if config == CONSUMERS:
        wait_for(lambda: github.issues(repo.owner, repo.name), what="the tracking issue")
    else:  # nothing to wait for but the config's read
        wait_for(lambda: github.calls_to("POST", r"/graphql$"), what="the config's read")
    settle(github)
    return repo, pull


def removal(github, app_url, repo, text=REMOVED):
    repo.commit("remove", {"schemas/user.avsc": text}, "Remove email", base="main")
    pull = github.open_pull(repo.owner, repo.name, "remove", "main", "Remove email")
    deliver(github, app_url, "pull_request", github.pull_request_event("opened", pull))
    wait_for_check(github, repo, pull.head_sha)
    settle(github)
    return pull


def check(github, repo, pull):
    (run,) = [r for r in github.check_runs(repo.owner, repo.name, pull.head_sha) if r.name == "schema-review"]
    return run


def command(github, app_url, issue, body, user):
    """Deliver a command and wait for the App's answer (and the re-runs it starts)."""
    before = len(replies(github, github.repo(*issue.repo.split("/")), issue))
    deliver(github, app_url, "issue_comment", github.issue_comment_on_issue_event(issue, body, user))
    wait_for(lambda: len(replies(github, github.repo(*issue.repo.split("/")), issue)) > before,
             what="the App's answer")
    settle(github)


def rerun(github, app_url, pull, payload_event="reopened"):
    """Deliver a re-review and wait until it has completed the check again."""
    github.clear_calls()
    deliver(github, app_url, "pull_request", github.pull_request_event(payload_event, pull))
    wait_for(lambda: [c for c in github.calls_to("PATCH", r"/check-runs/\d+$") if (c.json or {}).get("conclusion")],
             what="the re-review's verdict")
    settle(github)


def replies(github, repo, issue):
    return [c.body for c in github.issue_comments(repo.owner, repo.name, issue.number) if c.user_type == "Bot"]


def test_merging_a_deprecation_opens_one_tracking_issue_and_a_redelivery_opens_nothing(github, app_url):
    repo, pull = merged_deprecation(github, app_url)
    [issue] = github.issues(repo.owner, repo.name)
    assert issue.user == github.bot_login and issue.state == "open"
    assert issue.title == "Schema migration: UserEvent.email in schemas/user.avsc (deprecated)"
    today = datetime.now(timezone.utc).date()
    assert f"/{repo.full_name}/pull/{pull.number})" in issue.body
    assert f"Deprecated since {today.isoformat()}; the window ends on {(today + timedelta(days=14)).isoformat()}." \
        in issue.body
    assert "- [ ] `@acme/billing`\n- [ ] `@mona`" in issue.body
    assert "<!-- schema-review:record " in issue.body.splitlines()[-1]
    deliver(github, app_url, "pull_request", github.pull_request_event("closed", pull))  # a redelivery
    settle(github)
    assert len(github.issues(repo.owner, repo.name)) == 1
    # A later pull request touching the file: its calendar shows who has confirmed, and the issue.
    repo.commit("document", {"schemas/user.avsc": DEPRECATED.replace('"type": "string"}', '"type": "string", '
                                                                     '"doc": "key"}', 1)}, "Doc", base="main")
    later = github.open_pull(repo.owner, repo.name, "document", "main", "Document id")
    deliver(github, app_url, "pull_request", github.pull_request_event("opened", later))
    (run,) = wait_for_check(github, repo, later.head_sha)
    settle(github)
    assert (f"| waiting for: `@acme/billing`, `@mona`; [tracking issue]({issue_url(github, repo, issue)}) |"
            in run.output["summary"]), run.output["summary"]
    assert github.violations == []


def issue_url(github, repo, issue) -> str:
    return f"{github.url}/{repo.full_name}/issues/{issue.number}".replace("/api/v3", "")


def test_a_removal_fails_until_every_real_consumer_confirms_and_a_revoke_restores_the_failure(github, app_url):
    repo, _ = merged_deprecation(github, app_url)
    [issue] = github.issues(repo.owner, repo.name)
    pull = removal(github, app_url, repo)
    run = check(github, repo, pull)
    assert run.conclusion == "failure", run.output
    assert RULE in run.output["text"] + run.output["summary"]
    assert f"consumers who have not confirmed they moved: @\u200bacme/billing, @\u200bmona. Tracking issue: " \
           f"#\u200b{issue.number}." in run.output["text"] + run.output["summary"]  # in prose, as escaped

    command(github, app_url, issue, "/schema-migrated", "dave")  # read access, but no consumer
    assert "only the consumers listed for `schemas/user.avsc` can confirm" in replies(github, repo, issue)[-1]
    command(github, app_url, issue, "/schema-migrated", "carol")  # a member of acme/billing
    accepted = replies(github, repo, issue)[-1]
    assert accepted.startswith("@carol thank you: your confirmation counts for `@acme/billing`. "
                               "Still waiting for: `@mona`.")
    assert "- [x] `@acme/billing` (confirmed by @\u200bcarol)\n- [ ] `@mona`" in github.issues(repo.owner, repo.name)[0].body
    # re-run by the confirmation (waited for: a busy machine may pause it past settle's quiet time)
    wait_for(lambda: "consumers who have not confirmed they moved: @\u200bmona. Confirmed: @\u200bacme/billing "
             "(by @\u200bcarol)" in _said(check(github, repo, pull)), what="the re-run carol's confirmation started")
    assert check(github, repo, pull).conclusion == "failure"  # mona has not

    command(github, app_url, issue, "/schema-migrated", "mona")
    wait_for(lambda: check(github, repo, pull).conclusion == "success", what="the re-run mona's confirmation started")
    run = check(github, repo, pull)
    assert "every consumer confirmed they moved: @\u200bacme/billing (by @\u200bcarol), @\u200bmona (by @\u200bmona)" \
        in _said(run)

    command(github, app_url, issue, "/schema-migrated revoke", "mona")
    assert replies(github, repo, issue)[-1].startswith("@mona your confirmation (`@mona`) is withdrawn")
    wait_for(lambda: check(github, repo, pull).conclusion == "failure", what="the re-run the revoke started")
    run = check(github, repo, pull)
    assert "consumers who have not confirmed they moved: @\u200bmona." in _said(run)
    assert github.violations == []


def test_edited_and_forged_confirmations_count_for_nothing(github, app_url):
    repo, _ = merged_deprecation(github, app_url)
    [issue] = github.issues(repo.owner, repo.name)
    pull = removal(github, app_url, repo)
    command(github, app_url, issue, "/schema-migrated", "carol")
    # The re-run carol's confirmation starts must be over before the re-review below: on a busy
    # machine it can pause past settle's quiet time, and its verdict would be taken for that one.
    wait_for(lambda: "Confirmed: @\u200bacme/billing (by @\u200bcarol)" in _said(check(github, repo, pull)),
             what="the re-run carol's confirmation started")
    settle(github)
    [carol_reply] = [c for c in github.issue_comments(repo.owner, repo.name, issue.number)
                     if c.user_type == "Bot" and c.body.startswith("@carol")]
    # mona pastes the App's sealed record into her own comment: not the App's, so not counted.
    github.add_issue_comment(issue, carol_reply.body.replace("@carol", "@mona"), user="mona")
    # Someone with write access edits the App's reply (here only to add a word): no longer counted.
    github.edit_issue_comment(carol_reply.id, carol_reply.body + " ")
    rerun(github, app_url, pull)
    run = check(github, repo, pull)
    assert run.conclusion == "failure"
    assert "consumers who have not confirmed they moved: @\u200bacme/billing, @\u200bmona." in _said(run)
    # A command edited after it was sent is not acted on either.
    sent = github.issue_comment_on_issue_event(issue, "/schema-migrated", "mona")
    github.edit_issue_comment(sent["comment"]["id"], "/schema-migrated revoke")
    github.clear_calls()
    deliver(github, app_url, "issue_comment", sent)
    wait_for(lambda: github.calls_to("GET", r"/issues/comments/\d+$"), what="the comment re-read")
    settle(github)
    assert not any(body.startswith("@mona") for body in replies(github, repo, issue))
    assert github.violations == []


def test_after_the_window_an_unconfirmed_consumer_is_a_warning_naming_it(github, app_url):
    repo, deprecation = merged_deprecation(github, app_url)
    [issue] = github.issues(repo.owner, repo.name)
    # GitHub merged the deprecation 60 days ago: the 14-day window has passed.
    deprecation.merged_at = (datetime.now(timezone.utc) - timedelta(days=60)).strftime("%Y-%m-%dT%H:%M:%SZ")
    command(github, app_url, issue, "/schema-migrated", "mona")
    pull = removal(github, app_url, repo)
    run = check(github, repo, pull)
    assert run.conclusion == "success", run.output
    said = _said(run)
    assert "but consumers have not confirmed they moved: @\u200bacme/billing. Confirmed: @\u200bmona (by @\u200bmona)" \
        in said, said
    assert "mona." not in said.split("have not confirmed they moved:")[1].split("Confirmed")[0]


def test_the_merge_that_completes_the_migration_closes_its_issue(github, app_url):
    repo, _ = merged_deprecation(github, app_url)
    [issue] = github.issues(repo.owner, repo.name)
    pull = removal(github, app_url, repo)
    github.merge_pull(pull)
    deliver(github, app_url, "pull_request", github.pull_request_event("closed", pull))
    wait_for(lambda: github.issues(repo.owner, repo.name)[0].state == "closed", what="the issue closed")
    settle(github)
    assert replies(github, repo, issue)[-1] == (f"The migration is complete: pull request #{pull.number} "
                                                "removed `UserEvent.email`. Closing.")
    assert github.violations == []


OPTIONAL_PHONE = AVRO_BASE.replace('{"name": "email", "type": "string"}',
                                   '{"name": "email", "type": "string"},\n    '
                                   '{"name": "phone", "type": ["null", "string"], "default": null}')
REQUIRED_PHONE = OPTIONAL_PHONE.replace('{"name": "phone", "type": ["null", "string"], "default": null}',
                                        '{"name": "phone", "type": "string"}')


def test_a_promotion_before_its_window_passes_once_every_consumer_confirmed(github, app_url):
    repo, _ = merged_deprecation(github, app_url, change=OPTIONAL_PHONE)
    [issue] = github.issues(repo.owner, repo.name)
    assert issue.title == "Schema migration: UserEvent.phone in schemas/user.avsc (pending promotion)"
    pull = removal(github, app_url, repo, text=REQUIRED_PHONE)
    run = check(github, repo, pull)
    assert run.conclusion == "failure"
    assert '"UserEvent.phone" is made required while pending promotion before its window has passed' in _said(run)
    for login in ("carol", "mona"):
        command(github, app_url, issue, "/schema-migrated", login)
    run = check(github, repo, pull)
    assert run.conclusion == "success", _said(run)  # the promotion's own error is a warning now
    assert "| warning | `schemas/user.avsc:7` | `AVRO_NULLABLE_MADE_NON_NULLABLE` |" in _said(run), _said(run)


def test_one_merge_opens_at_most_25_tracking_issues(github, app_url):
    fields = ",\n    ".join(f'{{"name": "f{i:02}", "type": "string"}}' for i in range(30))
    wide = AVRO_BASE.replace('{"name": "email", "type": "string"}', fields)
    repo = github.create_repo("acme", f"migrating-{next(_names)}", {"schemas/user.avsc": wide, CONFIG: CONSUMERS})
    repo.commit("deprecate", {"schemas/user.avsc": wide.replace('"type": "string"}', '"type": "string", '
                                                                '"deprecated": true}')}, "Deprecate all", base="main")
    pull = github.open_pull(repo.owner, repo.name, "deprecate", "main", "Deprecate all")
    github.merge_pull(pull)
    deliver(github, app_url, "pull_request", github.pull_request_event("closed", pull))
    wait_for(lambda: github.issues(repo.owner, repo.name), what="the tracking issues")
    settle(github)
    assert len(github.issues(repo.owner, repo.name)) == 25
    assert github.violations == []


def test_without_consumers_a_merge_opens_nothing_and_asks_nothing(github, app_url):
    repo, _ = merged_deprecation(github, app_url, config="compatibility: backward\n")
    assert github.issues(repo.owner, repo.name) == []
    assert github.calls_to("GET", r"/issues$") == [] and github.calls_to("POST", r"/issues$") == []
    assert github.calls_to("GET", r"/pulls/\d+$") == []  # the merged pull request is not even read
    pull = removal(github, app_url, repo)
    assert RULE not in _said(check(github, repo, pull))


def _said(run) -> str:
    return (run.output.get("summary") or "") + (run.output.get("text") or "")
