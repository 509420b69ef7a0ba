"""Per-file diffs between two commits as GitHub reports them, and which lines each hunk covers."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .gitstore import GitStore

HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
# git's one-letter statuses in `--raw` output -> the words GitHub uses in PR file lists.
STATUS_WORDS = {"A": "added", "M": "modified", "D": "removed", "R": "renamed",
                "C": "copied", "T": "changed"}
LEFT, RIGHT = "LEFT", "RIGHT"


@dataclass
class FileDiff:
    filename: str
    status: str
    sha: str  # blob sha in head (base for removed files, as GitHub does)
    additions: int
    deletions: int
    patch: str | None  # hunks only, no `diff --git`/`---`/`+++` headers; None for binary
    previous_filename: str | None = None
    # (side, line) -> (hunk index, position in the patch: 1 = first line below the first "@@")
    lines: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)

    @property
    def changes(self) -> int:
        return self.additions + self.deletions

    def hunk_until(self, position: int) -> str:
        """The `diff_hunk` GitHub shows with a comment: its hunk header down to that line."""
        rows = self.patch.split("\n") if self.patch else []
        start = max(i for i, row in enumerate(rows[:position + 1]) if row.startswith("@@"))
        return "\n".join(rows[start:position + 1])


def diff_files(store: GitStore, base: str, head: str) -> list[FileDiff]:
    """Files changed from `base` to `head` with genuine `git diff` hunks (rename detection on)."""
    raw = store.run("diff", "--raw", "-z", "-M", "--no-abbrev", base, head).decode().split("\0")
    numstat = store.run("diff", "--numstat", "-z", "-M", base, head).decode().split("\0")
    patch = store.run("diff", "-M", "--no-color", "--no-ext-diff", base, head).decode(errors="replace")
    sections = _sections(patch)
    counts = _numstat(numstat)
    files: list[FileDiff] = []
    i = 0
    while i < len(raw) - 1:
        meta = raw[i].lstrip(":").split()
        letter = meta[4][0]
        old_sha, new_sha = meta[2], meta[3]
        if letter in "RC":
            old_path, path = raw[i + 1], raw[i + 2]
            i += 3
        else:
            old_path, path = None, raw[i + 1]
            i += 2
        hunks = sections[len(files)] if len(files) < len(sections) else None
        adds, dels = counts[len(files)]
        entry = FileDiff(path, STATUS_WORDS.get(letter, "modified"),
                         old_sha if letter == "D" else new_sha, adds, dels, hunks, old_path)
        entry.lines = _line_map(hunks)
        files.append(entry)
    return files


def _sections(patch: str) -> list[str | None]:
    """The hunk text of each `diff --git` section, in git's file order (None: no hunks)."""
    out: list[str | None] = []
    # Hunk body lines always start with " ", "+", "-" or "\\", so this split is unambiguous.
    for chunk in re.split(r"^diff --git .*\n", patch, flags=re.M)[1:]:
        first = re.search(r"^@@", chunk, flags=re.M)
        out.append(chunk[first.start():].rstrip("\n") if first else None)
    return out


def _numstat(fields: list[str]) -> list[tuple[int, int]]:
    counts, i = [], 0
    while i < len(fields) and fields[i]:
        adds, dels, rest = fields[i].split("\t", 2)
        i += 1 if rest else 3  # renames leave the path empty and add two NUL-separated paths
        counts.append((0 if adds == "-" else int(adds), 0 if dels == "-" else int(dels)))
    return counts


def _line_map(patch: str | None) -> dict[tuple[str, int], tuple[int, int]]:
    """Which base (LEFT) and head (RIGHT) lines appear in a hunk, and at which position."""
    lines: dict[tuple[str, int], tuple[int, int]] = {}
    if not patch:
        return lines
    hunk, left, right = -1, 0, 0
    for position, row in enumerate(patch.split("\n")):
        header = HUNK_HEADER.match(row)
        if header:
            hunk, left, right = hunk + 1, int(header.group(1)), int(header.group(3))
            continue
        kind = row[:1]
        if kind in (" ", "-"):
            lines[(LEFT, left)] = (hunk, position)
            left += 1
        if kind in (" ", "+"):
            lines[(RIGHT, right)] = (hunk, position)
            right += 1
    return lines
