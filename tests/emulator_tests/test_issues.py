"""Issues as GitHub answers them (the App's tracking issues): created by the App, listed with the
pull requests (which carry `pull_request`) and filtered by creator and state, read, updated and
closed, commented on; numbers shared with pull requests; responses valid against the spec."""
import pytest
from github import GithubException

from .conftest import client_for


def call(github, repo, method, path, **kw):
    return client_for(github, repo).requester.requestJsonAndCheck(method, f"/repos/acme/contracts{path}", **kw)


def test_an_issue_is_created_listed_read_commented_and_closed(github, scenario):
    repo, pull = scenario
    _h, created = call(github, repo, "POST", "/issues", input={"title": "Track it", "body": "the body"})
    assert created["number"] == pull.number + 1 and created["user"]["login"] == github.bot_login
    _h, listed = call(github, repo, "GET", "/issues", parameters={"state": "all", "creator": github.bot_login})
    assert [i["number"] for i in listed] == [created["number"]]  # the pull request is octocat's
    _h, both = call(github, repo, "GET", "/issues", parameters={"state": "open"})
    assert [("pull_request" in i, i["number"]) for i in both] == [(False, created["number"]), (True, pull.number)]
    call(github, repo, "POST", f"/issues/{created['number']}/comments", input={"body": "done"})
    assert [c.body for c in github.issue_comments("acme", "contracts", created["number"])] == ["done"]
    _h, closed = call(github, repo, "PATCH", f"/issues/{created['number']}",
                      input={"state": "closed", "state_reason": "completed", "body": "new body"})
    assert (closed["state"], closed["body"]) == ("closed", "new body") and closed["closed_at"]
    _h, read = call(github, repo, "GET", f"/issues/{created['number']}")
    assert read["state"] == "closed"
    _h, still_open = call(github, repo, "GET", "/issues", parameters={"state": "open"})
    assert [i["number"] for i in still_open] == [pull.number]
    assert github.violations == [] and github.response_violations == []


@pytest.mark.parametrize("method, path, body", [
    ("POST", "/issues", {"body": "no title"}),
    ("PATCH", "/issues/{number}", {"state": "merged"}),
])
def test_an_invalid_request_is_refused(github, scenario, method, path, body):
    repo, _pull = scenario
    _h, created = call(github, repo, "POST", "/issues", input={"title": "x"})
    with pytest.raises(GithubException) as raised:
        call(github, repo, method, path.format(number=created["number"]), input=body)
    assert raised.value.status in (400, 422)
    assert github.take_violations()


def test_an_unknown_issue_is_not_found(github, scenario):
    repo, _pull = scenario
    with pytest.raises(GithubException) as raised:
        call(github, repo, "GET", "/issues/999")
    assert raised.value.status == 404
