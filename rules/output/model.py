"""What every CI format renders: files, their located findings, and the verdict."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from ..model import Finding, Report, SchemaError, Severity, Side

# Lone surrogates stand for undecodable bytes in a file name; no UTF-8 output can carry them.
SURROGATE = re.compile("[\ud800-\udfff]")
# A base-side finding where no base file is shown (a directory check names both versions' files
# by one relative path): the head's line of that number is unrelated, so the file is annotated.
REMOVED_FROM = "Removed from line {line} of the base version. "


def scrub(text: str) -> str:
    """Text any UTF-8 stream can carry: lone surrogates become U+FFFD."""
    return SURROGATE.sub("\ufffd", text)


@dataclass(frozen=True)
class Located:
    """A finding where a reader of the checked-out tree should see it."""

    finding: Finding
    file: str  # a path in the tree (or the file named on the command line)
    line: int | None  # 1-based; None: the file as a whole (a removed file, an older version)
    message: str  # the finding's message, with any note on where the element stood
    fingerprint: str | None = None  # stable across pushes, when the caller has one


@dataclass(frozen=True)
class FileResult:
    """One schema file under review: its findings, or why it could not be reviewed."""

    path: str
    findings: tuple[Located, ...] = ()
    problem: str | None = None


@dataclass(frozen=True)
class RuleHelp:
    """What a rule the registry does not know (the App's own rules) is about."""

    summary: str
    markdown: str


@dataclass(frozen=True)
class Outcome:
    files: tuple[FileResult, ...]
    failed: bool  # error-level findings: the gate fails
    verdict: str  # one line, no untrusted text
    notes: tuple[str, ...] = ()
    rule_help: Mapping[str, RuleHelp] = field(default_factory=dict)

    @property
    def findings(self) -> list[Located]:
        return [item for file in self.files for item in file.findings]

    def count(self, severity: Severity) -> int:
        return sum(item.finding.severity is severity for item in self.findings)


def fingerprint(rule: str, file: str, path: str, version: str = "") -> str:
    """16 hex digits from the rule, the head file and the element; never the line, which moves
    (SARIF's partialFingerprints, the App's comment markers)."""
    return digest((rule, file, path) + ((version,) if version else ()))


def digest(parts: Iterable[str]) -> str:
    """16 hex digits naming a sequence of strings (NUL-separated: no two sequences collide)."""
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:16]


def in_order(files: Iterable[FileResult]) -> tuple[FileResult, ...]:
    """Files by path, each one's findings by the file and line they are shown at, then rule:
    every format lists them in the same order."""
    def key(item: Located) -> tuple:
        return (item.file, item.line or 0, item.finding.rule, item.finding.path)
    return tuple(FileResult(path=file.path, problem=file.problem,
                            findings=tuple(sorted(file.findings, key=key)))
                 for file in sorted(files, key=lambda file: file.path))


def from_report(report: Report, *, new: str, verdict: str, tree: bool = False,
                checked: Iterable[str] = (), problems: Iterable[SchemaError] = ()) -> Outcome:
    """`check`'s report, one FileResult per head file (the checked ones too, findings or not;
    `problems`: files that could not be checked). A file check's base-side finding points into
    OLD, where it stood; a directory check's names the head's relative path, so it is shown on
    the file as a whole with its base line in the message. A fix always edits the head file."""
    files: dict[str, list[Located]] = {path: [] for path in (checked if tree else (new,))}
    for f in report.findings:
        old = f.side is Side.OLD
        head = f.file if tree or not old else new  # where the finding is listed (and fixed)
        line, message = (None, REMOVED_FROM.format(line=f.line) + f.message) if old and tree \
            else (f.line, f.message)
        files.setdefault(head or new, []).append(Located(
            finding=f, file=f.file or new, line=line, message=message,
            fingerprint=fingerprint(f.rule, head or new, f.path)))
    results = [FileResult(path=path, findings=tuple(found)) for path, found in files.items()]
    results += [FileResult(path=problem.file, problem=problem.problem) for problem in problems]
    return Outcome(files=in_order(results), failed=not report.compatible, verdict=verdict,
                   notes=report.notes)
