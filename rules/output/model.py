"""What every CI format renders: files, their located findings, and the verdict."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

from ..model import Finding, Report, Severity

# Lone surrogates stand for undecodable bytes in a file name; no UTF-8 output can carry them.
SURROGATE = re.compile("[\ud800-\udfff]")


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


def from_report(report: Report, *, new: str, verdict: str) -> Outcome:
    """`check`'s report: one file, NEW; removed elements point into OLD, where they stood."""
    located = tuple(Located(finding=f, file=f.file or new, line=f.line, message=f.message)
                    for f in report.findings)
    return Outcome(files=(FileResult(path=new, findings=located),), failed=not report.compatible,
                   verdict=verdict, notes=report.notes)
