"""GraphQL: one aliased object(expression:) per file, and minimizeComment on review comments."""
import pytest
import requests

from .conftest import NEW_SCHEMA, client_for

BATCH = """query($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    f0: object(expression: "%(sha)s:schemas/user.avsc") { ... on Blob { text byteSize isTruncated isBinary oid } }
    f1: object(expression: "%(sha)s:schemas/missing.avsc") { ... on Blob { text } }
    f2: object(expression: "%(sha)s:logo.png") { ... on Blob { text isBinary byteSize } }
    f3: object(expression: "%(sha)s:huge.json") { ... on Blob { text isTruncated byteSize } }
  }
}"""
MINIMIZE = """mutation($id: ID!) { minimizeComment(input: {subjectId: $id, classifier: OUTDATED}) {
  minimizedComment { isMinimized minimizedReason } } }"""


def post(url: str, token: str, query: str, **variables) -> dict:
    answer = requests.post(url, json={"query": query, "variables": variables},
                           headers={"Authorization": f"bearer {token}"})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_batched_blob_fetch(github, scenario):
    repo, pull = scenario
    sha = repo.commit("feature", {"logo.png": b"\x89PNG\0\0binary", "huge.json": "y" * (600 * 1024)}, "Assets")
    for url in (github.graphql_url, github.url + "/api/graphql"):
        data = post(url, github.issue_token("acme"), BATCH % {"sha": sha}, owner="acme", name="contracts")
        found = data["data"]["repository"]
        assert found["f0"] == {"text": NEW_SCHEMA, "byteSize": len(NEW_SCHEMA), "isTruncated": False,
                               "isBinary": False, "oid": repo.git.blob_at(sha, "schemas/user.avsc")[0]}
        assert found["f1"] is None
        assert found["f2"] == {"text": None, "isBinary": True, "byteSize": len(b"\x89PNG\0\0binary")}
        assert found["f3"]["isTruncated"] is True and found["f3"]["byteSize"] == 600 * 1024
        assert len(found["f3"]["text"]) == 512 * 1024
    assert [c.operation for c in github.calls_to("POST", "graphql")] == ["graphql", "graphql"]


def test_unknown_fields_and_repositories_answer_with_errors(github, scenario):
    token = github.issue_token("acme")
    data = post(github.graphql_url, token, '{ repository(owner: "acme", name: "contracts") { nope } }')
    assert "data" not in data and "nope" in data["errors"][0]["message"]
    data = post(github.graphql_url, token, '{ repository(owner: "acme", name: "ghost") { name } }')
    assert data["data"]["repository"] is None and data["errors"][0]["type"] == "NOT_FOUND"
    assert requests.post(github.graphql_url, json={"query": "{ rateLimit { cost } }"}).status_code == 401


def test_minimize_comment_marks_the_review_comment(github, scenario):
    repo, pull = scenario
    pr = client_for(github, repo).get_repo("acme/contracts").get_pull(pull.number)
    pr.create_review(event="COMMENT", body="old", comments=[{"path": "schemas/user.avsc", "line": 3, "body": "x"}])
    node_id = pr.get_review_comments()[0].node_id
    data = post(github.graphql_url, github.issue_token("acme"), MINIMIZE, id=node_id)
    assert data["data"]["minimizeComment"]["minimizedComment"] == {"isMinimized": True, "minimizedReason": "outdated"}
    assert [c.is_minimized for c in github.review_comments("acme", "contracts")] == [True]
    missing = post(github.graphql_url, github.issue_token("acme"), MINIMIZE, id="PRRC_nothing")
    assert missing["errors"][0]["type"] == "NOT_FOUND"


TREE = """query($owner: String!, $name: String!, $root: String!, $dir: String!) {
  repository(owner: $owner, name: $name) {
    root: object(expression: $root) { __typename ... on Tree { entries { name path type mode oid
      object { __typename ... on Tree { entries { name path type object { __typename } } } } } } }
    dir: object(expression: $dir) { ... on Tree { entries { name path type } } }
  }
}"""


def test_a_commits_root_tree_lists_entries_with_paths_from_the_root(github, scenario):
    """`<sha>:` is the root directory (a Tree, not the commit); each entry's path starts at the
    repository's root however the tree was reached, and its mode is git's octal mode as a number."""
    repo, _pull = scenario
    sha = repo.git.branch_sha("feature")
    data = post(github.graphql_url, github.issue_token("acme"), TREE, owner="acme", name="contracts",
                root=f"{sha}:", dir=f"{sha}:schemas")["data"]["repository"]
    assert data["root"]["__typename"] == "Tree"
    (schemas,) = data["root"]["entries"]
    assert {k: schemas[k] for k in ("name", "path", "type", "mode")} == {
        "name": "schemas", "path": "schemas", "type": "tree", "mode": 0o40000}
    assert schemas["oid"] == repo.git.entry(sha, "schemas").sha
    rest = [e.path for e in repo.git.list_tree(sha, recursive=True) if e.type == "blob"]
    assert [e["path"] for e in schemas["object"]["entries"]] == rest == [
        e["path"] for e in data["dir"]["entries"]]
    assert {(e["type"], e["object"]["__typename"]) for e in schemas["object"]["entries"]} == {("blob", "Blob")}


ASSOCIATED = """query($owner: String!, $name: String!, $ref: String!) {
  repository(owner: $owner, name: $name) { object(expression: $ref) { ... on Commit {
    history(first: 10, path: "schemas/user.avsc") { nodes { oid committedDate
      associatedPullRequests(first: 5) { nodes { number state merged mergedAt } } } }
  } } }
}"""


@pytest.mark.parametrize("squash", [False, True])
def test_a_merged_pull_request_is_associated_with_the_commits_it_brought(github, scenario, squash):
    """mergedAt is GitHub's clock (now), not the merged commits' dates; REST says the same."""
    repo, pull = scenario
    open_ = post(github.graphql_url, github.issue_token("acme"), ASSOCIATED, owner="acme",
                 name="contracts", ref="feature")["data"]["repository"]["object"]["history"]["nodes"]
    # Not on the default branch yet: the open pull request that holds it, not merged.
    assert open_[0]["associatedPullRequests"]["nodes"] == [
        {"number": pull.number, "state": "OPEN", "merged": False, "mergedAt": None}]
    before = github.state.now()
    merge = github.merge_pull(pull, squash=squash)
    data = post(github.graphql_url, github.issue_token("acme"), ASSOCIATED, owner="acme",
                name="contracts", ref="main")
    nodes = data["data"]["repository"]["object"]["history"]["nodes"]
    merged = {"number": pull.number, "state": "MERGED", "merged": True, "mergedAt": pull.merged_at}
    assert pull.merged_at >= before and repo.sha("main") == merge
    # A merge commit leaves the pull request's own commit in the file's history; a squash
    # replaces it with the commit GitHub made. Either is associated with the pull request.
    assert nodes[0]["oid"] == (merge if squash else repo.sha("feature"))
    assert nodes[0]["associatedPullRequests"]["nodes"] == [merged]
    assert nodes[1]["associatedPullRequests"]["nodes"] == []  # pushed straight to main
    rest = client_for(github, repo).get_repo("acme/contracts").get_pull(pull.number)
    assert (rest.state, rest.merged, rest.merge_commit_sha) == ("closed", True, merge)
    assert github.violations == [] and github.response_violations == []
