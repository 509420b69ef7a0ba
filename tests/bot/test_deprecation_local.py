"""The deprecation window end to end (`review --repo` on a git repository with backdated history):
a deprecated element is the one declared in its record, message or object, never its namesake."""
import json
import os
from datetime import datetime, timedelta, timezone

import pytest

from bot.local.main import main
from tests.localgit import commit_at, git

NOW = datetime(2026, 12, 2, 12, tzinfo=timezone.utc)
CONFIG = {".github/schema-review.yml": "rules:\n  SCHEMA_DEPRECATION_WINDOW: error\n"}


def avro(order: str, customer: str = '{"name": "zip", "type": "string", "default": ""}') -> str:
    return ('{"type": "record", "name": "Order", "namespace": "shop", "fields": [\n'
            ' {"name": "id", "type": "string"},\n'
            ' {"name": "customer", "type": {"type": "record", "name": "Customer", "fields": [\n'
            f'   {customer}]}}}}{order}\n]}}\n')


LEGACY = '{"name": "legacy", "type": "string", "default": ""%s}'
DEPRECATED = ', "doc": "deprecated: use id"'
AVRO_KEPT = ",\n " + LEGACY % ""
AVRO_MARKED = ",\n " + LEGACY % DEPRECATED


def proto(order: str, other: str = "string zip = 1;") -> str:
    return (f'syntax = "proto3";\npackage shop;\nmessage Customer {{\n  {other}\n}}\n'
            f"message Order {{\n  string id = 1;\n  {order}\n}}\n")


def schema(a: str, b: str = '"legacy": {"type": "string"}') -> str:
    return (f'{{"type": "object", "properties": {{\n  "a": {{"type": "object", "properties": {{{a}}}}},\n'
            f'  "b": {{"type": "object", "properties": {{{b}}}}}\n}}}}\n')


PROTO_MARK = ("legacy = 2;", "legacy = 2 [deprecated = true];")
# (file, its first version, how the deprecation then marks it (old, new), the pull request's
# head, the element flagged and the line the base declares it on)
CASES = {
    # A namesake in another record keeps nothing of the deleted one.
    "avro-namesake": ("s/o.avsc", avro(AVRO_KEPT, LEGACY % ""), (AVRO_KEPT, AVRO_MARKED),
                      avro("", LEGACY % ""), "Order.legacy", 5),
    # Customer.legacy, deprecated long ago, lends its date to nothing: Order.legacy dates itself.
    "avro-borrowed-date": ("s/o.avsc", avro(AVRO_KEPT, LEGACY % DEPRECATED), (AVRO_KEPT, AVRO_MARKED),
                           avro(""), "Order.legacy", 5),
    "proto-namesake": ("s/o.proto", proto("string legacy = 2;", "string legacy = 1;"), PROTO_MARK,
                       proto("reserved 2;", "string legacy = 1;"), "Order.legacy", 8),
    # A name left in a comment is no field.
    "proto-comment": ("s/o.proto", proto("string legacy = 2;"), PROTO_MARK,
                      proto('reserved 2; reserved "legacy"; // was: legacy = 2'), "Order.legacy", 8),
    "proto-enum-value": ("s/o.proto", proto("Kind kind = 2;\n  enum Kind { A = 0; OLD = 1; }"),
                         ("OLD = 1;", "OLD = 1 [deprecated = true];"),
                         proto("Kind kind = 2;\n  enum Kind { A = 0; reserved 1; }"), "Order.Kind.OLD", 9),
    "proto-oneof": ("s/o.proto", proto("oneof pay { string card = 2; string cash = 3; }"),
                    ("cash = 3;", "cash = 3 [deprecated = true];"),
                    proto("oneof pay { string card = 2; }"), "Order.cash", 8),
    "jsonschema-namesake": ("s/o.schema.json", schema('"legacy": {"type": "string"}'),
                            ('"legacy": {"type": "string"}', '"legacy": {"type": "string", "deprecated": true}'),
                            schema(""), "$.a.legacy", 2),
}


def review(tmp_path, capsys, case: str, days: int) -> tuple[int, list[dict]]:
    path, first, (old, new), head, _element, _line = CASES[case]
    assert old in first
    marked = first.replace(old, new, 1)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit_at(repo, NOW - timedelta(days=300), {path: first, **CONFIG}, "first")
    commit_at(repo, NOW - timedelta(days=days), {path: marked}, "deprecate")
    git(repo, "checkout", "-q", "-b", "feature")
    commit_at(repo, NOW - timedelta(hours=1), {path: head}, "delete")
    code = main(["review", "--repo", str(repo), "--base", "main", "--head", "feature",
                 "--output", "json"], now=NOW)
    findings = json.loads(capsys.readouterr().out)["findings"]
    return code, [f for f in findings if f["rule"] == "SCHEMA_DEPRECATION_WINDOW"]


@pytest.mark.parametrize("case", CASES)
def test_a_deprecated_element_deleted_too_soon_is_flagged_whatever_its_namesakes(tmp_path, capsys, case):
    code, found = review(tmp_path, capsys, case, 2)
    assert [(f["path"], f["line"], f["severity"]) for f in found] == [(*CASES[case][4:], "error")]
    assert code == 1


@pytest.mark.parametrize("case", CASES)
def test_once_the_window_has_passed_the_same_deletion_is_not_flagged(tmp_path, capsys, case):
    _code, found = review(tmp_path, capsys, case, 100)
    assert found == []


def test_an_undeprecation_on_main_is_not_skipped_by_a_merge_that_keeps_an_older_version(tmp_path, capsys):
    """A branch cut while the field was deprecated merges main with `-s ours`: git's history
    simplification would follow that branch and skip main's un-deprecation, dating the
    deprecation to the first one, 70 days ago. Main's own line says it came back today."""
    path, plain, head = "s/o.proto", proto("string legacy = 2;"), proto("reserved 2;")
    marked = plain.replace(*PROTO_MARK)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit_at(repo, NOW - timedelta(days=100), {path: plain, **CONFIG}, "first")
    commit_at(repo, NOW - timedelta(days=70), {path: marked}, "deprecate")
    git(repo, "branch", "old", "HEAD")
    commit_at(repo, NOW - timedelta(days=40), {path: plain}, "un-deprecate")
    git(repo, "checkout", "-q", "old")
    commit_at(repo, NOW - timedelta(days=1), {path: marked.replace("string id", "bytes id")}, "again")
    dated = {**os.environ, **{f"GIT_{who}_DATE": (NOW - timedelta(hours=2)).isoformat()
                              for who in ("AUTHOR", "COMMITTER")}}
    git(repo, "merge", "-q", "-s", "ours", "main", "-m", "keep ours", env=dated)
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "old", "-m", "merge old", env=dated)
    git(repo, "checkout", "-q", "-b", "feature")
    commit_at(repo, NOW - timedelta(hours=1), {path: head.replace("string id", "bytes id")}, "delete")
    code = main(["review", "--repo", str(repo), "--base", "main", "--head", "feature",
                 "--output", "json"], now=NOW)
    found = [f for f in json.loads(capsys.readouterr().out)["findings"]
             if f["rule"] == "SCHEMA_DEPRECATION_WINDOW"]
    assert [(f["path"], f["severity"]) for f in found] == [("Order.legacy", "error")]
    assert "on the day it was marked deprecated, 2026-12-02 (commit date)" in found[0]["message"]
    assert code == 1
