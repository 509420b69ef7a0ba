"""The budgeted worker's child side: read one JSON request a line, run the engine, answer one line."""
from __future__ import annotations

import json
import sys

from . import wire
from .engine import check
from .model import Format, Mode, SchemaError, Source

# What the parent sees when the engine raised something other than a SchemaError.
CRASHED = "{kind}"
OUT_OF_MEMORY = "memory"


def answer(request: dict) -> dict:
    """The answer to one request as the pipe carries it (JSON forms of the sources)."""
    return run(wire.to_source(request["old"]), wire.to_source(request["new"]),
               format=Format(request["format"]) if request["format"] else None,
               mode=Mode(request["mode"]), against=[wire.to_source(each) for each in request["against"]],
               options=wire.to_options(request["options"]), examples=request.get("examples") is True)


def run(old: Source, new: Source, **how) -> dict:
    """`check` answered in the pipe's format: a report, a SchemaError, or what crashed. The CLI's
    forked child calls it on its sources as they are (a lazy sibling set stays lazy)."""
    try:
        report = check(old, new, **how)
    except SchemaError as error:
        return {"error": wire.error(error)}
    except MemoryError:
        return {"crash": OUT_OF_MEMORY}
    except Exception as error:  # a bug in a rule: the parent reports the file as not reviewed
        return {"crash": CRASHED.format(kind=type(error).__name__)}
    return {"report": wire.report(report)}


def main() -> None:
    # The standard streams are the pipe to the parent; nothing else is ever printed on stdout.
    incoming, outgoing = sys.stdin.buffer, sys.stdout.buffer
    for line in incoming:
        # ensure_ascii: a schema's own newlines or separators can never split an answer line.
        reply = json.dumps(answer(json.loads(line)), ensure_ascii=True).encode("ascii")
        del line
        outgoing.write(reply + b"\n")
        outgoing.flush()
