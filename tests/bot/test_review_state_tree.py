"""RepoClient.review_state with the head's file list: read from the query's answer, and a
query GitHub fails with the tree in it is asked again without (the REST listing then serves)."""
from types import SimpleNamespace

import pytest
from github import GithubException, UnknownObjectException

from bot.github.repo import RepoClient

TIMEOUT = {"errors": [{"message": "Something went wrong while executing your query. "
                                  "This may be the result of a timeout, or it could be a GitHub bug."}]}


def client(answer) -> tuple[RepoClient, list[dict]]:
    """A RepoClient whose GraphQL calls `answer(variables)`; the variables sent are recorded."""
    sent: list[dict] = []
    repo = object.__new__(RepoClient)
    repo.owner, repo.name, repo.app_id = "acme", "x", 1
    repo._repo = SimpleNamespace(requester=SimpleNamespace(rate_limiting=(-1, -1)))

    def graphql(_query, variables):
        sent.append(variables)
        return answer(variables)
    repo._graphql = graphql
    return repo, sent


def answer(tree=None):
    def reply(variables):
        found = {"pullRequest": None, "config": None, "head": None, "open": None}
        return {"data": {"repository": {**found, **({"tree": tree} if "tree" in variables else {})}}}
    return reply


def read(repo, tree=True):
    return repo.review_state(7, head_sha="abc", config_ref="refs/heads/main",
                             config_path=".github/schema-review.yml", tree=tree)


def test_the_head_listing_comes_with_the_query_only_when_asked():
    root = {"entries": [{"name": "a.json", "path": "a.json", "type": "blob"}]}
    repo, sent = client(answer(root))
    assert read(repo).tree == ["a.json"] and sent[0]["tree"] == "abc:"
    assert read(repo, tree=False).tree is None and "tree" not in sent[1]


def test_a_query_failing_with_the_tree_is_asked_again_without_it():
    def reply(variables):
        if "tree" in variables:
            raise GithubException(400, TIMEOUT, {})
        return answer()(variables)
    repo, sent = client(reply)
    assert read(repo).tree is None
    assert ["tree" in v for v in sent] == [True, False]


def test_a_missing_repository_is_not_asked_again():
    def reply(_variables):
        raise UnknownObjectException(404, {"message": "Could not resolve"}, {})
    repo, sent = client(reply)
    with pytest.raises(UnknownObjectException):
        read(repo)
    assert len(sent) == 1
