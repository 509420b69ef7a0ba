"""The review as GitHub Actions step outputs ($GITHUB_OUTPUT): its conclusion and how many errors
and warnings it found, each finding counted once, as the annotations show them."""
from __future__ import annotations

import re
from pathlib import Path

from rules import Severity

from bot.local.git import LocalError
from bot.render.outcome import unique
from bot.review.review import ReviewResult

UNWRITABLE = "cannot write the step outputs to {path}: {problem}"
# GITHUB_OUTPUT holds `name=value` lines: a value with a line break would start another output
# (or a `name<<DELIMITER` block). Only a fixed word or a number is ever written.
SAFE_VALUE = re.compile(r"[a-z_]+|[0-9]+")


def values(result: ReviewResult) -> dict[str, str]:
    """conclusion (success, failure, neutral, ...), errors, warnings."""
    found = [finding for file in result.files
             for finding in ([f for f, _fingerprint in unique(file)] if file.reviewed else file.findings)]
    return {"conclusion": str(result.conclusion.value),
            "errors": str(sum(f.severity is Severity.ERROR for f in found)),
            "warnings": str(sum(f.severity is Severity.WARNING for f in found))}


def append(path: Path, result: ReviewResult) -> None:
    lines = []
    for name, value in values(result).items():
        if not SAFE_VALUE.fullmatch(value):
            raise ValueError(f"step output {name} is not a word or a number: {value!r}")
        lines.append(f"{name}={value}\n")
    try:
        with path.open("a", encoding="utf-8") as handle:
            handle.write("".join(lines))
    except OSError as error:
        raise LocalError(UNWRITABLE.format(path=path, problem=error.strerror)) from None
