"""Rendering crafted findings: comment placement and bodies, check-run title, summary, annotations."""
import pytest

from bot.render.diff_lines import DiffSide, parse_patch
from bot.render import check_run
from bot.render.comments import place
from bot.render.escape import fenced
from bot.render.markdown import MAX_OUTPUT
from bot.render.model import FileComment, FileReview, InlineComment
from rules import Direction, Finding, Format, Mode, Severity, Side, Suggestion
from tests.rules.test_output import RAW

PATCH = """@@ -1,6 +1,8 @@
 {
   "type": "record",
   "name": "User",
   "fields": [
-    {"name": "fax", "type": "string"},
-    {"name": "id", "type": "string"}
+    {"name": "id", "type": "string"},
+    {"name": "level", "type": "int"},
+    {"name": "note", "type": "string"}
   ]
@@ -20,2 +22,3 @@
 x
+y
 z"""
BOTH = frozenset(Direction)
BACKWARD = frozenset({Direction.BACKWARD})
FORWARD = frozenset({Direction.FORWARD})


def finding(line=6, *, side=Side.NEW, severity=Severity.ERROR, suggestion=None, breaks=BACKWARD,
            rule="AVRO_FIELD_ADDED", path="User.level", message='Field "User.level" was added.',
            file="user.avsc", against=None):
    return Finding(rule=rule, severity=severity, line=line, path=path, message=message, side=side,
                   suggestion=suggestion, file=file, breaks=breaks, against=against)


def review_of(*findings, mode=Mode.BACKWARD, patch=PATCH, removed=False, path="user.avsc"):
    return FileReview(path=path, format=Format.AVRO, mode=mode, base_path=path, findings=findings,
                      diff=parse_patch(patch), removed=removed)


FIX = Suggestion(title='Give "level" a default', line_start=6, line_end=6,
                 replacement='    {"name": "level", "type": "int", "default": 0},\n')


def test_suggestion_inside_the_diff_becomes_a_suggestion_block_on_its_lines():
    comment = place(finding(suggestion=FIX), file=review_of(), fingerprint="ab" * 8)
    assert isinstance(comment, InlineComment)
    assert (comment.line, comment.side, comment.start_line) == (6, DiffSide.RIGHT, None)
    assert '```suggestion\n    {"name": "level", "type": "int", "default": 0},\n```' in comment.body
    assert comment.body.endswith("<!-- schema-review:fingerprint=abababababababab -->")
    assert comment.to_github() == {"path": "user.avsc", "line": 6, "side": "RIGHT",
                                   "body": comment.body}


def test_multi_line_suggestion_spans_exactly_its_lines():
    fix = Suggestion(title="t", line_start=5, line_end=7, replacement="a\nb\n")
    comment = place(finding(suggestion=fix), file=review_of(), fingerprint="0" * 16)
    assert (comment.start_line, comment.line) == (5, 7)
    assert comment.to_github()["start_side"] == "RIGHT"
    assert comment.to_github()["start_line"] == 5


def test_suggestion_across_hunks_is_shown_but_not_as_a_suggestion_block():
    fix = Suggestion(title="t", line_start=8, line_end=23, replacement="x\n")
    comment = place(finding(suggestion=fix), file=review_of(), fingerprint="0" * 16)
    assert isinstance(comment, InlineComment) and comment.line == 6 and comment.start_line is None
    assert "```suggestion" not in comment.body
    assert "Replace lines 8–23 of the new version with:\n```json\nx\n```" in comment.body


@pytest.mark.parametrize("replacement, shown", [
    ("x // \x1b[31mred\n", "x // \\x1b[31mred"),
    ("y // \u202eevil\n", "y // \\u202eevil"),
])
def test_a_fix_with_control_characters_is_shown_escaped_not_offered_as_a_suggestion(replacement, shown):
    # GitHub would apply a suggestion's text byte for byte: escaped, it would change the file.
    fix = Suggestion(title="t", line_start=6, line_end=6, replacement=replacement)
    comment = place(finding(suggestion=fix), file=review_of(), fingerprint="0" * 16)
    assert isinstance(comment, InlineComment) and comment.line == 6
    assert "```suggestion" not in comment.body and not RAW.findall(comment.body)
    assert f"Replace lines 6–6 of the new version with:\n```json\n{shown}\n```" in comment.body


