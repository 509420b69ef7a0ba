"""Schemas split across files in the App: each version is checked with its revision's other
files (FileChange.base_imports/head_imports), and a break in a shared file is shown there."""
import json
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.config.config import Config
from bot.local.git_review import review_repo
from bot.render import check_run
from bot.render.comments import place
from bot.render.model import FileComment, FileReview
from bot.review.review import FileChange, FileStatus, review
from bot.gather import schemaset, users
from bot.gather.schemaset import MAX_SET_FILES, Listing, formats_of, schema_sets
from bot.gather.users import context_changes, with_context
from rules import Finding, Format, Mode, Severity, Side
from tests.bot.test_review import patch
from tests.localgit import make_repo

NOW = datetime(2025, 3, 20, tzinfo=timezone.utc)
SHOP = Path(__file__).parent.parent / "rules" / "trees" / "shop"
# The Avro and JSON Schema files (proto/ is a buf module: its imports are tests/integration's).
SCHEMAS = sorted(p.relative_to(SHOP / "old").as_posix() for p in (SHOP / "old").rglob("*")
                 if p.is_file() and not p.is_relative_to(SHOP / "old" / "proto"))


def tree(side: str) -> dict[str, str]:
    return {path: (SHOP / side / path).read_text() for path in SCHEMAS}


def change(path: str, *, with_sets: bool = True) -> FileChange:
    old, new = tree("old"), tree("new")
    return FileChange(path=path, status=FileStatus.MODIFIED, patch=patch(old[path], new[path]),
                      base_text=old[path], head_text=new[path],
                      base_imports={p: t for p, t in old.items() if p != path} if with_sets else {},
                      head_imports={p: t for p, t in new.items() if p != path} if with_sets else {})


def test_files_using_shared_types_and_refs_are_valid_and_breaks_show_on_the_shared_file():
    result = review([change(path) for path in SCHEMAS], Config(), now=NOW)
    found = {(path, f.rule, f.path) for path, findings in result.findings.items() for f in findings}
    assert not any(rule == "SCHEMA_INVALID" for _path, rule, _element in found)
    assert found == {
        ("avro/common/currency.avsc", "AVRO_ENUM_SYMBOL_REMOVED", "Currency.JPY"),
        ("schemas/common/address.schema.json", "JSONSCHEMA_PROPERTY_MADE_REQUIRED", "$.zip"),
        ("schemas/common/defs.schema.json", "JSONSCHEMA_CONSTRAINT_LOOSENED", "Order.lines[].sku/maxLength"),
    }
    # One change, once, at its definition, naming the files that use it (issue 21).
    zip_required = result.findings["schemas/common/address.schema.json"][0]
    assert zip_required.message.endswith(
        " Used by schemas/orders/customer.schema.json (Customer.home.zip), "
        "schemas/orders/order.schema.json (Order.shipTo.zip).")
    # Every comment and annotation is on the file whose lines it names.
    assert {(a["path"], a["start_line"]) for a in result.annotations} == {
        ("avro/common/currency.avsc", 5), ("schemas/common/address.schema.json", 9),
        ("schemas/common/defs.schema.json", 4)}
    assert {c.path for c in result.comments} <= {
        "avro/common/currency.avsc", "schemas/common/address.schema.json",
        "schemas/common/defs.schema.json"}


def test_without_its_set_a_file_using_another_files_type_is_invalid():
    """What the App did before it fetched sets: the control for the test above."""
    result = review([change("avro/shop/order.avsc", with_sets=False)], Config(), now=NOW)
    assert [f.rule for f in result.findings["avro/shop/order.avsc"]] == ["SCHEMA_INVALID"]


def test_a_break_in_a_file_the_pull_request_does_not_change_is_named_not_misplaced():
    result = review([change("avro/shop/order.avsc")], Config(), now=NOW)
    (finding,) = result.findings["avro/shop/order.avsc"]
    assert (finding.rule, finding.file, finding.line) == (
        "AVRO_ENUM_SYMBOL_REMOVED", "avro/common/currency.avsc", 5)
    (comment,) = result.comments
    assert isinstance(comment, FileComment) and comment.path == "avro/shop/order.avsc"
    assert "`avro/common/currency.avsc:5`" in comment.body
    assert [(a["path"], a["start_line"]) for a in result.annotations] == [
        ("avro/common/currency.avsc", 5)]
    assert "avro/common/currency.avsc:5" in result.text


def test_an_old_side_finding_in_another_file_is_not_annotated_on_the_head():
    gone = Finding(rule="AVRO_FIELD_DELETED", severity=Severity.ERROR, line=3, path="Money.x",
                   message="gone", side=Side.OLD, file="avro/common/money.avsc")
    file = FileReview(path="avro/shop/order.avsc", format=Format.AVRO, mode=Mode.BACKWARD,
                      base_path="avro/shop/order.avsc", findings=(gone,))
    assert file.in_other_file(gone) and not file.from_older_version(gone)
    assert check_run.annotations([file]) == []
    assert isinstance(place(gone, file=file, fingerprint="0" * 16), FileComment)


