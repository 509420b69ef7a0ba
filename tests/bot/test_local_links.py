"""`schema-review review` on a real git repository with committed symbolic links: a link's blob
(mode 120000) is its target's path, never a schema to check and never followed. The file is
not reviewed (SCHEMA_NOT_REVIEWED, so the gate fails closed), and nothing of the target shows."""
from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.local.git_review import review_repo
from bot.review.review import Conclusion
from tests.localgit import git, make_repo

NOW = datetime(2030, 1, 1, tzinfo=timezone.utc)
SECRET = "SECRET_KEY_XYZ"
SCHEMA = json.dumps({"type": "object", "properties": {"id": {"type": "string"}}})
PROTO = 'syntax = "proto3";\npackage shop;\nimport "shop/common.proto";\nmessage Order {\n  string id = 1;\n}\n'
COMMON = 'syntax = "proto3";\npackage shop;\nmessage Money {\n  int64 units = 1;\n}\n'

# name -> (the base's files, the head's links (path -> target), the head's other files, the
# file that must be unreviewed, what its problem says)
CASES = {
    "a schema file made a link": (
        {"schemas/user.json": SCHEMA}, {"schemas/user.json": "{outside}/secret.json"}, {},
        "schemas/user.json", "head version is a symbolic link"),
    "an added link": (
        {"schemas/user.json": SCHEMA}, {"schemas/new.json": "../../outside/secret.json"}, {},
        "schemas/new.json", "head version is a symbolic link"),
    "a .proto importing a link": (
        {"shop/order.proto": PROTO, "shop/common.proto": COMMON},
        {"shop/common.proto": "{outside}/secret.proto"},
        {"shop/order.proto": PROTO.replace("string id = 1;", "string id = 1;\n  string note = 2;")},
        "shop/order.proto", 'import "shop/common.proto" is a symbolic link'),
}


def _repo(tmp_path: Path, case: str) -> Path:
    base, links, others, _file, _says = CASES[case]
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.json").write_text(json.dumps({"properties": {SECRET: {}}}))
    (outside / "secret.proto").write_text(f'syntax = "proto3";\nmessage {SECRET} {{}}\n')
    repo = make_repo(tmp_path / "repo", base, others)
    for name, target in links.items():
        entry = repo / name
        if entry.exists():
            entry.unlink()
        entry.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target.format(outside=outside), entry)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "links")
    assert git(repo, "ls-files", "-s", *links).startswith("120000")  # committed as links
    return repo


@pytest.mark.parametrize("case", CASES)
def test_a_committed_link_is_not_reviewed_and_fails_the_gate(tmp_path, case):
    *_, file, says = CASES[case]
    result = review_repo(_repo(tmp_path, case), "main", "feature", now=NOW)
    assert [f.rule for f in result.findings[file]] == ["SCHEMA_NOT_REVIEWED"]
    assert says in result.findings[file][0].message
    assert result.conclusion is Conclusion.FAILURE
    assert SECRET not in result.summary + result.text
