"""bot/review/duplicate_types.py: which second definitions of a type are findings."""
import json

import pytest

from bot.config.config import Config
from bot.review.change import FileChange, FileStatus
from bot.review.duplicate_types import duplicated

MONEY = {"type": "record", "name": "Money", "namespace": "com.shop",
         "fields": [{"name": "units", "type": "long"}]}
MONEY_STRING = {**MONEY, "fields": [{"name": "units", "type": "string"}]}


def order(money) -> str:
    return json.dumps({"type": "record", "name": "Order", "namespace": "com.shop",
                       "fields": [{"name": "total", "type": money}]})


PROTO = 'syntax = "proto3";\npackage p;\nmessage Money { int64 units = 1; }\n'
# name -> (base text of the changed file, its head text, the head's other files, flagged names)
CASES = {
    "a type inlined equal in each file using it": (
        None, order(MONEY), {"schemas/money.avsc": json.dumps(MONEY)}, []),
    "a type inlined with another field type": (
        None, order(MONEY_STRING), {"schemas/money.avsc": json.dumps(MONEY)}, ["com.shop.Money"]),
    "a duplicate its base already had": (
        order(MONEY), order(MONEY_STRING), {"schemas/money.avsc": json.dumps(MONEY)}, []),
    "a protobuf message, however alike": (None, PROTO, {"proto/a.proto": PROTO}, ["p.Money"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_second_definitions(case):
    base, head, others, flagged = CASES[case]
    path = "proto/z.proto" if head is PROTO else "schemas/order.avsc"
    change = FileChange(path=path, status=FileStatus.ADDED if base is None else FileStatus.MODIFIED,
                        base_text=base, head_text=head, head_neighbours=others)
    found = duplicated([change], Config().classify).get(path, ())
    assert [f.path for f in found] == flagged
    assert all(f.file == path and f'"{next(iter(others))}"' in f.message for f in found)


def test_added_proto_fails_closed_when_the_heads_other_proto_files_were_not_all_read(tmp_path, monkeypatch):
    """`schema-review review`: a second `p.Money` could hide in the .proto files past the limit."""
    from datetime import datetime, timezone

    from bot.local import git_review, schema_sets
    from tests.localgit import make_repo
    monkeypatch.setattr(schema_sets, "MAX_IMPORTS", 1)
    other = PROTO.replace("Money", "Other")
    repo = make_repo(tmp_path / "repo", {"proto/a.proto": other, "proto/b.proto": other.replace("package p", "package q")},
                     {"proto/z.proto": PROTO})
    result = git_review.review_repo(repo, "main", "feature", now=datetime(2026, 1, 1, tzinfo=timezone.utc))
    assert result.conclusion == "failure"
    assert [f.rule for file in result.files for f in file.findings] == ["SCHEMA_NOT_REVIEWED"]
