"""Exact replacement lines for the new file that set keys of one JSON object, or nothing."""
from __future__ import annotations

import json

from ..model import Suggestion
from .schema import Parsed

_UNPARSEABLE = object()


def set_keys(parsed: Parsed, obj: dict, anchor: str, updates: dict, title: str) -> Suggestion | None:
    """Set `updates` in `obj`, new keys going right after `anchor`.

    Preferred: rewrite the anchor's line when that key/value pair is alone on it, so the rest of
    the object keeps its formatting. Otherwise rewrite the whole object when it occupies its
    lines alone. Anything else (another value sharing the lines) gets no suggestion rather than
    a wrong one.
    """
    line = _alone(parsed.lines, obj.key_line(anchor), anchor, obj.get(anchor, _UNPARSEABLE))
    if line is not None and obj.key_line(anchor) != obj.line:
        indent, comma = line
        members = [(anchor, updates.get(anchor, obj[anchor]))]
        members += [(k, v) for k, v in updates.items() if k != anchor]
        text = ",\n".join(f"{indent}{_dump(k)}: {_dump(v)}" for k, v in members)
        number = obj.key_line(anchor)
        return Suggestion(title, number, number, text + ("," if comma else ""))
    whole = _object_alone(parsed.lines, obj)
    if whole is None:
        return None
    indent, comma = whole
    updated = {}
    for key, value in obj.items():
        updated[key] = updates.get(key, value)
        if key == anchor:
            updated.update((k, v) for k, v in updates.items() if k not in obj)
    text = f"{indent}{_dump(updated)}" + ("," if comma else "")
    return Suggestion(title, obj.line, obj.end_line, text)


def _alone(lines: list[str], number: int, key: str, value) -> tuple[str, bool] | None:
    """(indent, trailing comma) when line `number` holds exactly `"key": value` and nothing else."""
    if value is _UNPARSEABLE or not 0 < number <= len(lines):
        return None
    text = lines[number - 1]
    body, comma = _strip_comma(text.strip())
    head, colon, rest = body.partition(":")
    if not colon or _loads(head) != key or _loads(rest) != value:
        return None
    return text[:len(text) - len(text.lstrip())], comma


def _object_alone(lines: list[str], obj: dict) -> tuple[str, bool] | None:
    """(indent, trailing comma) when lines obj.line..obj.end_line hold this object and nothing else."""
    chunk = lines[obj.line - 1:obj.end_line]
    if not chunk:
        return None
    body, comma = _strip_comma("\n".join(chunk).strip())
    if _loads(body) != obj:
        return None
    return chunk[0][:len(chunk[0]) - len(chunk[0].lstrip())], comma


def _strip_comma(body: str) -> tuple[str, bool]:
    return (body[:-1].rstrip(), True) if body.endswith(",") else (body, False)


def _loads(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return _UNPARSEABLE


def _dump(value) -> str:
    return json.dumps(value, ensure_ascii=False)
