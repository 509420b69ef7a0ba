"""Markdown budgets: GitHub's size limit and cutting a body to it (escaping lives in escape.py)."""
from __future__ import annotations

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


def _size(text: str) -> int:
    return len(text.encode("utf-8"))
