"""GitHub `patch` strings -> the lines a comment may sit on, per side and per hunk."""
import pytest

from bot.render.diff_lines import DiffSide, parse_patch

LEFT, RIGHT = DiffSide.LEFT, DiffSide.RIGHT

MODIFY = """@@ -5,6 +5,7 @@ message Order {
   string id = 1;
   int64 amount = 2;
-  string note = 3;
+  string notes = 3;
+  string extra = 4;
   bool paid = 5;
 
 }"""

TWO_HUNKS = """@@ -1,3 +1,3 @@
 a
-b
+B
 c
@@ -20,3 +20,4 @@ ctx
 t
 u
+v
 w"""

NEW_FILE = """@@ -0,0 +1,3 @@
+one
+two
+three
\\ No newline at end of file"""

REMOVED_FILE = """@@ -1,2 +0,0 @@
-one
-two"""

NO_NEWLINE = """@@ -1,2 +1,2 @@
 keep
-old
\\ No newline at end of file
+new
\\ No newline at end of file"""

# A blank context line whose leading space a tool stripped, and a line with a form feed,
# which str.splitlines would split.
STRIPPED = "@@ -1,3 +1,3 @@\n a\x0cb\n\n-c\n+C"

SINGLE_LINE_COUNTS = "@@ -3 +3 @@\n-x\n+y"

CASES = [
    # patch, right, left, added, deleted
    (MODIFY, {5, 6, 7, 8, 9, 10, 11}, {5, 6, 7, 8, 9, 10}, {7, 8}, {7}),
    (TWO_HUNKS, {1, 2, 3, 20, 21, 22, 23}, {1, 2, 3, 20, 21, 22}, {2, 22}, {2}),
    (NEW_FILE, {1, 2, 3}, set(), {1, 2, 3}, set()),
    (REMOVED_FILE, set(), {1, 2}, set(), {1, 2}),
    (NO_NEWLINE, {1, 2}, {1, 2}, {2}, {2}),
    (STRIPPED, {1, 2, 3}, {1, 2, 3}, {3}, {3}),
    (SINGLE_LINE_COUNTS, {3}, {3}, {3}, {3}),
    (None, set(), set(), set(), set()),
    ("", set(), set(), set(), set()),
    ("Binary files differ", set(), set(), set(), set()),
]


@pytest.mark.parametrize("patch, right, left, added, deleted", CASES)
def test_line_sets(patch, right, left, added, deleted):
    diff = parse_patch(patch)
    assert (set(diff.right), set(diff.left), set(diff.added), set(diff.deleted)) == \
        (right, left, added, deleted)


ANCHORS = [
    (MODIFY, 8, RIGHT, (8, RIGHT)),  # an added line
    (MODIFY, 10, RIGHT, (10, RIGHT)),  # a context line
    (MODIFY, 4, RIGHT, None),  # before the hunk: GitHub would reject the review
    (MODIFY, 12, RIGHT, None),
    (MODIFY, 7, LEFT, (7, LEFT)),  # a deleted line stays on the base side
    (MODIFY, 8, LEFT, (9, RIGHT)),  # a base context line moves to its head line
    (MODIFY, 30, LEFT, None),
    (TWO_HUNKS, 10, RIGHT, None),  # between hunks
    (TWO_HUNKS, 23, RIGHT, (23, RIGHT)),
    (REMOVED_FILE, 2, LEFT, (2, LEFT)),
    (None, 1, RIGHT, None),
]


@pytest.mark.parametrize("patch, line, side, expected", ANCHORS)
def test_anchor(patch, line, side, expected):
    assert parse_patch(patch).anchor(line, side) == expected


SPANS = [
    (MODIFY, 7, 8, True),
    (MODIFY, 5, 11, True),
    (MODIFY, 4, 6, False),  # starts before the hunk
    (TWO_HUNKS, 3, 20, False),  # two hunks: GitHub rejects a multi-line comment across them
    (TWO_HUNKS, 20, 23, True),
    (TWO_HUNKS, 3, 2, False),
]


@pytest.mark.parametrize("patch, start, end, expected", SPANS)
def test_spans_need_one_hunk(patch, start, end, expected):
    assert parse_patch(patch).spans(start, end) is expected


HEAD_LINES = [
    (MODIFY, 3, 3),  # before any hunk: unchanged
    (MODIFY, 6, 6),  # context
    (MODIFY, 7, 7),  # deleted: where it stood
    (MODIFY, 9, 10),  # context after the change
    (MODIFY, 40, 41),  # after the hunk: shifted by the one added line
    (TWO_HUNKS, 10, 10),
    (TWO_HUNKS, 30, 31),
    (REMOVED_FILE, 2, 1),
]


@pytest.mark.parametrize("patch, base_line, head_line", HEAD_LINES)
def test_head_line(patch, base_line, head_line):
    assert parse_patch(patch).head_line(base_line) == head_line


def test_truncated_patch_keeps_what_was_shown():
    diff = parse_patch("@@ -1,5 +1,5 @@\n a\n-b\n+c")
    assert set(diff.right) == {1, 2} and set(diff.deleted) == {2}
