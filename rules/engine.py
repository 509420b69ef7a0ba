"""Detect the format, parse each version once, compare, and turn raw findings into a Report."""
from __future__ import annotations

import dataclasses
from pathlib import PurePosixPath
from collections.abc import Iterable, Sequence

from .limits import MAX_FINDINGS
from .model import (Finding, Format, Mode, Options, Report, SchemaError, Severity, Side,
                    Source, Unresolved)
from .once import once
from .registry import RuleSpec, format_package, specs_for

EXTENSIONS = {".avsc": Format.AVRO, ".proto": Format.PROTOBUF, ".json": Format.JSONSCHEMA}
UNKNOWN_FORMAT = "cannot tell the schema format from the extension {suffix!r}; pass --format"
TOO_MANY = "{count} more findings were not listed (limit {limit})."
# An older version no reader could use (a reference it makes does not resolve) held no data to
# stay compatible with: a pull request that repairs it is not blocked by it.
OLDER_UNRESOLVED = "{error}: so that version was not compared; the new one is checked on its own."


def detect_format(path: str) -> Format:
    suffix = PurePosixPath(path).suffix.lower()
    try:
        return EXTENSIONS[suffix]
    except KeyError:
        raise SchemaError(path, None, UNKNOWN_FORMAT.format(suffix=suffix)) from None


def _parse(package, source: Source, side: Side):
    try:
        return package.parse(source)
    except SchemaError as error:
        error.side = side
        raise


def check(old: Source, new: Source, *, format: Format | None = None,
          mode: Mode = Mode.BACKWARD, against: Sequence[Source] = (),
          options: Options = Options(), examples: bool = False) -> Report:
    """Compare NEW with OLD (and every older version in `against`) under `mode`.

    `examples`: search each breaking error finding for a record that shows the break at runtime
    (rules.examples); the findings and the verdict are the same either way.
    Raises SchemaError (with .side set) when a version cannot be used at all.
    """
    fmt = format or detect_format(new.path)
    package = format_package(fmt)
    new_parsed = _parse(package, new, Side.NEW)
    specs = specs_for(fmt)  # only this format's package is imported: start-up stays fast
    findings: dict[tuple, Finding] = {}
    search = _examples(fmt, mode, options) if examples else None
    read_notes = dict.fromkeys(getattr(new_parsed, "notes", ()))  # how a file was read, once each
    for older in (old, *against):
        try:
            old_parsed = _parse(package, older, Side.OLD)
            compared = package.compare(old_parsed, new_parsed, options)
            raw = list(compared)
        except Unresolved as error:
            if error.side is not Side.OLD:
                raise
            read_notes[OLDER_UNRESOLVED.format(error=error)] = None
            continue
        read_notes.update(dict.fromkeys(getattr(old_parsed, "notes", ())))
        # how the comparison decided, where a format says (JSON Schema: the lenient policy)
        read_notes.update(dict.fromkeys(getattr(compared, "notes", ())))
        resolved = _resolve(raw, specs, mode, options, old_file=older.path, new_file=new.path,
                            against=None if older is old else older.path)
        if search is not None:
            resolved = search.attach(list(resolved), old_parsed, new_parsed)
        for finding in resolved:
            # Transitive checks see the same change against several versions: report it once.
            findings.setdefault((finding.rule, finding.path, finding.side), finding)
    # A shared definition reached from several places of the file is one change, there.
    ordered = once((f.file, f) for f in findings.values())
    notes = tuple(read_notes) + tuple(getattr(package, "notes", lambda _options: ())(options))
    if search is not None:
        notes += search.notes(ordered)
    return Report(mode=mode, findings=_cap(ordered, new.path), notes=notes)


def _examples(fmt: Format, mode: Mode, options: Options):
    from .examples import Search  # imported only when asked: the runtimes are heavy imports

    return Search(fmt, mode=mode, options=options)


def _resolve(raw: Iterable[Finding], specs: dict[str, RuleSpec], mode: Mode, options: Options,
             *, old_file: str, new_file: str, against: str | None) -> Iterable[Finding]:
    """Apply the spec's policy, the mode and the configured severities to each raw finding."""
    for finding in raw:
        spec = specs[finding.rule]
        configured = options.severities.get(finding.rule, finding.severity)
        if configured is None:
            continue  # the rule is turned off
        breaks = spec.breaks if finding.breaks is None else finding.breaks
        severity = configured
        if breaks and not breaks & mode.directions:
            severity = Severity.INFO  # breaks only in a direction this mode does not check
        # A format may name another file it read (a type defined there); else the version's own.
        own = old_file if finding.side is Side.OLD else new_file
        yield dataclasses.replace(finding, severity=severity, breaks=breaks, against=against,
                                  file=finding.file or own)


def _cap(findings: list[Finding], new_file: str) -> tuple[Finding, ...]:
    if len(findings) <= MAX_FINDINGS:
        return tuple(findings)
    kept = findings[:MAX_FINDINGS]
    worst = min((f.severity for f in findings[MAX_FINDINGS:]), key=lambda s: s.rank)
    extra = Finding(rule="TOO_MANY_FINDINGS", severity=worst, line=1, path="", file=new_file,
                    message=TOO_MANY.format(count=len(findings) - MAX_FINDINGS, limit=MAX_FINDINGS))
    return tuple(kept) + (extra,)
