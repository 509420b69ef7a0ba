"""review(): which files are checked, how unusable input ends, what gets commented, conclusions."""
import difflib
import json
from datetime import datetime, timezone

import pytest

from bot.config.config import Config, parse_config
from bot.render.diff_lines import DiffSide
from bot.review.review import (Conclusion, FileChange, FileComment, FileStatus, InlineComment,
                        new_comments, review, stale_fingerprints)
from rules import Severity, Side

NOW = datetime(2025, 3, 20, tzinfo=timezone.utc)


def avro(*fields):
    lines = ['{', '  "type": "record",', '  "name": "User",', '  "fields": [']
    body = [f'    {json.dumps(f)}' for f in fields]
    lines += [line + ("," if i < len(body) - 1 else "") for i, line in enumerate(body)]
    return "\n".join(lines + ["  ]", "}"]) + "\n"


def patch(old, new):
    """A GitHub-style patch: unified hunks, no file headers."""
    diff = difflib.unified_diff((old or "").splitlines(), (new or "").splitlines(), lineterm="", n=3)
    return "\n".join(list(diff)[2:]) or None


def change(path, old, new, *, status=FileStatus.MODIFIED, **extra):
    return FileChange(path=path, status=status, patch=patch(old, new), base_text=old,
                      head_text=new, **extra)


ID = {"name": "id", "type": "string"}
LEVEL = {"name": "level", "type": "int"}
BASE = avro(ID)


def run(*changes, config=None):
    return review(list(changes), config or Config(), now=NOW)


def test_no_schema_files():
    result = run(change("README.md", "a\n", "b\n"))
    assert (result.conclusion, result.title, result.files) == (Conclusion.SUCCESS, "No schema files changed", ())


def test_unchanged_schema_succeeds():
    result = run(change("user.avsc", BASE, BASE.replace('"User"', '"User" ')))
    assert result.conclusion is Conclusion.SUCCESS
    assert result.title == "No breaking changes in 1 schema file"
    assert result.comments == () and result.annotations == ()


def test_breaking_change_fails_with_a_suggestion_on_the_diff():
    result = run(change("user.avsc", BASE, avro(ID, LEVEL)))
    assert result.conclusion is Conclusion.FAILURE
    assert "breaking change" in result.title
    inline = result.inline_comments
    assert inline and all(c.side is DiffSide.RIGHT for c in inline)
    assert any("```suggestion" in c.body for c in inline)
    assert result.fingerprints == {c.fingerprint for c in result.comments}
    assert result.annotations and result.annotations[0]["annotation_level"] == "failure"


def test_same_change_in_forward_mode_is_not_a_failure():
    result = run(change("user.avsc", BASE, avro(ID, LEVEL)),
                 config=parse_config("compatibility: forward\n", known_rules=frozenset()))
    assert result.conclusion is Conclusion.SUCCESS


def test_invalid_head_fails_on_its_line():
    broken = BASE.replace('"name": "id"', '"name" "id"')
    result = run(change("user.avsc", BASE, broken))
    [finding] = result.findings["user.avsc"]
    assert (finding.rule, finding.severity, finding.line) == ("SCHEMA_INVALID", Severity.ERROR, 5)
    assert result.conclusion is Conclusion.FAILURE


def test_added_file_is_validated_only():
    good = run(change("user.avsc", None, avro(ID, LEVEL), status=FileStatus.ADDED))
    bad = run(change("user.avsc", None, "{", status=FileStatus.ADDED))
    assert good.conclusion is Conclusion.SUCCESS and good.files[0].base_path is None
    assert bad.conclusion is Conclusion.FAILURE
    assert [f.rule for f in bad.findings["user.avsc"]] == ["SCHEMA_INVALID"]


def test_unusable_base_fails_closed():
    result = run(change("user.avsc", "{ not json", BASE))
    assert result.conclusion is Conclusion.FAILURE
    assert "the base version cannot be read" in result.files[0].problem
    assert result.title == "1 of 1 schema file not reviewed"
    assert "not reviewed: the base version" in result.summary and "No breaking" not in result.summary
    [finding] = result.findings["user.avsc"]
    assert (finding.rule, finding.severity) == ("SCHEMA_NOT_REVIEWED", Severity.ERROR)
    assert result.comments == ()  # listed in the check run; a comment per unreviewed file is spam
    assert finding_fingerprints(result) <= result.fingerprints  # what an override can cover


@pytest.mark.parametrize("head", [b"\0binary", b"\xff\xfe not utf-8", b"x" * (2 * 1024 * 1024 + 1)])
def test_unusable_bytes_fail_closed(head):
    result = run(FileChange(path="user.avsc", status=FileStatus.MODIFIED, base_text=BASE.encode(),
                            head_text=head))
    assert result.conclusion is Conclusion.FAILURE
    assert result.files[0].problem.startswith("the head version is unusable")


def finding_fingerprints(result) -> set[str]:
    from bot.render.fingerprint import of
    return {of(f, file) for file in result.files for f in file.findings}


def test_removed_schema_file_warns_on_the_left():
    result = run(change("user.avsc", BASE, None, status=FileStatus.REMOVED))
    [finding] = result.findings["user.avsc"]
    assert (finding.rule, finding.severity, finding.side) == ("SCHEMA_FILE_REMOVED", Severity.WARNING, Side.OLD)
    [comment] = result.comments
    assert (comment.line, comment.side) == (1, DiffSide.LEFT)
    assert result.annotations == ()  # the head commit has no such file
    assert result.conclusion is Conclusion.SUCCESS


