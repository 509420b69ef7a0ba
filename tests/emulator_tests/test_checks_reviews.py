"""Check runs, reviews anchored in the diff (GitHub's exact 422), comments and reactions."""
import pytest
from github import GithubException

from .conftest import client_for

UNRESOLVED = {"message": "Unprocessable Entity", "errors": ["Line could not be resolved"],
              "documentation_url": "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request",
              "status": "422"}


def annotation(line: int) -> dict:
    return {"path": "schemas/user.avsc", "start_line": line, "end_line": line,
            "annotation_level": "failure", "message": f"broken at {line}"}


def test_check_run_lifecycle_and_annotations_accumulate(github, scenario):
    repo, pull = scenario
    gh = client_for(github, repo).get_repo("acme/contracts")
    run = gh.create_check_run(name="schema-review", head_sha=pull.head_sha, status="in_progress")
    run.edit(output={"title": "1", "summary": "s", "annotations": [annotation(3)]})
    run.edit(conclusion="failure", output={"title": "2 breaking changes", "summary": "s",
                                           "annotations": [annotation(25)]},
             actions=[{"label": "Override", "description": "Accept the break", "identifier": "override"}])
    [stored] = github.check_runs("acme", "contracts", pull.head_sha)
    assert (stored.status, stored.conclusion, stored.updates) == ("completed", "failure", 2)
    assert [a.start_line for a in gh.get_check_run(run.id).get_annotations()] == [3, 25]
    listed = gh.get_commit(pull.head_sha).get_check_runs(check_name="schema-review")
    assert [r.id for r in listed] == [run.id] and listed[0].output.title == "2 breaking changes"
    assert list(gh.get_commit(pull.head_sha).get_check_runs(check_name="other")) == []


def test_review_comments_inside_the_diff_are_accepted(github, scenario):
    repo, pull = scenario
    pr = client_for(github, repo).get_repo("acme/contracts").get_pull(pull.number)
    review = pr.create_review(body="2 findings", event="COMMENT", comments=[
        {"path": "schemas/user.avsc", "line": 3, "side": "RIGHT", "body": "added"},
        {"path": "schemas/user.avsc", "line": 6, "side": "RIGHT", "body": "context line"},
        {"path": "schemas/user.avsc", "line": 3, "side": "LEFT", "body": "deleted line"},
        {"path": "schemas/user.avsc", "start_line": 24, "start_side": "RIGHT", "line": 26, "side": "RIGHT",
         "body": "```suggestion\nline 25\n```"},
        {"path": "schemas/gone.proto", "body": "file level", "subject_type": "file"}])
    assert review.state == "COMMENTED" and review.commit_id == pull.head_sha
    comments = list(pr.get_review_comments())
    assert [(c.line, c.side) for c in comments] == [(3, "RIGHT"), (6, "RIGHT"), (3, "LEFT"), (26, "RIGHT"), (None, None)]
    assert comments[0].diff_hunk.startswith("@@ -1,6 +1,6 @@") and comments[0].diff_hunk.endswith("+line three")
    assert comments[3].start_line == 24 and comments[4].subject_type == "file"
    assert all(c.node_id.startswith("PRRC_") for c in comments)
    assert [r.body for r in github.review_comments("acme", "contracts", pull.number)][0] == "added"


@pytest.mark.parametrize("comment", [
    {"path": "schemas/user.avsc", "line": 15, "side": "RIGHT", "body": "between hunks"},
    {"path": "schemas/user.avsc", "line": 15, "side": "LEFT", "body": "base line between hunks"},
    {"path": "schemas/user.avsc", "line": 40, "body": "past the end"}])
def test_a_comment_outside_the_diff_rejects_the_whole_review(github, scenario, comment):
    repo, pull = scenario
    pr = client_for(github, repo).get_repo("acme/contracts").get_pull(pull.number)
    with pytest.raises(GithubException) as caught:
        pr.create_review(body="b", event="COMMENT", comments=[
            {"path": "schemas/user.avsc", "line": 3, "body": "fine"}, comment])
    assert caught.value.status == 422 and caught.value.data == UNRESOLVED
    assert github.reviews("acme", "contracts") == [] and github.review_comments("acme", "contracts") == []


def test_several_unresolvable_comments_are_named_in_one_sentence(github, scenario):
    repo, pull = scenario
    pr = client_for(github, repo).get_repo("acme/contracts").get_pull(pull.number)
    with pytest.raises(GithubException) as caught:
        pr.create_review(body="b", event="COMMENT", comments=[
            {"path": "schemas/user.avsc", "line": 15, "body": "x"},
            {"path": "README.md", "line": 1, "body": "x"},
            {"path": "schemas/user.avsc", "line": 16, "body": "x"}])
    assert caught.value.data["errors"] == [
        "Line could not be resolved, Path could not be resolved, and Line could not be resolved"]


def test_replies_edits_deletes_issue_comments_and_reactions(github, scenario):
    repo, pull = scenario
    pr = client_for(github, repo).get_repo("acme/contracts").get_pull(pull.number)
    pr.create_review(body="", event="COMMENT", comments=[{"path": "schemas/user.avsc", "line": 3, "body": "x"}])
    first = pr.get_review_comments()[0]
    reply = pr.create_review_comment_reply(first.id, "thanks")
    assert reply.in_reply_to_id == first.id
    first.edit("x (updated)")
    reply.delete()
    assert [c.body for c in github.review_comments("acme", "contracts")] == ["x (updated)"]
    human = github.add_issue_comment(pull, "/schema-override consumers migrated", user="alice")
    issue_comment = pr.get_issue_comment(human.id)
    issue_comment.create_reaction("+1")
    issue_comment.create_reaction("+1")
    first.create_reaction("eyes")
    assert [(r.content, r.user) for r in github.reactions(human.id)] == [("+1", "schema-review[bot]")]
    summary = pr.create_issue_comment("<!-- schema-review -->\nsummary")
    summary.edit("<!-- schema-review -->\nsummary v2")
    assert [c.user for c in github.issue_comments("acme", "contracts", pull.number)] == ["alice", "schema-review[bot]"]
    assert [c.body for c in pr.get_issue_comments()][1].endswith("v2")


def test_permissions_and_team_membership(github, scenario):
    repo, _ = scenario
    github.set_permission("acme", "contracts", "alice", "maintain")
    github.set_team_member("acme", "schema-owners", "alice", role="maintainer")
    client = client_for(github, repo)
    gh = client.get_repo("acme/contracts")
    assert gh.get_collaborator_permission("alice") == "write"
    raw = client._Github__requester.requestJsonAndCheck("GET", "/repos/acme/contracts/collaborators/alice/permission")[1]
    assert (raw["permission"], raw["role_name"], raw["user"]["login"]) == ("write", "maintain", "alice")
    assert gh.get_collaborator_permission("bob") == "none"
    member = client._Github__requester.requestJsonAndCheck(
        "GET", "/orgs/acme/teams/schema-owners/memberships/alice")[1]
    assert (member["role"], member["state"]) == ("maintainer", "active")
    with pytest.raises(GithubException) as caught:
        client._Github__requester.requestJsonAndCheck("GET", "/orgs/acme/teams/schema-owners/memberships/bob")
    assert caught.value.status == 404
    assert client.get_rate_limit().resources.core.remaining == 5000
