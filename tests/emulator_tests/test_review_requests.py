"""Review requests as GitHub answers them: collaborators and teams with access only, never the
author, and one reviewer GitHub cannot request refuses the whole request."""
import pytest
from github import GithubException

from .conftest import client_for


def request(github, repo, number, **body):
    requester = client_for(github, repo).requester
    return requester.requestJsonAndCheck("POST", f"/repos/acme/contracts/pulls/{number}/requested_reviewers",
                                         input=body)


def test_a_collaborator_and_a_team_with_access_are_requested(github, scenario):
    repo, pull = scenario
    github.set_permission("acme", "contracts", "mona", "read")
    github.grant_team("acme", "contracts", "billing")
    _headers, body = request(github, repo, pull.number, reviewers=["mona"], team_reviewers=["billing"])
    assert [u["login"] for u in body["requested_reviewers"]] == ["mona"]
    assert [t["slug"] for t in body["requested_teams"]] == ["billing"]
    assert github.requested_reviewers("acme", "contracts", pull.number) == {"users": ["mona"], "teams": ["billing"]}
    assert github.violations == [] and github.response_violations == []


@pytest.mark.parametrize("body", [
    {"reviewers": ["stranger"]},  # not a collaborator
    {"team_reviewers": ["ghosts"]},  # no access to the repository
    {"reviewers": ["octocat"]},  # the pull request's author
])
def test_one_reviewer_github_cannot_request_refuses_the_whole_request(github, scenario, body):
    repo, pull = scenario
    github.grant_team("acme", "contracts", "billing")
    with pytest.raises(GithubException) as raised:
        request(github, repo, pull.number, **body, **({"team_reviewers": ["billing"]} if "reviewers" in body else {}))
    assert raised.value.status == 422
    assert github.requested_reviewers("acme", "contracts", pull.number) == {"users": [], "teams": []}
    assert github.response_violations == []


def test_a_request_naming_nobody_is_invalid(github, scenario):
    repo, pull = scenario
    with pytest.raises(GithubException) as raised:
        request(github, repo, pull.number, body_only="x")
    assert raised.value.status == 422
    assert [v.operation for v in github.take_violations()] == ["pulls/request-reviewers"]
