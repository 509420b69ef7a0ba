"""Exact replacement lines for the new file: drop a name from `required`, re-add a property."""
from __future__ import annotations

import json

from ..model import Suggestion
from .drafts import Draft

DROP_REQUIRED = 'Make "{name}" optional: remove it from "required"'
MAX_ARRAY_LINES = 2000  # a `required` array longer than this is not rewritten


def _in(lines: tuple, line: int) -> bool:
    """Whether `line` is one of these lines: a node of another file of the schema set (its line
    knows that file) is not, and its fix is not made in this file."""
    return getattr(line, "file", None) is None and 0 < line <= len(lines)


def array_span(lines: tuple, holder, key: str) -> tuple[int, int, int, int] | None:
    """(first line, last line, offset of "[" in the first line, offset after "]") of holder[key]."""
    start = holder.key_line(key)
    if not _in(lines, start):
        return None
    first = lines[start - 1]
    at = first.find(json.dumps(key))
    bracket = first.find("[", at + len(json.dumps(key))) if at >= 0 else -1
    if bracket < 0:
        return None
    text = "\n".join(lines[start - 1:start - 1 + MAX_ARRAY_LINES])
    try:
        value, end = json.JSONDecoder().raw_decode(text, bracket)
    except ValueError:
        return None
    if value != holder[key]:
        return None
    end_line = start + text.count("\n", 0, end)
    return start, end_line, bracket, end - (text.rfind("\n", 0, end) + 1)


def name_line(lines: tuple, holder, key: str, name: str) -> int:
    """The line of `name` inside the array holder[key] (the key's line when not found)."""
    span = array_span(lines, holder, key)
    if span:
        for number in range(span[0], span[1] + 1):
            if json.dumps(name) in lines[number - 1]:
                return number
    return holder.key_line(key)


def drop_from_required(lines: tuple, holder, name: str, draft: Draft) -> Suggestion | None:
    span = array_span(lines, holder, "required")
    if span is None:
        return None
    start, end, bracket, after = span
    kept = [each for each in holder["required"] if each != name]
    if not kept and draft is Draft.DRAFT4:
        return None  # draft-04 forbids an empty `required`: the keyword itself has to go
    head, tail = lines[start - 1][:bracket], lines[end - 1][after:]
    if start == end or not kept:
        body = json.dumps(kept)
    else:
        inner = lines[start] if start < end else ""
        indent = inner[:len(inner) - len(inner.lstrip())]
        closing = lines[end - 1][:len(lines[end - 1]) - len(lines[end - 1].lstrip())]
        body = "[\n" + ",\n".join(indent + json.dumps(each) for each in kept) + "\n" + closing + "]"
        if not lines[end - 1].lstrip().startswith("]"):
            return None  # "]" shares its line with an item: not a layout we rewrite
    return Suggestion(title=DROP_REQUIRED.format(name=name), line_start=start, line_end=end,
                      replacement=head + body + tail)


def insert_property(lines: tuple, props, before: str, name: str, schema: object,
                    title: str) -> Suggestion | None:
    """Insert `"name": schema,` on its own line just before the property `before`."""
    if before not in props:
        return None
    line = props.key_line(before)
    if not _in(lines, line):
        return None
    text = lines[line - 1]
    if not text.lstrip().startswith(json.dumps(before)):
        return None  # the property does not start its own line
    if "$ref" in json.dumps(schema):
        return None  # its references may not exist in the new file
    indent = text[:len(text) - len(text.lstrip())]
    added = f"{indent}{json.dumps(name)}: {json.dumps(schema)},"
    return Suggestion(title=title, line_start=line, line_end=line, replacement=added + "\n" + text)


def deprecated(schema: object) -> dict | None:
    """The schema with "deprecated": true (None for `false`, which allows nothing)."""
    if schema is False:
        return None
    return {**(schema if isinstance(schema, dict) else {}), "deprecated": True}
