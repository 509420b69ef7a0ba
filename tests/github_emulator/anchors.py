"""Where a review comment lands in a pull request's diff, and GitHub's refusal when it cannot."""
from __future__ import annotations

from dataclasses import dataclass

from .diffs import RIGHT, FileDiff

# GitHub's REST answer when a review comment does not anchor in the diff (measured on
# github.com; several problems are joined into one sentence and the offending entry is not named).
LINE_UNRESOLVED = "Line could not be resolved"
START_LINE_UNRESOLVED = "Start line could not be resolved"
PATH_UNRESOLVED = "Path could not be resolved"
POSITION_UNRESOLVED = "Position could not be resolved"
UNPROCESSABLE = "Unprocessable Entity"
REVIEW_DOC = "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request"


@dataclass(frozen=True)
class Anchor:
    path: str
    subject_type: str  # "line" or "file"
    line: int | None
    side: str | None
    start_line: int | None
    start_side: str | None
    position: int | None
    diff_hunk: str


def resolve(comment: dict, files: dict[str, FileDiff]) -> Anchor | str:
    """The comment's anchor in the diff, or the GitHub error text explaining why there is none."""
    diff = files.get(comment.get("path", ""))
    if diff is None:
        return PATH_UNRESOLVED
    if comment.get("subject_type") == "file":
        return Anchor(diff.filename, "file", None, None, None, None, None, "")
    if comment.get("line") is None and comment.get("position") is not None:
        return _by_position(diff, int(comment["position"]))
    if comment.get("line") is None:
        return LINE_UNRESOLVED
    side = comment.get("side") or RIGHT
    found = diff.lines.get((side, int(comment["line"])))
    if found is None:
        return LINE_UNRESOLVED
    start_line, start_side = comment.get("start_line"), None
    if start_line is not None:
        start_side = comment.get("start_side") or side
        start = diff.lines.get((start_side, int(start_line)))
        # A multi-line comment must start earlier in the same hunk as it ends.
        if start is None or start[0] != found[0] or start[1] > found[1]:
            return START_LINE_UNRESOLVED
    return Anchor(diff.filename, "line", int(comment["line"]), side, start_line, start_side,
                  found[1], diff.hunk_until(found[1]))


def _by_position(diff: FileDiff, position: int) -> Anchor | str:
    """Legacy `position` (lines below the first "@@"): map it back to a line and side."""
    hits = [(side, line) for (side, line), (_, pos) in diff.lines.items() if pos == position]
    if not hits:
        return POSITION_UNRESOLVED
    side, line = min(hits, key=lambda hit: hit[0] != RIGHT)  # context lines count as RIGHT
    return Anchor(diff.filename, "line", line, side, None, None, position, diff.hunk_until(position))


def sentence(problems: list[str]) -> str:
    """Join problems the way GitHub (Rails' to_sentence) does: "A, B, and C"."""
    if len(problems) <= 2:
        return " and ".join(problems)
    return ", ".join(problems[:-1]) + ", and " + problems[-1]

