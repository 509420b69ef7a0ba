"""Exact replacement lines for the NEW .proto file: reserve what was deleted, restore a label."""
from __future__ import annotations

import re

from ..model import Suggestion
from .schema import Field, Message, Schema, Span

TAB = 8  # protoc's tokenizer advances the column to the next multiple of 8 on a tab
MAXIMA = (2**29 - 1, 2**31 - 1)  # the highest field number and enum value: spelled `max`


def reserved_statements(*, numbers=(), names=(), syntax: str) -> list[str]:
    """`reserved 3;` and `reserved "old_status";` (editions write names as bare identifiers)."""
    out = [f"reserved {', '.join(_range(r) for r in numbers)};"] if numbers else []
    if names:
        quoted = [name if syntax == "editions" else f'"{name}"' for name in names]
        out.append(f"reserved {', '.join(quoted)};")
    return out


def _range(item) -> str:
    if isinstance(item, int):
        return str(item)
    start, end = item  # half-open
    last = "max" if end - 1 in MAXIMA else str(end - 1)
    return str(start) if end == start + 1 else f"{start} to {last}"


def insert(schema: Schema, anchor: tuple[int, str] | None, statements: list[str],
           title: str) -> Suggestion | None:
    """Replace the anchor line with itself plus the statements, at the anchor's indentation."""
    if anchor is None or not statements:
        return None
    line, indent = anchor
    text = schema.lines[line - 1]
    replacement = "\n".join([text, *(indent + each for each in statements)])
    return Suggestion(title=title, line_start=line, line_end=line, replacement=replacement)


def anchor_in(schema: Schema, parent, members_before: list) -> tuple[int, str] | None:
    """Where to insert into the NEW message or enum `parent`: after the nearest surviving
    member that preceded the deleted one (outside any oneof), else after the opening brace."""
    for member in reversed(members_before):
        if getattr(member, "oneof", None) or not member.span.line:
            continue
        if _clean_tail(schema, member.span.end_line, member.span.end_col):
            return member.span.end_line, _indent(schema.lines[member.span.line - 1])
    return _after_brace(schema, parent)


def _after_brace(schema: Schema, parent) -> tuple[int, str] | None:
    """The line of the declaration's opening brace, if nothing but a comment follows it."""
    span: Span = parent.span
    if not span.line:
        return None
    for number in range(span.line, span.end_line + 1):
        text = schema.lines[number - 1]
        start = _index(text, span.col) if number == span.line else 0
        brace = text.find("{", start)
        if brace < 0:
            if number != span.line and not _clean(text):
                return None  # something other than the brace follows the declaration's name
            continue
        if not _clean(text[brace + 1:]):
            return None
        return number, _member_indent(schema, parent, number, _indent(text))
    return None


def _member_indent(schema: Schema, parent, brace_line: int, outer: str) -> str:
    members = parent.fields.values() if isinstance(parent, Message) else parent.values
    for member in members:
        if not getattr(member, "oneof", None) and member.span.line > brace_line:
            return _indent(schema.lines[member.span.line - 1])
    return outer + ("\t" if outer.startswith("\t") else "  ")


def swap_on_line(schema: Schema, field: Field, pattern: str, replacement: str,
                 title: str) -> Suggestion | None:
    """Rewrite one token of a single-line field declaration, when it occurs exactly once."""
    span = field.span
    if not span.line or span.line != span.end_line:
        return None
    text = schema.lines[span.line - 1]
    start, end = _index(text, span.col), _index(text, span.end_col)
    declaration = text[start:end]
    if len(re.findall(pattern, declaration)) != 1:
        return None
    fixed = text[:start] + re.sub(pattern, replacement, declaration) + text[end:]
    return Suggestion(title=title, line_start=span.line, line_end=span.line, replacement=fixed)


def replace_statement(schema: Schema, span: Span, statement: str,
                      title: str) -> Suggestion | None:
    """Rewrite a single-line statement in place (what surrounds it on its line stays)."""
    if not span.line or span.line != span.end_line:
        return None
    text = schema.lines[span.line - 1]
    start, end = _index(text, span.col), _index(text, span.end_col)
    return Suggestion(title=title, line_start=span.line, line_end=span.line,
                      replacement=text[:start] + statement + text[end:])


def add_after(schema: Schema, span: Span, statement: str, title: str) -> Suggestion | None:
    """A new line after a single-line statement that nothing but a comment follows."""
    if not span.line or span.line != span.end_line or not _clean_tail(schema, span.line,
                                                                      span.end_col):
        return None
    text = schema.lines[span.line - 1]
    return Suggestion(title=title, line_start=span.line, line_end=span.line,
                      replacement="\n".join([text, _indent(text) + statement]))


def _clean_tail(schema: Schema, line: int, col: int) -> bool:
    text = schema.lines[line - 1]
    return _clean(text[_index(text, col):])


def _clean(rest: str) -> bool:
    rest = rest.strip()
    return not rest or rest.startswith("//")


def _indent(text: str) -> str:
    return text[:len(text) - len(text.lstrip())]


def _index(text: str, column: int) -> int:
    """The string index of protoc's column (tabs advance to a multiple of 8, columns are bytes)."""
    seen = 0
    for index, char in enumerate(text):
        if seen >= column:
            return index
        seen = (seen // TAB + 1) * TAB if char == "\t" else seen + len(char.encode("utf-8"))
    return len(text)


def survivors_before(old_parent, new_parent, element) -> list:
    """The NEW twins of the members that preceded `element` in the OLD message or enum."""
    members = old_parent.fields.values() if isinstance(old_parent, Message) else old_parent.values
    twins = []
    for member in members:
        if member is element:
            break
        twin = (new_parent.fields.get(member.number) if isinstance(new_parent, Message)
                else (new_parent.by_number.get(member.number) or [None])[0])
        twin = twin or new_parent.by_name.get(member.name)
        if twin is not None:
            twins.append(twin)
    return twins