def test_removed_element_is_commented_on_the_left():
    comment = place(finding(5, side=Side.OLD, path="User.fax", breaks=FORWARD),
                    file=review_of(), fingerprint="0" * 16)
    assert (comment.line, comment.side) == (5, DiffSide.LEFT)


def test_removed_element_with_a_fix_sits_on_the_fix_lines_on_the_right():
    fix = Suggestion(title="Keep it", line_start=5, line_end=5, replacement="x\n")
    comment = place(finding(5, side=Side.OLD, suggestion=fix), file=review_of(),
                    fingerprint="0" * 16)
    assert (comment.line, comment.side) == (5, DiffSide.RIGHT)
    assert "_The removed element was on line 5 of the base version._" in comment.body


def test_line_outside_the_diff_falls_back_to_a_file_comment():
    comment = place(finding(15), file=review_of(), fingerprint="0" * 16)
    assert isinstance(comment, FileComment)
    assert comment.to_github() == {"path": "user.avsc", "body": comment.body, "subject_type": "file"}


def test_finding_from_an_older_version_stays_in_the_summary():
    older = finding(3, side=Side.OLD, file="user.avsc@abc1234", against="abc1234")
    assert place(older, file=review_of(older), fingerprint="0" * 16) is None


@pytest.mark.parametrize("replacement, fence", [
    ("plain\n", "```suggestion\n"),
    ("has ``` inside\n", "````suggestion\n"),
    ("has ````` inside\n", "``````suggestion\n"),
])
def test_fence_outgrows_backticks_in_the_replacement(replacement, fence):
    fix = Suggestion(title="t", line_start=6, line_end=6, replacement=replacement)
    body = place(finding(suggestion=fix), file=review_of(), fingerprint="0" * 16).body
    assert fence + replacement + fence.strip().removesuffix("suggestion") in body


def test_empty_replacement_deletes_the_lines():
    fix = Suggestion(title="Delete it", line_start=6, line_end=6, replacement="")
    body = place(finding(suggestion=fix), file=review_of(), fingerprint="0" * 16).body
    assert "```suggestion\n```" in body
    assert fenced("") == "```\n```"


@pytest.mark.parametrize("breaks, mode, wanted", [
    (BACKWARD, Mode.BACKWARD, "Readers upgraded to the new schema cannot read data written with the old one"),
    (FORWARD, Mode.FULL, "Readers still on the old schema cannot read data written with the new one"),
    (FORWARD, Mode.BACKWARD, "does not require forward compatibility, so this is only a note"),
    (BOTH, Mode.FULL, "requires both backward and forward compatibility"),
    (frozenset(), Mode.FULL, "nothing by itself"),
])
def test_body_says_what_breaks_for_whom_in_which_mode(breaks, mode, wanted):
    body = place(finding(breaks=breaks), file=review_of(mode=mode), fingerprint="0" * 16).body
    assert wanted in body
    assert f"`{mode.value}` mode" in body or not breaks


RENAMED_WITH_DEFAULTS = ('{"type": "record", "name": "User", "fields": [\n'
                         '  {"name": "level", "type": "int", "default": 0}\n]}\n')
FORMAT_DATE = '{"type": "object", "properties": {"day": {"type": "string", "format": "date"}}}\n'


