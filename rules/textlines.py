"""A file's lines numbered as git, GitHub, protoc and rules.jsontext number them."""
from __future__ import annotations


def file_lines(text: str) -> list[str]:
    """The lines of the text, split on \\n only (a CRLF's \\r dropped). str.splitlines also
    splits on \\f, \\v, \\x1c-\\x1e, \\x85, U+2028 and U+2029, which a comment or a JSON string
    may hold: line N of its list would not be line N of the file, and a suggestion built from
    it would replace the wrong line."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline ending the last line starts no line of its own
    if "\r" not in text:  # the common case; a big file's lines are then only split
        return lines
    return [line.removesuffix("\r") for line in lines]