def test_a_change_only_to_a_shared_file_is_checked_through_the_files_using_it():
    """defs.schema.json's root uses none of its `$defs`: alone it compares as unchanged; the
    unchanged order.schema.json that uses it shows the change, on defs.schema.json."""
    changes = [change("schemas/common/defs.schema.json")]
    users = context_changes(changes, tree("new"), formats_of(Config()))
    assert [(u.path, u.context) for u in users] == [("schemas/orders/order.schema.json", True)]
    result = review(changes + users, Config(), now=NOW)
    assert list(result.findings) == ["schemas/common/defs.schema.json"]  # the user had no own finding
    (finding,) = result.findings["schemas/common/defs.schema.json"]
    assert (finding.rule, finding.path, finding.line) == (
        "JSONSCHEMA_CONSTRAINT_LOOSENED", "Order.lines[].sku/maxLength", 4)
    assert all(c.path == "schemas/common/defs.schema.json" for c in result.comments)


def test_a_user_made_unusable_by_a_shared_change_is_shown_without_a_comment():
    """Currency deleted: money.avsc (unchanged) no longer resolves; it is where that shows."""
    old, new = tree("old"), tree("new")
    gone = FileChange(path="avro/common/currency.avsc", status=FileStatus.REMOVED,
                      base_text=old["avro/common/currency.avsc"], head_text=None,
                      base_imports={p: t for p, t in old.items() if p != "avro/common/currency.avsc"})
    heads = {p: t for p, t in new.items() if p != "avro/common/currency.avsc"}
    users = context_changes([gone], heads, formats_of(Config()))
    assert {u.path for u in users} == {"avro/common/money.avsc", "avro/shop/order.avsc",
                                       "avro/shop/refund.avsc"}
    result = review([gone, *users], Config(), now=NOW)
    invalid = {path for path, findings in result.findings.items()
               if any(f.rule == "SCHEMA_INVALID" for f in findings)}
    assert "avro/common/money.avsc" in invalid
    assert result.conclusion.value == "failure"
    assert {c.path for c in result.comments} <= {"avro/common/currency.avsc"}


def test_the_local_review_uses_each_revisions_files_and_their_users(tmp_path):
    repo = make_repo(tmp_path / "repo", tree("old"), tree("new"))
    result = review_repo(repo, "main", "feature", now=NOW)
    found = {(path, f.rule, f.path) for path, findings in result.findings.items() for f in findings}
    assert ("schemas/common/defs.schema.json", "JSONSCHEMA_CONSTRAINT_LOOSENED",
            "Order.lines[].sku/maxLength") in found
    assert not any(rule == "SCHEMA_INVALID" for _p, rule, _e in found)
    assert ("avro/common/currency.avsc", "AVRO_ENUM_SYMBOL_REMOVED", "Currency.JPY") in found


def test_users_that_cannot_be_judged_or_do_not_fit_never_fail_the_gate():
    changes = [change("schemas/common/defs.schema.json")]
    users = context_changes(changes, tree("new"), formats_of(Config()))
    broken = [replace(users[0], base_text="{", head_text="{")]  # unusable before and after
    result = review(changes + broken, Config(), now=NOW)
    assert list(result.findings) == ["schemas/common/defs.schema.json"]
    assert result.findings["schemas/common/defs.schema.json"] == ()
    # Users do not count against max_files: this one is reviewed (nothing it shows fails).
    full = review(changes + users, replace(Config(), max_files=1), now=NOW)
    assert [f.path for f in full.files] == ["schemas/common/defs.schema.json"]
    assert full.conclusion.value == "success"


def test_a_user_that_cannot_be_reviewed_fails_the_changed_file_it_uses():
    changes = [change("schemas/common/defs.schema.json")]
    users = context_changes(changes, tree("new"), formats_of(Config()))
    assert users[0].uses == ("schemas/common/defs.schema.json",)
    stuck = [replace(users[0], problem="the head version is binary, not schema text")]
    result = review(changes + stuck, Config(), now=NOW)
    (finding,) = result.findings["schemas/common/defs.schema.json"]
    assert finding.rule == "SCHEMA_NOT_REVIEWED" and "schemas/orders/order.schema.json" in finding.message
    assert result.conclusion.value == "failure"


class FakeRepo:
    """Files at one commit "head": blob lookups and tree listings, counted."""

    def __init__(self, files: dict[str, str], *, truncated: bool = False):
        self.files, self.truncated, self.asked, self.trees = files, truncated, [], 0

    def tree_paths(self, sha):
        self.trees += 1
        return list(self.files), self.truncated

    def blobs(self, keys):
        keys = list(keys)
        self.asked += keys
        return {k: SimpleNamespace(text=self.files.get(k[1]), too_large=False, binary=False)
                if k[1] in self.files else None for k in keys}