@pytest.mark.parametrize("name, old, new", [
    # readable with both defaults, but the values become the default
    ("user.avsc", RENAMED_WITH_DEFAULTS, RENAMED_WITH_DEFAULTS.replace('"level"', '"tier"')),
    # "format" is an annotation: no data is rejected unless validators assert it
    ("day.schema.json", FORMAT_DATE, FORMAT_DATE.replace('"date"', '"date-time"')),
])
def test_a_warning_never_says_it_breaks(name, old, new):
    """Real findings the rules lower to a warning: the body says what may break, and that it is
    a warning, never the error's "cannot read" sentence."""
    from rules import Source, check

    report = check(Source(path=name, text=old), Source(path=name, text=new), mode=Mode.FULL)
    warnings = [f for f in report.findings if f.severity is Severity.WARNING]
    assert warnings, report.findings
    for found in warnings:
        body = place(found, file=review_of(found, mode=Mode.FULL, path=name), fingerprint="0" * 16).body
        assert "**Warning**" in body and "cannot read" not in body and "**What breaks:**" not in body
        assert "**What may break** (in the case the message above describes): " in body
        assert "This is a warning, not a breaking change" in body


@pytest.mark.parametrize("rule", ["PROTO_RPC_SIGNATURE_CHANGED", "AVRO_FIELD_ADDED_WITHOUT_DEFAULT"])
def test_a_rule_configured_down_to_a_warning_says_it_may_break(rule):
    body = place(finding(rule=rule, severity=Severity.WARNING, breaks=BOTH),
                 file=review_of(mode=Mode.FULL), fingerprint="0" * 16).body
    assert "**What may break**" in body and "not a breaking change" in body
    assert "requires both backward and forward compatibility" not in body


@pytest.mark.parametrize("rule, wanted", [
    ("PROTO_FIELD_DELETED_NOT_RESERVED", "Nothing yet: data written with the old schema still decodes"),
    ("PROTO_ENUM_VALUE_DELETED_NOT_RESERVED", "reuses the number"),
    ("PROTO_RESERVED_DELETED", "Nothing yet: the reservation only guarded against reuse"),
    ("PROTO_FIELD_RENAMED", "Binary data is unaffected"),
    ("PROTO_FIELD_JSON_NAME_CHANGED", "JSON payloads key the field by its JSON name"),
    ("PROTO_PACKAGE_CHANGED", "`Any` type URLs"),
    ("PROTO_RPC_SIGNATURE_CHANGED", "Deployed clients and servers disagree"),
])
def test_a_rule_with_its_own_impact_says_it_instead_of_the_generic_sentence(rule, wanted):
    body = place(finding(rule=rule, breaks=BOTH), file=review_of(mode=Mode.FULL),
                 fingerprint="0" * 16).body
    assert wanted in body
    assert "cannot read data written with" not in body  # not the mode's generic sentence


def test_a_transitive_finding_names_the_mode_and_the_version_it_broke_against():
    found = finding(breaks=BACKWARD)
    older = Finding(**{**found.__dict__, "against": "3f2a9c1"})
    file = FileReview(path="user.avsc", format=Format.AVRO, mode=Mode.BACKWARD, transitive=True,
                      base_path="user.avsc", findings=(older,), diff=parse_patch(PATCH))
    body = place(older, file=file, fingerprint="0" * 16).body
    assert "`backward_transitive` mode" in body and "version `3f2a9c1`" in body
    plain = place(found, file=review_of(), fingerprint="0" * 16).body
    assert "`backward` mode" in plain and "Found against" not in plain


def test_error_without_a_fix_says_what_to_do():
    body = place(finding(), file=review_of(), fingerprint="0" * 16).body
    assert "**What to do:**" in body and "/schema-override" in body


@pytest.mark.parametrize("severities, files, expected", [
    ([], 1, "No breaking changes in 1 schema file"),
    ([Severity.ERROR, Severity.ERROR, Severity.WARNING], 3, "2 breaking changes, 1 warning in 3 schema files"),
    ([Severity.ERROR, Severity.INFO, Severity.INFO], 2, "1 breaking change, 2 notes in 2 schema files"),
    ([Severity.WARNING], 1, "1 warning in 1 schema file"),
])
def test_title_counts(severities, files, expected):
    reviews = [review_of(*[finding(severity=s) for s in severities])]
    reviews += [review_of(path=f"other{i}.avsc") for i in range(files - 1)]
    assert check_run.title(reviews) == expected


