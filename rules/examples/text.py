"""An example as plain-text lines, for the CLI's text output."""
from __future__ import annotations

import json

from ..model import Example, Outcome, Side

WRITTEN = "example: written with {writer}, read with {reader}: {payload}"
FAILS = "the reader fails: {error}"
CHANGES = "the reader sees different values at: {paths}"
NONE_FOUND = "example: none: the notes below say why"  # the budget, the size limit, the runtime
NONE_CAN = "example: none: {why}"
BINARY = "as binary (base64): {data}"
MAX_PAYLOAD_CHARS = 2000  # a terminal line, not a file: the JSON output has the whole payload


def lines(example: Example | None, why: str | None = None) -> list[str]:
    if example is None:
        return [NONE_CAN.format(why=why) if why else NONE_FOUND]
    reader = Side.NEW if example.written_with is Side.OLD else Side.OLD
    payload = json.dumps(example.payload, ensure_ascii=False, sort_keys=False)
    if len(payload) > MAX_PAYLOAD_CHARS:
        payload = payload[:MAX_PAYLOAD_CHARS - 3] + "..."
    out = [WRITTEN.format(writer=example.written_with.value, reader=reader.value, payload=payload)]
    if example.binary is not None:
        data = example.binary  # as long as the payload allows: cut like it
        out.append("  " + BINARY.format(data=data if len(data) <= MAX_PAYLOAD_CHARS
                                        else data[:MAX_PAYLOAD_CHARS - 3] + "..."))
    if example.outcome is Outcome.ERROR:
        out.append("  " + FAILS.format(error=example.reader_error))
    else:
        out.append("  " + CHANGES.format(paths=", ".join(example.changed or ())))
    if example.read is not None:
        out.append("  " + example.read)
    return out
