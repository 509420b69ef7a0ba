"""The review for a terminal: findings by file as `file:line: severity RULE message` lines."""
from __future__ import annotations

import os
from typing import Callable, Mapping, Sequence, TextIO

from rules import Finding, Severity, Side
from rules.visible import line_start, visible

from bot.render.check_run import FORMAT_NAMES, counts
from bot.render.model import Conclusion, FileReview
from bot.render.outcome import unique, verdict

FILE_HEADER = "{path} ({format}, {mode})"
NO_FINDINGS = "  no findings"
NOT_REVIEWED = "  not reviewed: {problem}"
LINE = "{where}: {severity} {rule} {message}"
BASE = " (base)"
OLDER = " (base version {version})"
FIX = "    fix: {title}"
HUNK = "    @@ lines {start}-{end} @@"
NOTE = "note: {note}"
NO_FILES = "No schema files changed."
SEVERITY_COLOURS = {Severity.ERROR: "1;31", Severity.WARNING: "1;33", Severity.INFO: "1;34"}
VERDICT_COLOURS = {Conclusion.SUCCESS: "1;32", Conclusion.FAILURE: "1;31",
                   Conclusion.NEUTRAL: "1;33", Conclusion.CANCELLED: "1;33"}
# Schema text and file names are untrusted: every line shows them through rules/visible.py
# (escape sequences could rewrite the screen or retitle the window; a CI log obeys `::` lines).

HeadLines = Callable[[str], Sequence[str] | None]


def use_colour(choice: str, *, stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """--color always/never wins; auto: NO_COLOR off, FORCE_COLOR on, else only on a terminal."""
    if choice != "auto":
        return choice == "always"
    if environ.get("NO_COLOR"):
        return False  # no-color.org: set and not empty
    if environ.get("FORCE_COLOR", "") not in ("", "0", "false"):
        return True
    return stream.isatty() and environ.get("TERM") != "dumb"


def render(result, *, colour: bool = False, head_lines: HeadLines = lambda _path: None) -> str:
    """Each file with its findings (each once) and fixes as diffs, then a one-line verdict."""
    paint = _painter(colour)
    out: list[str] = []
    for file in result.files:
        out += _file(file, paint, head_lines) + [""]
    notes = dict.fromkeys(note for file in result.files for note in file.notes)
    out += [visible(NOTE.format(note=note)) for note in notes] + ([""] if notes else [])
    if not result.files:
        out += [NO_FILES]
    out.append(paint(visible(verdict(result)), VERDICT_COLOURS[result.conclusion]))
    return "\n".join(out) + "\n"


def _file(file: FileReview, paint, head_lines: HeadLines) -> list[str]:
    mode = file.mode.value + ("_transitive" if file.transitive else "")
    header = FILE_HEADER.format(path=file.path, format=FORMAT_NAMES[file.format], mode=mode)
    found = counts([finding for finding, _fingerprint in unique(file)])
    out = [paint(line_start(header), "1") + (f": {found}" if found else "")]
    if not file.reviewed:
        return out + [visible(NOT_REVIEWED.format(problem=file.problem))]
    if not file.findings:
        return out + [NO_FINDINGS]
    for finding, _fingerprint in unique(file):
        out.append(_line(file, finding, paint))
        if finding.suggestion:
            out += _fix(finding, file.path, paint, head_lines)
    return out


def _line(file: FileReview, finding: Finding, paint) -> str:
    """Editors and problem matchers read `file:line: ...`; where a removed element stood is
    said after the message, so the location stays a plain path and line."""
    if file.from_older_version(finding):
        where = f"{file.base_path or file.path}:{finding.line}"
        suffix = OLDER.format(version=finding.file.rpartition("@")[2])
    elif file.in_other_file(finding):
        where, suffix = f"{finding.file}:{finding.line}", BASE if finding.side is Side.OLD else ""
    elif finding.side is Side.OLD:
        where, suffix = f"{file.base_path or file.path}:{finding.line}", BASE
    else:
        where, suffix = f"{file.path}:{finding.line}", ""
    text = LINE.format(where=paint(line_start(where), "1"),
                       severity=paint(finding.severity.value, SEVERITY_COLOURS[finding.severity]),
                       rule=finding.rule, message=visible(finding.message))
    return text + visible(suffix)


def _fix(finding: Finding, path: str, paint, head_lines: HeadLines) -> list[str]:
    fix = finding.suggestion
    lines = head_lines(path) or []
    old = lines[fix.line_start - 1:fix.line_end] if fix.line_end <= len(lines) else []
    new = fix.replacement.removesuffix("\n").split("\n")
    return [visible(FIX.format(title=fix.title)),
            paint(HUNK.format(start=fix.line_start, end=fix.line_end), "36"),
            *(paint("    -" + visible(line), "31") for line in old),
            *(paint("    +" + visible(line), "32") for line in new)]


def _painter(colour: bool):
    def paint(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if colour else text
    return paint
