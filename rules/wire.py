"""JSON forms of Source, Options, Report and SchemaError for the budgeted worker's pipe (no pickle:
the worker parses hostile input, so what it sends back is read as data and checked, never run)."""
from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping

from .model import (NOT_SEARCHED, Direction, Example, Finding, Format, Mode, Options, Outcome,
                    Report, SchemaError,
                    Severity, Side, Source, Suggestion)


class Malformed(ValueError):
    """The worker's answer does not have the expected shape."""


def _str(value) -> str:
    if not isinstance(value, str):
        raise Malformed("expected a string")
    return value


def _int(value) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise Malformed("expected an integer")
    return value


def _strings(value) -> list[str]:
    if not isinstance(value, list):
        raise Malformed("expected a list")
    return [_str(each) for each in value]


def source(value: Source) -> dict:
    return {"path": value.path, "text": value.text, "imports": dict(value.imports),
            "proto_paths": list(value.proto_paths), "buf_deps": list(value.buf_deps),
            "withheld": dict(value.withheld), "import_paths": dict(value.import_paths)}


def to_source(data: dict) -> Source:
    return Source(path=data["path"], text=data["text"], imports=dict(data["imports"]),
                  proto_paths=tuple(data["proto_paths"]), buf_deps=tuple(data.get("buf_deps", ())),
                  withheld=dict(data.get("withheld", {})),
                  import_paths=dict(data.get("import_paths", {})))


def options(value: Options) -> dict:
    """Every field of Options (new knobs travel without touching this module)."""
    out = {}
    for each in dataclasses.fields(Options):
        item = getattr(value, each.name)
        if isinstance(item, enum.Enum):
            item = item.value
        elif isinstance(item, (set, frozenset)):
            item = sorted(item)
        elif isinstance(item, Mapping):
            item = {k: v.value if isinstance(v, enum.Enum) else v for k, v in item.items()}
        out[each.name] = item
    return out


def to_options(data: dict) -> Options:
    values = {}
    for each in dataclasses.fields(Options):
        if each.name not in data:
            continue
        item, default = data[each.name], getattr(Options(), each.name)
        if isinstance(default, enum.Enum):
            item = type(default)(item)
        elif isinstance(default, (set, frozenset)):
            item = frozenset(item)
        elif each.name == "severities":
            item = {rule: None if level is None else Severity(level) for rule, level in item.items()}
        values[each.name] = item
    return Options(**values)


def request(old: Source, new: Source, *, format: Format | None, mode: Mode,
            against, options_: Options, examples: bool = False) -> dict:
    return {"old": source(old), "new": source(new), "format": format and format.value,
            "mode": mode.value, "against": [source(each) for each in against],
            "options": options(options_), "examples": examples}


def report(value: Report) -> dict:
    return {"mode": value.mode.value, "notes": list(value.notes),
            "findings": [_finding(each) for each in value.findings]}


def _finding(value: Finding) -> dict:
    fix = value.suggestion
    return {"rule": value.rule, "severity": value.severity.value, "line": value.line,
            "path": value.path, "message": value.message, "side": value.side.value,
            "file": value.file, "against": value.against,
            "breaks": None if value.breaks is None else sorted(d.value for d in value.breaks),
            "suggestion": None if fix is None else [fix.title, fix.line_start, fix.line_end,
                                                    fix.replacement],
            **({} if value.example is NOT_SEARCHED else {"example": _example(value.example)}),
            **({} if value.example_why is None else {"example_why": value.example_why})}


def _example(value: Example | None) -> dict | None:
    return None if value is None else value.to_json()


def _to_example(data) -> Example | None:
    if data is None:
        return None
    changed = data["changed"]
    error = data["reader_error"]
    return Example(written_with=Side(data["written_with"]), payload=data["payload"],
                   outcome=Outcome(data["outcome"]),
                   reader_error=None if error is None else _str(error),
                   changed=None if changed is None else tuple(_strings(changed)),
                   **{key: _str(data[key]) for key in ("encoding", "binary", "read") if data.get(key) is not None})


def to_report(data) -> Report:
    """A Report from the worker's answer; anything out of shape raises Malformed."""
    try:
        return Report(mode=Mode(data["mode"]), notes=tuple(_strings(data["notes"])),
                      findings=tuple(_to_finding(each) for each in data["findings"]))
    except (KeyError, TypeError, ValueError) as error:
        raise Malformed(str(error)) from None


def _to_finding(data: dict) -> Finding:
    fix = data["suggestion"]
    breaks = data["breaks"]
    return Finding(
        rule=_str(data["rule"]), severity=Severity(data["severity"]), line=_int(data["line"]),
        path=_str(data["path"]), message=_str(data["message"]), side=Side(data["side"]),
        file=_str(data["file"]),
        against=None if data["against"] is None else _str(data["against"]),
        breaks=None if breaks is None else frozenset(Direction(d) for d in _strings(breaks)),
        suggestion=None if fix is None else Suggestion(_str(fix[0]), _int(fix[1]), _int(fix[2]),
                                                       _str(fix[3])),
        example=_to_example(data["example"]) if "example" in data else NOT_SEARCHED,
        example_why=None if data.get("example_why") is None else _str(data["example_why"]))


def error(value: SchemaError) -> dict:
    return {"file": value.file, "line": value.line, "problem": value.problem,
            "side": value.side and value.side.value}


def to_error(data) -> SchemaError:
    try:
        line = data["line"]
        made = SchemaError(_str(data["file"]), None if line is None else _int(line),
                           _str(data["problem"]))
        made.side = None if data["side"] is None else Side(data["side"])
        return made
    except (KeyError, TypeError, ValueError) as error_:
        raise Malformed(str(error_)) from None