def test_title_without_files_and_with_unreviewed_ones():
    assert check_run.title([]) == "No schema files changed"
    skipped = FileReview(path="big.avsc", format=Format.AVRO, mode=Mode.BACKWARD, problem="too big")
    assert check_run.title([review_of(), skipped]) == "1 of 2 schema files not reviewed"
    breaking = review_of(finding())
    assert check_run.title([breaking, skipped]) == "1 breaking change in 2 schema files; 1 not reviewed"


def test_summary_table_escapes_cells_and_lists_what_is_not_inline():
    odd = finding(15, message="a | b\nc", suggestion=FIX)
    review = review_of(finding(), odd)
    summary = check_run.summary([review], not_inline=[(review, odd)], notes=["A note."])
    assert "| Severity | File | Rule | Element | Finding | Fix |" in summary
    assert "| **error** | `user.avsc:6` | `AVRO_FIELD_ADDED` | `User.level` |" in summary
    assert "a \\| b c" in summary
    assert "### Not commented inline" in summary and "#### `user.avsc:15`" in summary
    assert "| `user.avsc` | Avro | backward | 2 breaking changes |" in summary
    assert "- A note." in summary


def test_summary_and_text_are_truncated_under_the_limit():
    many = [finding(i, path=f"User.f{i}", message="x" * 300, suggestion=FIX) for i in range(1, 800)]
    review = review_of(*many)
    summary = check_run.summary([review], not_inline=[(review, f) for f in many])
    text = check_run.text([review])
    for output in (summary, text):
        assert len(output.encode("utf-8")) <= MAX_OUTPUT
        assert "_Truncated: " in output and "65,535-character limit" in output
        assert output.count("```") % 2 == 0  # no fence left open


def test_annotations_over_the_limit_keep_errors_and_are_listed_by_file_and_line():
    many = [finding(line, severity=Severity.WARNING, path=f"User.w{line}") for line in (1, 2, 9)]
    review = review_of(finding(8, severity=Severity.ERROR), *many)
    other = review_of(finding(3, severity=Severity.ERROR, file="a.avsc"), path="a.avsc")
    notes = check_run.annotations([review, other], limit=3)
    assert [(a["path"], a["start_line"]) for a in notes] == [("a.avsc", 3), ("user.avsc", 1),
                                                             ("user.avsc", 8)]


def test_annotations_levels_titles_and_removed_lines():
    fix = Suggestion(title="Fix it", line_start=6, line_end=6, replacement="r\n")
    review = review_of(finding(severity=Severity.ERROR, suggestion=fix),
                       finding(7, severity=Severity.WARNING, path="p" * 300),
                       finding(5, side=Side.OLD, severity=Severity.INFO, path="User.fax"),
                       finding(3, side=Side.OLD, file="user.avsc@abc1234", against="abc1234"))
    gone = review_of(finding(1, side=Side.OLD), path="gone.avsc", removed=True)
    notes = check_run.annotations([review, gone])
    # Listed by line, as every format lists findings (issue 21).
    assert [(a["start_line"], a["end_line"], a["annotation_level"]) for a in notes] == \
        [(5, 5, "notice"), (6, 6, "failure"), (7, 7, "warning")]
    assert notes[1]["title"] == "AVRO_FIELD_ADDED: User.level"
    assert notes[1]["message"].endswith("Fix: Fix it") and notes[1]["raw_details"] == "r\n"
    assert len(notes[2]["title"]) == 255
    assert notes[0]["message"].startswith("Removed from line 5 of the base version. ")
    assert all(set(a) >= {"path", "start_line", "end_line", "annotation_level", "message"} for a in notes)
