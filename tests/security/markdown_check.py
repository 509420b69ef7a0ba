"""What a body the App posted looks like to GitHub's renderer once code spans and fences are set aside."""
from __future__ import annotations

import re

from bot.render import example

FENCE_OPEN = re.compile(r"^ {0,3}(`{3,})[^`]*$")
TICKS = re.compile(r"`+")
MARKER = re.compile(r"<!-- schema-review")
# A mention GitHub would resolve: `@` directly followed by a login character.
MENTION = re.compile(r"@[A-Za-z0-9]")
# `#12`, `owner/repo#12`, `GH-12`: GitHub links them and cross-references the issue.
ISSUE_REFERENCE = re.compile(r"(?i)#\d|\bGH-\d")
HTML_TAG = re.compile(r"<[A-Za-z!/?]")


def without_fences(body: str) -> tuple[str, list[str]]:
    """(the body with fenced blocks removed, the fenced blocks' contents)."""
    out, fenced, lines, index = [], [], body.split("\n"), 0
    while index < len(lines):
        opened = FENCE_OPEN.match(lines[index])
        if not opened:
            out.append(lines[index])
            index += 1
            continue
        size, inside, index = len(opened.group(1)), [], index + 1
        while index < len(lines) and not re.match(rf"^ {{0,3}}`{{{size},}}\s*$", lines[index]):
            inside.append(lines[index])
            index += 1
        fenced.append("\n".join(inside))
        index += 1  # the closing fence (or the end: an unclosed fence runs to the end)
    return "\n".join(out), fenced


def without_code(line_text: str) -> str:
    """The text with inline code spans removed (CommonMark: a run closes with a run of equal length)."""
    out, position = [], 0
    runs = list(TICKS.finditer(line_text))
    index = 0
    while index < len(runs):
        opening = runs[index]
        closing = next((r for r in runs[index + 1:] if len(r.group()) == len(opening.group())), None)
        if closing is None:
            index += 1
            continue
        out.append(line_text[position:opening.start()])
        position = closing.end()
        index = runs.index(closing) + 1
    out.append(line_text[position:])
    return "".join(out)


def prose(body: str) -> str:
    """What GitHub renders as markdown outside code: fences and code spans removed."""
    text, _fenced = without_fences(body)
    # Code spans may not cross a blank line; checking paragraph by paragraph is close enough.
    return "\n\n".join(without_code(part) for part in text.split("\n\n"))


def problems(body: str, *, markers_at_end: int = 0) -> list[str]:
    """Everything an injected schema string achieved in `body` (empty: nothing)."""
    found = []
    outside = prose(body)
    # The App's own tags (the collapsed "Example that breaks") are the only HTML it writes.
    own = outside.replace(example.SUMMARY, "").replace(example.END, "")
    if HTML_TAG.search(own.replace("<!-- schema-review", "")):
        found.append("raw HTML outside code")
    if MENTION.search(outside):
        found.append("a mention outside code")
    if ISSUE_REFERENCE.search(outside):
        found.append("an issue reference outside code")
    lines = body.rstrip().split("\n")
    own = lines[len(lines) - markers_at_end:] if markers_at_end else []
    rest = "\n".join(lines[:len(lines) - markers_at_end] if markers_at_end else lines)
    if MARKER.search(prose(rest)):
        found.append("a schema-review marker outside the App's own last line")
    if any(not MARKER.match(line) for line in own):
        found.append("the body does not end with the App's marker")
    for line in outside.split("\n"):
        if re.match(r"^ {0,3}#{1,6} ", line) and "Heading" in line:
            found.append(f"an injected heading: {line[:60]!r}")
    return found


def table_cells(row: str) -> int:
    """Cells of a GFM table row: pipes not escaped by an odd run of backslashes split it."""
    count, backslashes = 0, 0
    for char in row.strip().strip("|"):
        if char == "|" and backslashes % 2 == 0:
            count += 1
        backslashes = backslashes + 1 if char == "\\" else 0
    return count + 1
