"""Untrusted text (schema strings, file names) in line-oriented output, shown and never obeyed.

Every output a person or a CI runner reads goes through `visible`: terminals act on control
characters (ESC sequences retitle the window or clear the screen, CR overwrites a line), bidi
overrides reorder what a reader sees, and a line break would let a schema string start a line of
its own. GitHub Actions runs workflow commands from any log line: `::name::` at its start (after
blanks) and the legacy `##[name]` anywhere in it, so `##[` is broken too, and `line_start` keeps
text that begins a line from being read as `::name::`.

Control characters are written as escapes a reader can see (`\\x1b`, `\\u202e`); a tab is kept:
it only moves the cursor, and fix lines quote source code indented with tabs.
"""
from __future__ import annotations

import json
import re

# C0 (but tab), DEL, C1, line and paragraph separators, bidi embeddings, overrides and isolates,
# and lone surrogates (undecodable bytes of a file name, which no UTF-8 stream can carry).
BEYOND_C0 = "\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
CONTROL = re.compile(f"[\x00-\x08\x0a-\x1f{BEYOND_C0}]")
# What json.dumps leaves raw when not ASCII-only (it escapes C0 in strings itself).
JSON_RAW = re.compile(f"[{BEYOND_C0}]")
LEGACY_COMMAND, LEGACY_COMMAND_SHOWN = "##[", "##\\x5b"
LEGACY_COMMAND_JSON = "##\\u005b"  # the same string to a JSON parser, no command to the runner
COMMAND = "::"


def visible(text: object, *, keep: str = "") -> str:
    """`text` with every control character but those in `keep` written as a visible escape."""
    return controls_shown(text, keep=keep).replace(LEGACY_COMMAND, LEGACY_COMMAND_SHOWN)


def controls_shown(text: object, *, keep: str = "") -> str:
    """`visible` for text no runner reads as a log (markdown): control characters only."""
    return CONTROL.sub(lambda m: m.group() if m.group() in keep else _escape(m.group()), str(text))


def line_start(text: object) -> str:
    """`visible(text)` for the start of a line: its first colon escaped when the runner, which
    skips leading blanks, would read it as a `::name::` workflow command."""
    shown = visible(text)
    body = shown.lstrip()
    if not body.startswith(COMMAND):
        return shown
    return shown[:len(shown) - len(body)] + "\\x3a" + body[1:]


def visible_json(data, *, ascii: bool = True, **options) -> str:
    """`data` as JSON text for a log or a page: every control character \\u-escaped (json.dumps
    escapes C0 itself; the rest only occur inside strings, so escaping them keeps the value), and
    no `##[` (escaped the same way). ascii=False keeps other characters readable (é, 漢)."""
    text = json.dumps(data, ensure_ascii=ascii, **options)
    if not ascii:
        text = JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text.replace(LEGACY_COMMAND, LEGACY_COMMAND_JSON)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


__all__ = ["visible", "controls_shown", "line_start", "visible_json"]
