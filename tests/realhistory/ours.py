"""Our engine's verdict on one extracted pair, called the way the CLI calls it."""
from __future__ import annotations

import traceback
from pathlib import Path

from rules.engine import check
from rules.model import Mode, Options, SchemaError, Severity
from rules.sources import read

from .peers import Verdict

CRASH = "CRASH "  # prefix of an error that is not a SchemaError: a bug, whatever the input


def categories(category: str) -> frozenset[str]:
    """buf's category name -> our Options.proto_categories (WIRE_JSON includes WIRE, as in buf)."""
    return frozenset({"WIRE", category})


def verdict(fmt: str, old_tree: Path, new_tree: Path, file: str, root: str, *, run: str) -> Verdict:
    """`run` is the buf category for protobuf, the mode for Avro and JSON Schema."""
    inside = Path(root, file) if fmt == "protobuf" else Path(file)
    old_path, new_path = old_tree / inside, new_tree / inside
    # As `--proto-path OLD --proto-path NEW`: each side must resolve from its own tree first.
    roots = (str(old_tree / root), str(new_tree / root)) if fmt == "protobuf" else ()
    if fmt == "protobuf":
        mode, options = Mode.BACKWARD, Options(proto_categories=categories(run))
    else:
        mode, options = Mode(run), Options()
    try:
        report = check(read(str(old_path), proto_paths=roots), read(str(new_path), proto_paths=roots),
                       mode=mode, options=options)
    except SchemaError as error:
        return Verdict(None, error=f"{error.side.value if error.side else '?'}: {error.problem}"[:400])
    except Exception as error:  # noqa: BLE001 - any other exception is a crash to report
        last = traceback.extract_tb(error.__traceback__)[-1]
        return Verdict(None, error=f"{CRASH}{type(error).__name__}: {error} "
                                   f"({Path(last.filename).name}:{last.lineno})"[:400])
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    return Verdict(report.compatible, tuple(sorted({f.rule for f in errors})),
                   tuple(f"{f.rule} {f.path}: {f.message}" for f in errors))
