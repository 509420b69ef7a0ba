"""`consumers:` end to end: a pull request that deprecates what a team reads asks that team to review
it, once; a consumer GitHub will not request is named instead; without consumers nothing changes."""
from __future__ import annotations

import itertools

from tests.harness.flow import AVRO_BASE
from tests.integration.conftest import SECRET, settle, wait_for_check

_names = itertools.count()
CONFIG = ".github/schema-review.yml"
CONSUMERS = """consumers:
  - paths: ["schemas/**"]
    owners: ["@acme/billing", "@acme/ghosts", "@mona", "@octocat"]
    name: Billing
  - paths: ["other/**"]
    owners: ["@acme/unrelated"]
"""
DEPRECATED = AVRO_BASE.replace('{"name": "email", "type": "string"}',
                               '{"name": "email", "type": "string", "deprecated": true}')
# A second push that changes nothing a consumer is told about (a doc on another field).
DOCUMENTED = DEPRECATED.replace('{"name": "id", "type": "string"}', '{"name": "id", "type": "string", "doc": "key"}')


def pull_with(github, config: str | None, head_text: str = DEPRECATED):
    files = {"schemas/user.avsc": AVRO_BASE, **({CONFIG: config} if config is not None else {})}
    repo = github.create_repo("acme", f"consumed-{next(_names)}", files)
    github.grant_team("acme", repo.name, "billing")
    github.grant_team("acme", repo.name, "unrelated")
    github.set_permission("acme", repo.name, "mona", "read")
    repo.commit("feature", {"schemas/user.avsc": head_text}, "Deprecate email", base="main")
    return repo, github.open_pull(repo.owner, repo.name, "feature", "main", "Deprecate email")  # by octocat


def reviewed(github, app_url, repo, pull, action="opened"):
    response = github.deliver(app_url + "/webhook", "pull_request", github.pull_request_event(action, pull), SECRET)
    assert response.status_code in (200, 202), response.text
    (run,) = wait_for_check(github, repo, pull.head_sha)
    settle(github)
    return run


def consumer_reviews(github, repo, pull) -> list[str]:
    return [r.body for r in github.reviews(repo.owner, repo.name, pull.number) if "Consumers asked" in r.body]


def requests_made(github) -> list:
    return github.calls_to("POST", r"/requested_reviewers$")


def test_a_deprecation_asks_the_files_consumers_and_names_the_one_github_refuses(github, app_url):
    repo, pull = pull_with(github, CONSUMERS)
    run = reviewed(github, app_url, repo, pull)
    assert run.conclusion == "success"  # asking is no verdict, and a refused team fails nothing
    assert github.requested_reviewers("acme", repo.name, pull.number) == {"users": ["mona"], "teams": ["billing"]}
    [body] = consumer_reviews(github, repo, pull)
    assert "| `UserEvent.email` | `schemas/user.avsc` | deprecated | " in body, body
    assert "**Asked to review:** `@acme/billing`, `@mona`." in body
    assert "- `@acme/ghosts`: GitHub would not request a review" in body
    assert "octocat" not in body.split("| Consumers |")[1].split("**Asked")[1]  # the author is never asked
    assert "unrelated" not in body
    assert github.violations == []


def test_a_second_push_and_a_rerun_ask_nobody_again(github, app_url):
    repo, pull = pull_with(github, CONSUMERS)
    reviewed(github, app_url, repo, pull)
    asked = github.requested_reviewers("acme", repo.name, pull.number)
    github.clear_calls()
    reviewed(github, app_url, repo, pull, action="reopened")  # the same head again
    repo.commit("feature", {"schemas/user.avsc": DOCUMENTED}, "Document id")
    reviewed(github, app_url, repo, pull, action="synchronize")
    assert requests_made(github) == []
    assert github.requested_reviewers("acme", repo.name, pull.number) == asked
    assert len(consumer_reviews(github, repo, pull)) == 1


def test_without_consumers_nothing_changes_not_even_a_read(github, app_url):
    for config in (None, "compatibility: backward\n",
                   'consumers: [{paths: ["other/**"], owners: ["@acme/billing"]}]\n'):
        repo, pull = pull_with(github, config)
        github.clear_calls()
        assert reviewed(github, app_url, repo, pull).conclusion == "success"
        assert requests_made(github) == [] and github.calls_to("GET", r"/pulls/\d+/reviews$") == []
        assert consumer_reviews(github, repo, pull) == []


def test_a_malformed_owner_fails_the_check_at_its_line(github, app_url):
    repo, pull = pull_with(github, 'version: 1\nconsumers:\n  - paths: ["schemas/**"]\n    owners: ["billing team"]\n')
    run = reviewed(github, app_url, repo, pull)
    assert run.conclusion == "failure" and run.output["title"] == f"Invalid configuration in {CONFIG}"
    assert f"{CONFIG}:4: consumers[0].owners[0]: expected `@user` or `@org/team`" in run.output["summary"]
    assert requests_made(github) == []
