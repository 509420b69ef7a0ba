"""Which lines of a GitHub file `patch` a review comment may sit on, and on which side."""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class DiffSide(enum.StrEnum):
    """GitHub's names for the two columns of a split diff."""

    LEFT = "LEFT"  # the base version: deleted lines, shown in red
    RIGHT = "RIGHT"  # the head version: added and unchanged lines


@dataclass(frozen=True)
class Hunk:
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    left: frozenset[int]  # base lines shown in the hunk (deleted and context)
    right: frozenset[int]  # head lines shown in the hunk (added and context)
    # base line -> head line for the context lines, which appear on both sides
    context: dict[int, int] = field(compare=False)
    # deleted base line -> the head line now standing where it stood
    deleted_at: dict[int, int] = field(compare=False)


@dataclass(frozen=True)
class DiffLines:
    hunks: tuple[Hunk, ...] = ()
    added: frozenset[int] = frozenset()  # head lines that are new
    deleted: frozenset[int] = frozenset()  # base lines that are gone

    @property
    def right(self) -> frozenset[int]:
        return frozenset().union(*(h.right for h in self.hunks))

    @property
    def left(self) -> frozenset[int]:
        return frozenset().union(*(h.left for h in self.hunks))

    def hunk_of(self, line: int, side: DiffSide) -> int | None:
        """Index of the hunk showing `line` on `side`, or None when the diff does not show it."""
        for index, hunk in enumerate(self.hunks):
            if line in (hunk.right if side is DiffSide.RIGHT else hunk.left):
                return index
        return None

    def anchor(self, line: int, side: DiffSide) -> tuple[int, DiffSide] | None:
        """Where a comment about `line` of that side can go, or None when it is outside the diff.

        GitHub rejects a whole review (422) if one comment points outside the diff. A base line
        that survived as context is commented on its head line: RIGHT is where reviewers look
        and the only side a suggestion can be applied on. Deleted lines can only be LEFT.
        """
        if side is DiffSide.RIGHT:
            return (line, side) if self.hunk_of(line, side) is not None else None
        if line in self.deleted:
            return line, DiffSide.LEFT
        for hunk in self.hunks:
            if line in hunk.context:
                return hunk.context[line], DiffSide.RIGHT
        return None

    def spans(self, start: int, end: int) -> bool:
        """Whether head lines start..end are all in one hunk (a multi-line comment's rule)."""
        first = self.hunk_of(start, DiffSide.RIGHT)
        return first is not None and first == self.hunk_of(end, DiffSide.RIGHT) and start <= end

    def head_line(self, base_line: int) -> int:
        """The head line standing where a base line stood: to annotate a deleted element."""
        shift = 0
        for hunk in self.hunks:
            if base_line < hunk.old_start:
                break
            if base_line in hunk.context:
                return hunk.context[base_line]
            if base_line in hunk.deleted_at:
                return hunk.deleted_at[base_line]
            shift = (hunk.new_start + hunk.new_count) - (hunk.old_start + hunk.old_count)
        return max(base_line + shift, 1)


def parse_patch(patch: str | None) -> DiffLines:
    """DiffLines of a patch as the pull request files API returns it (hunks, no file headers).

    None (binary files, or diffs GitHub found too large to show) gives an empty DiffLines:
    nothing can be commented inline.
    """
    if not patch:
        return DiffLines()
    hunks, added, deleted = [], set(), set()
    # str.splitlines would also split on \x0b, \x1c or U+2028 inside a line of the file.
    lines = iter(patch.split("\n"))
    for raw in lines:
        header = HUNK_HEADER.match(raw)
        if header:
            hunks.append(_hunk(header, lines, added, deleted))
    return DiffLines(tuple(hunks), frozenset(added), frozenset(deleted))


def _hunk(header: re.Match, lines, added: set, deleted: set) -> Hunk:
    old, old_count, new, new_count = (int(g) if g is not None else 1 for g in header.groups())
    old_line, new_line, counts = old, new, (old_count, new_count)
    left, right, context, deleted_at = set(), set(), {}, {}
    while old_count > 0 or new_count > 0:
        raw = next(lines, None)
        if raw is None:
            break  # a truncated patch: keep what was shown
        kind = raw[:1]
        if kind == "\\":
            continue  # "\ No newline at end of file" belongs to the line before it
        if kind == "+":
            right.add(new_line)
            added.add(new_line)
            new_line, new_count = new_line + 1, new_count - 1
        elif kind == "-":
            left.add(old_line)
            deleted.add(old_line)
            deleted_at[old_line] = new_line
            old_line, old_count = old_line + 1, old_count - 1
        else:  # " " context, or "" where a tool stripped the blank line's space
            left.add(old_line)
            right.add(new_line)
            context[old_line] = new_line
            old_line, new_line = old_line + 1, new_line + 1
            old_count, new_count = old_count - 1, new_count - 1
    # Deleted at the very end: the last head line of the hunk is the nearest that exists.
    last = max(right, default=max(new - 1, 1))
    deleted_at = {o: max(min(n, last), 1) for o, n in deleted_at.items()}
    return Hunk(old, counts[0], new, counts[1], frozenset(left), frozenset(right), context,
                deleted_at)