def test_removed_file_rule_can_be_configured():
    config = parse_config("rules:\n  SCHEMA_FILE_REMOVED: off\n", known_rules=frozenset({"SCHEMA_FILE_REMOVED"}))
    assert run(change("user.avsc", BASE, None, status=FileStatus.REMOVED), config=config).findings == {"user.avsc": ()}
    config = parse_config("rules:\n  SCHEMA_FILE_REMOVED: error\n", known_rules=frozenset({"SCHEMA_FILE_REMOVED"}))
    assert run(change("user.avsc", BASE, None, status=FileStatus.REMOVED), config=config).conclusion is Conclusion.FAILURE


def test_renamed_to_a_name_not_reviewed_counts_as_removed():
    moved = FileChange(path="user.avsc.bak", status=FileStatus.RENAMED, previous_path="user.avsc",
                       base_text=BASE, head_text=BASE)
    result = run(moved)
    assert [f.rule for f in result.files[0].findings] == ["SCHEMA_FILE_REMOVED"]


def test_max_files_leaves_the_rest_unreviewed():
    config = parse_config("max_files: 1\n", known_rules=frozenset())
    result = run(change("a.avsc", BASE, BASE), change("b.avsc", BASE, BASE), config=config)
    assert [f.reviewed for f in result.files] == [True, False]
    assert result.conclusion is Conclusion.FAILURE
    assert "max_files" in result.files[1].problem
    assert result.title == "1 of 2 schema files not reviewed"


@pytest.mark.parametrize("broken_first", [True, False])
def test_files_beyond_max_files_fail_the_check_whatever_their_order(broken_first):
    """Padding a pull request with harmless schemas sorted before a breaking one must not turn
    the check neutral or green: the broken file is either reviewed or not reviewed (failure)."""
    config = parse_config("max_files: 2\n", known_rules=frozenset())
    harmless = [change(f"a{i}.avsc", BASE, BASE) for i in range(3)]
    broken = change("z.avsc", BASE, avro(ID, LEVEL))
    files = [broken, *harmless] if broken_first else [*harmless, broken]
    assert run(*files, config=config).conclusion is Conclusion.FAILURE


def test_files_github_did_not_list_fail_the_check():
    reason = "GitHub lists only the first 3,000 of this pull request's 3,001 changed files"
    result = review([change("a.avsc", BASE, BASE)], parse_config(None), now=NOW, unlisted=reason)
    assert result.conclusion is Conclusion.FAILURE
    assert [f.reviewed for f in result.files] == [True, False]
    assert reason in result.summary and result.annotations == ()


def test_transitive_mode_checks_older_versions():
    older = avro(ID)  # before `level` existed
    base = avro(ID, LEVEL)  # `level` arrived without a default (a break, but already merged)
    head = avro(ID, LEVEL, {"name": "note", "type": ["null", "string"], "default": None})
    history = [("b" * 40, "2025-03-01T00:00:00+00:00", base), ("a" * 40, "2025-01-01T00:00:00+00:00", older)]
    plain = run(change("user.avsc", base, head, history=history))
    transitive = run(change("user.avsc", base, head, history=history),
                     config=parse_config("compatibility: backward_transitive\n", known_rules=frozenset()))
    assert plain.conclusion is Conclusion.SUCCESS
    assert transitive.conclusion is Conclusion.FAILURE
    assert any("level" in f.path for f in transitive.findings["user.avsc"])


def test_transitive_mode_skips_an_unreadable_older_version_with_a_note():
    history = [("b" * 40, "2025-03-01T00:00:00+00:00", BASE), ("a" * 40, "2025-01-01T00:00:00+00:00", "{")]
    result = run(change("user.avsc", BASE, BASE, history=history),
                 config=parse_config("compatibility: full_transitive\n", known_rules=frozenset()))
    assert 'Version aaaaaaa of "user.avsc" could not be read' in result.summary
    assert result.conclusion is Conclusion.SUCCESS


def test_deleting_a_freshly_deprecated_field_warns():
    fax = {"name": "fax", "type": ["null", "string"], "default": None, "deprecated": True}
    base = avro(ID, fax)
    history = [("b" * 40, "2025-03-18T00:00:00+00:00", base)]
    result = run(change("user.avsc", base, avro(ID), history=history))
    rules = [f.rule for f in result.findings["user.avsc"]]
    assert "SCHEMA_DEPRECATION_WINDOW" in rules
    assert "2025-04-01" in result.summary  # 14 days after it was marked


def test_new_and_stale_comments():
    first = run(change("user.avsc", BASE, avro(ID, LEVEL)))
    assert first.comments
    posted = {c.fingerprint for c in first.comments}
    again = run(change("user.avsc", BASE, avro(ID, LEVEL)))
    assert new_comments(again, posted) == []
    assert stale_fingerprints(again, posted) == set()
    fixed = run(change("user.avsc", BASE, avro(ID, dict(LEVEL, default=0))))
    assert stale_fingerprints(fixed, posted | {"ffffffffffffffff"}) == posted | {"ffffffffffffffff"} - fixed.fingerprints
    assert new_comments(first, set()) == list(first.comments)


def test_comment_kinds_are_split_for_the_handler():
    result = run(change("user.avsc", BASE, avro(ID, LEVEL)), change("b.avsc", "{", BASE))
    assert all(isinstance(c, InlineComment) for c in result.inline_comments)
    assert all(isinstance(c, FileComment) for c in result.file_comments)
    assert len(result.inline_comments) + len(result.file_comments) == len(result.comments)
