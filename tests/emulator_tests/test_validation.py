"""Requests GitHub's OpenAPI description forbids are answered 4xx and recorded as violations."""
import pytest
from github import GithubException

from tests.github_emulator.fixtures import assert_clean

from .conftest import client_for
from .test_checks_reviews import annotation


def test_bogus_conclusion_is_refused_and_recorded(github, scenario):
    repo, pull = scenario
    gh = client_for(github, repo).get_repo("acme/contracts")
    with pytest.raises(GithubException) as caught:
        gh.create_check_run(name="schema-review", head_sha=pull.head_sha, conclusion="bogus")
    assert caught.value.status == 422 and "bogus" in caught.value.data["message"]
    [violation] = github.take_violations()
    assert violation.operation == "checks/create" and "conclusion" in violation.problem
    assert github.check_runs("acme", "contracts") == []


def test_more_than_fifty_annotations_in_one_request_is_a_violation(github, scenario):
    repo, pull = scenario
    gh = client_for(github, repo).get_repo("acme/contracts")
    with pytest.raises(GithubException):
        gh.create_check_run(name="schema-review", head_sha=pull.head_sha, status="in_progress",
                            output={"title": "t", "summary": "s", "annotations": [annotation(3)] * 51})
    [violation] = github.take_violations()
    assert "annotations" in violation.problem
    run = gh.create_check_run(name="schema-review", head_sha=pull.head_sha, status="in_progress",
                              output={"title": "t", "summary": "s", "annotations": [annotation(3)] * 50})
    run.edit(output={"title": "t", "summary": "s", "annotations": [annotation(25)] * 50})
    assert run.id and len(github.check_runs("acme", "contracts")[0].annotations) == 100


def test_unknown_endpoints_and_bad_parameters_are_violations(github, scenario):
    repo, _ = scenario
    requester = client_for(github, repo)._Github__requester
    for verb, url, params, status in [("GET", "/repos/acme/contracts/pulls/1/nonsense", None, 404),
                                      ("GET", "/repos/acme/contracts/pulls/1/files", {"per_page": "lots"}, 400)]:
        with pytest.raises(GithubException) as caught:
            requester.requestJsonAndCheck(verb, url, parameters=params)
        assert caught.value.status == status
    problems = [v.problem for v in github.take_violations()]
    assert "not an operation" in problems[0] and "per_page" in problems[1]


def test_the_fixture_check_names_every_violation(github, scenario):
    repo, pull = scenario
    with pytest.raises(GithubException):
        client_for(github, repo).get_repo("acme/contracts").get_pull(pull.number).create_review(event="REJECT")
    with pytest.raises(AssertionError, match="pulls/create-review"):
        assert_clean(github)
    github.take_violations()
