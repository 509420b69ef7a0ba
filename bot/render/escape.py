"""The markdown border: every string from a schema, a comment or a config goes through here.

A trust border (SECURITY.md, "The borders"): every byte a schema puts into GitHub is escaped here.

GitHub renders comment bodies, check-run summaries and text as GitHub Flavored Markdown with
HTML, @mentions and autolinks. Untrusted text must not open HTML, mention people or teams, break
out of a table cell, list item or code block, or write the hidden `<!-- schema-review... -->`
markers the App reads back. Each function here makes one kind of place safe:

- `text`: prose on one line (a paragraph, a list item, a heading);
- `code`: an inline code span that holds any string, backticks included;
- `cell`: one table cell (apply after `text` or `code`);
- `quote`: a block quote of several lines (a reason echoed in a reply);
- `fenced`: a fenced block its content cannot close (suggestions, examples);
- `plain`: one line of plain text for fields GitHub does not render (titles).
"""
from __future__ import annotations

import re

from rules.visible import controls_shown, visible

BACKTICKS = re.compile(r"`+")
# Characters that start inline markup on their own: code, emphasis, links and images, escapes.
INLINE_MARKUP = re.compile(r"([\\`*\[\]])")
# At the start of a line these start a block: heading, list, quote, thematic break.
BLOCK_START = re.compile(r"^(\s*)([#>+\-=])")
ORDERED_START = re.compile(r"^(\s*\d+)([.)])")
# GFM splits a table row at a pipe unless an odd run of backslashes precedes it.
PIPE = re.compile(r"(\\*)\|")
# `<!--` inside a code span or a fence still matches the App's marker pattern in the raw body.
COMMENT_OPEN = "<!--"
COMMENT_OPEN_SAFE = "<!\u200b--"
# A zero-width space after `@` keeps the text readable and never resolves to a user or team.
MENTION, MENTION_SAFE = "@", "@\u200b"
# `#12`, `owner/repo#12` and `GH-12` link to an issue or pull request and cross-reference it
# from there (a notification in another repository); a zero-width space before the number,
# like a mention's, keeps them text.
ISSUE_REFERENCE = re.compile(r"(?i)(#|\bGH-)(?=\d)")
# GFM turns bare `www.` and `scheme://` into links; a zero-width space keeps them text.
AUTOLINK = re.compile(r"(?i)\b(www)\.|(\w)(://)")
# The control characters str.split() breaks lines at: they become a space, the rest are shown.
LINE_BREAKS = "\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\u2028\u2029"
# A fence's lines stay lines; a tab is kept by rules/visible.py itself.
FENCE_KEEPS = "\n"


def one_line(value: object) -> str:
    """Every kind of line break (\\n, \\r, U+2028, ...) and run of blanks becomes one space;
    other control and bidi characters are shown as escapes (rules/visible.py), never sent."""
    return " ".join(visible(value, keep=LINE_BREAKS).split())


def text(value: object) -> str:
    """Prose on one line: no HTML, no markup, no mentions, no issue references, no autolinks, no
    new block."""
    value = one_line(value)
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    value = INLINE_MARKUP.sub(r"\\\1", value)
    value = AUTOLINK.sub(lambda m: f"{m.group(1)}\u200b." if m.group(1) else f"{m.group(2)}:\u200b//",
                         value)
    value = ORDERED_START.sub(r"\1\\\2", BLOCK_START.sub(r"\1\\\2", value))
    value = ISSUE_REFERENCE.sub("\\1\u200b", value)
    return value.replace(MENTION, MENTION_SAFE)


def code(value: object) -> str:
    """An inline code span holding `value` on one line; its fence is longer than any backtick run.

    CommonMark strips one space from each end when both are present, so a value that starts or
    ends with a backtick or a space is padded to keep it exact.
    """
    value = one_line(value).replace(COMMENT_OPEN, COMMENT_OPEN_SAFE)
    if not value:
        return ""
    ticks = "`" * (max(map(len, BACKTICKS.findall(value)), default=0) + 1)
    pad = " " if value[0] in "` " or value[-1] in "` " else ""
    return f"{ticks}{pad}{value}{pad}{ticks}"


def cell(value: str) -> str:
    """Already escaped text or code, safe inside one table cell: one line, every pipe escaped.

    GFM splits a row on `|` before it parses code spans, so pipes are escaped inside them too.
    """
    escaped = PIPE.sub(lambda m: m.group(1) + ("" if len(m.group(1)) % 2 else "\\") + "|", one_line(value))
    return escaped or " "


def quote(value: object) -> str:
    """A block quote of `value`, line by line, each line escaped like `text`."""
    lines = [text(line) for line in str(value).splitlines()] or [""]
    return "\n".join(f"> {line}" if line else ">" for line in lines)


def fenced(content: str, info: str = "") -> str:
    """A fenced block longer than any backtick run inside it (```` when the text has ```).

    Control and bidi characters are shown as escapes (rules/visible.py), as everywhere else: a
    fence shows them raw, where an escape sequence or a reversed line deceives the reader. Other
    content is kept byte for byte (GitHub applies a suggestion's text to the file: `exact`
    says whether it can be). The App reads the last marker of a body, which it writes after
    every fence.
    """
    content = controls_shown(content, keep=FENCE_KEEPS)
    fence = "`" * max(3, max(map(len, BACKTICKS.findall(content)), default=0) + 1)
    body = content + "\n" if content else ""  # every line of content, even a last blank one
    return f"{fence}{info}\n{body}{fence}"


def exact(content: str) -> bool:
    """Whether `fenced` keeps the content byte for byte (it holds no control character)."""
    return controls_shown(content, keep=FENCE_KEEPS) == content


def plain(value: object, *, limit: int) -> str:
    """One line of plain text within `limit` characters (check-run and annotation titles)."""
    return one_line(value)[:limit]


__all__ = ["text", "code", "cell", "quote", "fenced", "exact", "plain", "one_line"]
