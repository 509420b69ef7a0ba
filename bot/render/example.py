"""The collapsed "Example that breaks" block of a review comment: a record and what its reader sees.

Payloads and runtime messages come from schema text, so they go through the Markdown helpers
(a fence longer than any backtick run inside, a code span for the message); this one function
is where to switch to the central escaper.
"""
from __future__ import annotations

from rules import Example, Format, Outcome, Side
from rules.visible import visible_json

from bot.render.escape import code, fenced, text as plain_text

SUMMARY = "<details><summary>Example that breaks</summary>"
END = "</details>"
WRITTEN = "A record written with the **{writer}** schema ({encoding}):"
FAILS = "A reader on the **{reader}** schema fails: {error}"
CHANGES = "A reader on the **{reader}** schema reads different values at {paths}."
BINARY = "As protobuf binary (base64): {data}"
NONE = "No example: {why}"
ENCODING = {Format.AVRO: "Avro's JSON encoding", Format.PROTOBUF: "protobuf's canonical JSON",
            Format.JSONSCHEMA: "the JSON instance"}
# A comment holds one finding; the payload stays a small part of GitHub's 65,536 characters.
MAX_PAYLOAD_CHARS = 4000
MAX_PATHS = 10
CUT = "… ({count:,} more characters not shown)"


def block(example: Example | None, fmt: Format, why: str | None = None) -> str:
    """The block for a finding's example; when it has none, why no record shows it (or "")."""
    if not example:
        return NONE.format(why=plain_text(why)) if why else ""
    reader = Side.NEW if example.written_with is Side.OLD else Side.OLD
    text = visible_json(example.payload, ascii=False, indent=2)  # a fence shows text as it is
    if len(text) > MAX_PAYLOAD_CHARS:
        text = text[:MAX_PAYLOAD_CHARS] + "\n" + CUT.format(count=len(text) - MAX_PAYLOAD_CHARS)
    if example.outcome is Outcome.ERROR:
        seen = FAILS.format(reader=reader.value, error=code(example.reader_error or "error"))
    else:
        paths = list(example.changed or ())
        shown = ", ".join(code(p) for p in paths[:MAX_PATHS]) + (", …" if len(paths) > MAX_PATHS else "")
        seen = CHANGES.format(reader=reader.value, paths=shown)
    if example.read:
        seen += " " + code(example.read)
    written = WRITTEN.format(writer=example.written_with.value, encoding=ENCODING[fmt])
    data = example.binary or ""
    if len(data) > MAX_PAYLOAD_CHARS:
        data = data[:MAX_PAYLOAD_CHARS] + " " + CUT.format(count=len(data) - MAX_PAYLOAD_CHARS)
    binary = [BINARY.format(data=code(data))] if data else []
    # Blank lines around the Markdown inside <details>, or GitHub shows it as raw text.
    return "\n\n".join([SUMMARY, written, fenced(text, "json"), *binary, seen, END])
