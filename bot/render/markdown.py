"""Markdown budgets: GitHub's size limit and cutting a body to it (escaping lives in escape.py)."""
from __future__ import annotations

import re

from rules import Format

# GitHub's limit for a check run's summary and text (and a comment body), in characters.
# Measured in UTF-8 bytes here, which is never fewer, so the result fits either way.
MAX_OUTPUT = 65_535
TRUNCATED = ("\n\n_Truncated: {lines:,} more lines did not fit GitHub's {limit:,}-character "
             "limit. The annotations list every finding._")
LANGUAGES = {Format.AVRO: "json", Format.PROTOBUF: "protobuf", Format.JSONSCHEMA: "json"}


def fit(blocks: list[str], *, limit: int = MAX_OUTPUT) -> str:
    """Join blocks with newlines; drop the tail that does not fit and say how much was dropped.

    Blocks are whole units (a table row, a section), so a cut never leaves a fence open.
    """
    text = "\n".join(blocks)
    if _size(text) <= limit:
        return text
    lines_from = [0] * (len(blocks) + 1)  # lines in blocks[i:], to say what was dropped
    for index in range(len(blocks) - 1, -1, -1):
        lines_from[index] = lines_from[index + 1] + blocks[index].count("\n") + 1
    used = 0
    for index, block in enumerate(blocks):
        note = TRUNCATED.format(lines=lines_from[index], limit=limit)
        if used + _size(block) + 1 + _size(note) > limit:
            return "\n".join(blocks[:index]) + note
        used += _size(block) + 1
    return text  # pragma: no cover - the size check above returned already


# GitHub rejects a check run title over 255 characters (422), like any body over MAX_OUTPUT.
MAX_TITLE = 255
CLIPPED = "\n\n_Cut to fit GitHub's {limit:,}-character limit._"
OWN_MARKER = "<!-- schema-review"
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)


def clip(text: str, *, limit: int = MAX_OUTPUT) -> str:
    """The last guard before a body is sent: within `limit`, whatever the renderers did.

    A body GitHub rejects would leave the check or the comment unwritten (and an earlier
    version of this App then concluded `neutral`). The App's hidden markers on the last lines
    are kept (they identify the comment when it is read back) and an open fence is closed, so a
    cut can neither drop the marker nor swallow what follows into a code block.
    """
    if _size(text) <= limit:
        return text
    lines = text.split("\n")
    keep = len(lines)
    while keep and lines[keep - 1].startswith(OWN_MARKER):
        keep -= 1
    tail = "\n".join(lines[keep:])
    note = CLIPPED.format(limit=limit)
    room = max(limit - _size(tail) - _size(note) - 2 * 1024, 0)  # 2 KiB: a closing fence
    head = "\n".join(lines[:keep]).encode("utf-8")[:room].decode("utf-8", "ignore")
    line_start = head.rfind("\n")
    if line_start >= len(head) - 4096:  # end on a whole line when one ends close by
        head = head[:max(line_start, 0)]
    opened = _open_fence(head)
    if opened:
        head += "\n" + opened
    return head + note + ("\n" + tail if tail else "")


def _open_fence(text: str) -> str | None:
    """The fence that would close the code block `text` ends inside, if it ends inside one."""
    opener = None
    for match in FENCE.finditer(text):
        run = match.group(1)
        if opener is None:
            opener = run
        elif run[0] == opener[0] and len(run) >= len(opener):
            opener = None
    return opener[:1024] if opener else None


def clip_title(title: str) -> str:
    return title if len(title) <= MAX_TITLE else title[:MAX_TITLE - 1] + "…"


def _size(text: str) -> int:
    return len(text.encode("utf-8"))
