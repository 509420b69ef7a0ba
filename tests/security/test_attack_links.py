"""A pull request committing symbolic links: GitHub serves a link's blob (its target's path) like
any file's, and only the tree entry's mode (0o120000) says it is a link. The App must not review
that path as a schema nor follow it: the file is not reviewed (SCHEMA_NOT_REVIEWED) and the gate
fails closed, for a changed schema file made a link and for a .proto whose import is one."""
import pytest

from tests.github_emulator.gitstore import Link
from tests.integration.test_review_flow import open_pull, review_of

SCHEMA = '{"type": "object", "properties": {"id": {"type": "string"}}}\n'
PROTO = 'syntax = "proto3";\npackage shop;\nimport "shop/common.proto";\nmessage Order {\n  string id = 1;\n}\n'

# name -> (the base's files, the pull request's changes, the file not reviewed, its problem)
CASES = {
    "a schema file made a link": (
        {"schemas/user.json": SCHEMA}, {"schemas/user.json": Link("../../../etc/passwd")},
        "schemas/user.json", "head version is a symbolic link"),
    "an added link to a schema": (
        {"schemas/user.json": SCHEMA}, {"schemas/copy.json": Link("user.json")},
        "schemas/copy.json", "head version is a symbolic link"),
    "a .proto importing a link": (
        {"shop/order.proto": PROTO, "shop/common.proto": Link("/etc/hostname")},  # unchanged
        {"shop/order.proto": PROTO.replace("string id = 1;", "string id = 1;\n  string note = 2;")},
        "shop/order.proto", 'import "shop/common.proto" is a symbolic link'),
}


@pytest.mark.parametrize("case", CASES)
def test_a_link_in_a_pull_request_is_not_reviewed_and_fails_the_gate(github, app_url, case):
    base, changes, file, says = CASES[case]
    repo, pull = open_pull(github, base, changes)
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output["summary"]
    unreviewed = [a for a in run.annotations if a["title"].startswith("SCHEMA_NOT_REVIEWED")]
    assert [a["path"] for a in unreviewed] == [file], run.annotations
    assert says in unreviewed[0]["message"]
