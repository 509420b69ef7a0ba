"""JSON text to Python values whose objects remember the lines they and their keys start on."""
from __future__ import annotations

import bisect
import json
import re

from .limits import MAX_JSON_DEPTH
from .model import SchemaError

# A JSON string (optionally followed by the colon that makes it a key) or a bracket.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"(\s*:)?|[{}\[\]]')
_NEWLINE = re.compile(r"\n")


class LineDict(dict):
    """A JSON object with its 1-based first and last line, and the line of each key."""

    __slots__ = ("line", "end_line", "key_lines")

    def key_line(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LineIndex:
    """Maps character offsets of one text to 1-based line numbers."""

    def __init__(self, text: str):
        self._starts = [m.end() for m in _NEWLINE.finditer(text)]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset) + 1


def _scan_objects(text: str, file: str, lines: LineIndex) -> list[tuple[int, int, list[int]]]:
    """(start, end, key offsets) of every object in the order the objects close."""
    stack: list[tuple[int, list[int] | None]] = []
    closed: list[tuple[int, int, list[int]]] = []
    for token in _TOKEN.finditer(text):
        char = text[token.start()]
        if char == '"':
            if token.group(1) and stack and stack[-1][1] is not None:
                stack[-1][1].append(token.start())
        elif char in "{[":
            if len(stack) >= MAX_JSON_DEPTH:
                raise SchemaError(file, lines.line(token.start()),
                                  f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
            stack.append((token.start(), [] if char == "{" else None))
        elif stack:
            start, keys = stack.pop()
            if keys is not None:
                closed.append((start, token.start(), keys))
    return closed


def loads(text: str, file: str) -> object:
    """Parse JSON text; objects come back as LineDict. Raises SchemaError on bad input."""
    lines = LineIndex(text)
    closed = _scan_objects(text, file, lines)
    position = iter(closed)

    def make_object(pairs: list) -> LineDict:
        obj = LineDict(pairs)
        start, end, keys = next(position, (0, 0, []))
        obj.line, obj.end_line = lines.line(start), lines.line(end)
        obj.key_lines = {key: lines.line(at) for (key, _), at in zip(pairs, keys)}
        return obj

    try:
        return json.loads(text, object_pairs_hook=make_object)
    except json.JSONDecodeError as error:
        raise SchemaError(file, error.lineno, f"invalid JSON: {error.msg} (column {error.colno})") from None
    except RecursionError:
        raise SchemaError(file, None, "JSON nested too deeply") from None
