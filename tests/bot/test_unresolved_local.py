"""`schema-review review` (bot/local/git_review.py), the App's review on a local git change: the same
cases as the CLI's (tests/rules/test_unresolved.py). A reference the head cannot resolve fails
the review naming it and its file; the base's alone, or a target that is "anything", does not."""
from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from bot.local.git_review import review_repo
from rules import Severity
from tests.integration.test_unresolved import ORDER_BY_URL, ORDER_PLUS
from tests.localgit import make_repo
from tests.rules.test_unresolved import CASES

NOW = datetime(2025, 3, 20, tzinfo=timezone.utc)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_local_review_fails_only_where_the_head_does_not_resolve(tmp_path, name):
    case = CASES[name]
    head = {path: case.new.get(path) for path in case.old.keys() | case.new.keys()}  # None deletes
    repo = make_repo(tmp_path / "repo", case.old, head)
    result = review_repo(repo, "main", "feature", now=NOW)
    errors = [f for file in result.files for f in file.findings if f.severity is Severity.ERROR]
    if case.exit == 2:
        assert result.conclusion.value == "failure"
        reference, where = case.said[:2]
        assert any(f.rule == "SCHEMA_INVALID" and reference in f.message and f.file == where
                   for f in errors), errors
    elif case.exit == 1:  # a finding, not an unreadable file
        assert result.conclusion.value == "failure"
        assert errors and all(f.rule != "SCHEMA_INVALID" for f in errors), errors
    else:
        assert errors == [] and result.conclusion.value == "success", errors


def test_a_ref_to_a_file_the_set_leaves_out_fails_naming_it_and_why(tmp_path):
    # vendor/money.json declares the URL, but the default `paths` do not review it: the set
    # leaves it out, so the reference is not one outside the repository (that would pass).
    base = {"schemas/order.schema.json": json.dumps(ORDER_BY_URL, indent=2),
            "vendor/money.json": json.dumps({"$id": "https://example.com/money.json", "type": "integer"})}
    repo = make_repo(tmp_path / "repo", base, {"schemas/order.schema.json": json.dumps(ORDER_PLUS, indent=2)})
    result = review_repo(repo, "main", "feature", now=NOW)
    assert result.conclusion.value == "failure"
    problem = "its target may be vendor/money.json, which was not read (the config's `paths` do not review it"
    assert any(f.rule == "SCHEMA_INVALID" and problem in f.message
               for file in result.files for f in file.findings), result.files
