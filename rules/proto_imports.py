"""A .proto file's imports as protoc tokenizes them, transitively: every file protoc may read.

protoc is given copies of these under its scratch tree, never a directory of the machine to
search: it would follow a link there (to any file) and read FIFOs and devices. The App and the
local review fetch the files from git; the CLI reads them from its import roots here.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import NamedTuple
from posixpath import normpath

from .limits import MAX_PROTO_FILES, MAX_SCHEMA_BYTES
from .localfile import LINKED_PARENT, Refused, linked_parent, read_regular

# protoc's tokens, as its tokenizer reads them: whitespace and comments (`//` to the line's end,
# `/* */` unnested) between any two; string literals in either quote, with escapes, never
# crossing a line; words; any other run of symbols. Every alternative always matches (an
# unclosed comment or string runs to the end of the file or line), so a scan is linear.
TOKEN = re.compile(rb"""(?P<gap>[ \t\r\n\v\f]+|//[^\n]*|/\*.*?(?:\*/|\Z))
    |(?P<string>"(?:\\[^\n]|[^"\\\n])*"?|'(?:\\[^\n]|[^'\\\n])*'?)
    |(?P<word>[A-Za-z0-9_]+)|[^ \t\r\n\v\f"'/A-Za-z0-9_]+|/""", re.DOTALL | re.VERBOSE)
# A string literal token's body: what its quotes enclose (an unclosed one runs to its end).
LITERAL = re.compile(rb"""(["'])((?:\\[^\n]|(?!\1)[^\\\n])*)""")
# A string literal's escapes as protoc's tokenizer decodes them (octal and \x are bytes).
ESCAPE = re.compile(rb"\\(?:([0-7]{1,3})|x([0-9A-Fa-f]{1,2})"
                    rb"|u([dD][89abAB][0-9A-Fa-f]{2})\\u([dD][c-fC-F][0-9A-Fa-f]{2})"
                    rb"|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))", re.DOTALL)
SIMPLE_ESCAPES = {b"a": b"\a", b"b": b"\b", b"f": b"\f", b"n": b"\n", b"r": b"\r", b"t": b"\t",
                  b"v": b"\v"}
# `import public` passes the file's names on to its importers; `weak` and edition 2024's
# `option` imports are read by protoc all the same.
MODIFIERS = (b"public", b"weak", b"option")
WELL_KNOWN = "google/protobuf/"  # compiled in with protoc; never read from a repository


class Import(NamedTuple):
    name: str  # the path as protoc reads it: adjacent literals joined, escapes decoded
    modifier: str  # "", "public", "weak" or "option"


def imports(text: str | bytes | None) -> tuple[Import, ...]:
    """Every `import` statement of a .proto file, read as protoc tokenizes it: comments may
    sit between its tokens, its path may be in single or double quotes, escaped, and split into
    adjacent literals (`import "mon" 'ey.proto';`). The one reading of imports every caller uses."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text or b""
    if b"import" not in data:
        return ()
    found: list[Import] = []
    modifier, parts = None, []  # modifier: None outside an import statement
    for token in TOKEN.finditer(data):
        kind = token.lastgroup
        if kind == "gap":
            continue
        if kind == "string" and modifier is not None:
            parts.append(_literal(token.group()))
            continue
        if parts:  # the literals end at the first other token (protoc wants `;`)
            found.append(Import(b"".join(parts).decode("utf-8", "replace"), modifier))
        word = token.group() if kind == "word" else None
        if modifier == "" and not parts and word in MODIFIERS:
            modifier = word.decode()
        else:
            modifier, parts = ("" if word == b"import" else None), []
    if parts:
        found.append(Import(b"".join(parts).decode("utf-8", "replace"), modifier))
    return tuple(found)


def imported(text: str | bytes | None) -> list[str]:
    """The paths a .proto file imports, in order."""
    return [i.name for i in imports(text) if i.name]


def closure(text: bytes | None, find: Callable[[str], bytes | None],
            limit: int = MAX_PROTO_FILES) -> dict[str, str]:
    """Import path as written -> text, for every file `text` imports, transitively; `find`
    gives a file's bytes, or None when there is none (protoc then names the missing import).
    At most `limit` files: the compiler refuses that many (limits.MAX_PROTO_FILES), not fewer."""
    found: dict[str, str] = {}
    pending = imported(text)
    while pending and len(found) < limit:
        name = pending.pop()
        if name in found or name.startswith(WELL_KNOWN):
            continue
        data = find(name)
        if data is None:
            continue
        found[name] = data.decode("utf-8", "replace")
        pending.extend(imported(data))
    return found


def from_roots(text: bytes, roots: tuple[str, ...],
               located: dict[str, str] | None = None) -> dict[str, str]:
    """The imports of a local file, each from the first root holding it (protoc's order). A
    link or special file where an import is found is refused (a Refused error), not followed;
    a name leaving its root (`..`, absolute) is never looked for. `located` gets each import's
    path as found (findings in an imported file name it)."""
    def find(name: str) -> bytes | None:
        if name.startswith("/") or "\\" in name or normpath(name) != name or name.startswith(".."):
            return None
        for root in roots:
            candidate = os.path.join(root, name)
            if not os.path.lexists(candidate):
                continue
            if (link := linked_parent(candidate, root)) is not None:
                raise Refused(candidate, None, LINKED_PARENT.format(link=link))
            data = read_regular(candidate, MAX_SCHEMA_BYTES)
            if located is not None:
                located[name] = candidate
            return data
        return None
    return closure(text, find)


def _literal(token: bytes) -> bytes:
    """A string literal's bytes: its quotes dropped (an unclosed one has none at the end)."""
    return ESCAPE.sub(_unescape, LITERAL.match(token).group(2))


def _unescape(match: re.Match) -> bytes:
    octal, hexa, pair_head, pair_tail, short, long, char = match.groups()
    if octal or hexa:
        return bytes([int(octal or hexa, 8 if octal else 16) & 0xFF])
    if pair_head:  # a UTF-16 surrogate pair, written as two \u escapes: one code point
        high, low = int(pair_head, 16), int(pair_tail, 16)
        return chr(0x10000 + ((high - 0xD800) << 10) + low - 0xDC00).encode()
    if short or long:
        code = int(short or long, 16)
        valid = code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF
        return chr(code).encode() if valid else match.group()  # protoc refuses the file
    return SIMPLE_ESCAPES.get(char, char)