def test_users_not_searched_fail_the_changed_files_of_their_format(monkeypatch):
    new = tree("new")
    changes = [change("schemas/common/defs.schema.json")]
    fits = with_context(FakeRepo(new), Config(), changes, "head")
    assert fits[0].users_unchecked is None
    assert [c.path for c in fits[1:]] == ["schemas/orders/order.schema.json"]
    truncated = with_context(FakeRepo(new, truncated=True), Config(), changes, "head")
    assert "cut the repository's file listing short" in truncated[0].users_unchecked
    monkeypatch.setattr(users, "MAX_CONTEXT_FILES", 1)
    over = with_context(FakeRepo(new), Config(), changes, "head")
    assert "over the 1 searched" in over[0].users_unchecked
    for found in (truncated, over):
        result = review(found, Config(), now=NOW)
        assert "SCHEMA_NOT_REVIEWED" in {f.rule for f in result.findings["schemas/common/defs.schema.json"]}
        assert result.conclusion.value == "failure"


def test_each_set_file_is_parsed_once(monkeypatch):
    """Many changed Avro files using a type none of them defines: each text is parsed once,
    not once per file using the set (1,000 such files took 24 s)."""
    files = {f"avro/r{i:03}.avsc": json.dumps({"type": "record", "name": f"R{i}", "namespace": "x",
                                               "fields": [{"name": "m", "type": "x.Shared"}]})
             for i in range(60)}
    files["avro/shared.avsc"] = json.dumps({"type": "fixed", "name": "Shared", "namespace": "x", "size": 4})
    blobs = {("head", p): SimpleNamespace(text=t) for p, t in files.items() if p != "avro/shared.avsc"}
    parsed = []
    real = schemaset.json.loads
    monkeypatch.setattr(schemaset.json, "loads", lambda text: parsed.append(text) or real(text))
    sets = schema_sets(FakeRepo(files), Config(), blobs)
    assert "avro/shared.avsc" in sets[("head", "avro/r000.avsc")]
    assert len(parsed) == len(files)


def test_set_lookups_are_bounded_per_revision_and_format_and_exist():
    """100 changed files with 200 `$ref`s each to files that do not exist: only files the
    commit's listing holds are asked for when it is known, and never over MAX_SET_FILES."""
    blobs = {("head", f"schemas/f{i:03}.schema.json"): SimpleNamespace(text=json.dumps(
        {"properties": {f"p{j}": {"$ref": f"x{i}_{j}.schema.json"} for j in range(200)}}))
        for i in range(100)}
    repo = FakeRepo({})
    schema_sets(repo, Config(), blobs)
    assert 0 < len(repo.asked) <= MAX_SET_FILES - len(blobs)
    listed = FakeRepo({path: "{}" for _sha, path in blobs})
    listing = Listing(listed)
    listing.tree("head")
    schema_sets(listed, Config(), blobs, listing=listing)
    assert listed.asked == [] and listed.trees == 1


def test_a_listing_known_already_is_not_asked_for_again():
    """The review state query's file list (bot/github/tree_query.py) serves the search for users."""
    new = tree("new")
    repo = FakeRepo(new)
    found = with_context(repo, Config(), [change("schemas/common/defs.schema.json")], "head",
                         listing=Listing(repo, known={"head": list(new)}))
    assert repo.trees == 0 and found[0].users_unchecked is None
    assert [c.path for c in found[1:]] == ["schemas/orders/order.schema.json"]


DRAFT7 = "http://json-schema.org/draft-07/schema#"
COMMON = {"$schema": DRAFT7, "definitions": {"x": {"type": "string"}}}


@pytest.mark.parametrize("user", [
    # a byte order mark before the JSON (the engine reads it as utf-8-sig)
    "\ufeff" + json.dumps({"$schema": DRAFT7, "type": "object",
                           "properties": {"a": {"$ref": "common.json#/definitions/x"}}}),
    # the reference sits outside any schema keyword, reached by a JSON pointer
    json.dumps({"$schema": DRAFT7, "type": "object", "properties": {"a": {"$ref": "#/shared/w"}},
                "shared": {"w": {"$ref": "common.json#/definitions/x"}}}),
], ids=["byte-order-mark", "reference-outside-schema-keywords"])
def test_an_unchanged_user_is_found_however_it_is_written(tmp_path, user):
    # {"a": "hi"} is valid at base and not at head: the change breaks the unchanged user.
    head = {**COMMON, "definitions": {"x": {"type": "integer"}}}
    repo = make_repo(tmp_path / "repo", {"schemas/common.json": json.dumps(COMMON), "schemas/user.json": user},
                     {"schemas/common.json": json.dumps(head)})
    result = review_repo(repo, "main", "feature", now=NOW)
    assert result.conclusion.value == "failure"
    assert any(f.rule == "JSONSCHEMA_TYPE_CHANGED" for f in result.findings["schemas/common.json"])
