"""A finding's identity across pushes, and the hidden marker that carries it in a comment."""
from __future__ import annotations

import re
from typing import Iterable

from rules import Finding
from rules.output.model import digest, fingerprint as of_parts

MARKER = "<!-- schema-review:fingerprint={fingerprint} -->"
MARKER_PATTERN = re.compile(r"<!-- schema-review:fingerprint=([0-9a-f]{16}) -->")


# Findings about a file as a whole name no element: they are bound to the file's content
# instead, so accepting one version of it (an override) never covers another.
WHOLE_FILE_RULES = frozenset({"SCHEMA_NOT_REVIEWED", "SCHEMA_REVIEW_BUDGET", "SCHEMA_INVALID",
                              "SCHEMA_IDENTITY_DUPLICATED"})


def fingerprint(finding: Finding, *, file: str, version: str = "") -> str:
    """16 hex digits from the rule, the file and the element; never the line, which moves.

    `file` is the head path the pull request shows (a finding on a removed element carries the
    base path, which differs after a rename). `version` identifies the file's content, for the
    whole-file findings only.
    """
    return of_parts(finding.rule, file, finding.path, version)


def of(finding: Finding, file) -> str:
    """The fingerprint of a finding in a reviewed file (a FileReview)."""
    version = file.version if finding.rule in WHOLE_FILE_RULES else ""
    return fingerprint(finding, file=file.path, version=version)


def covered_by_override(finding: Finding, file) -> str:
    """What an override records it covers: the finding's identity and what the change is.

    A comment follows an element (`of`), but an override accepts one change: another change at
    the same element (`int` -> `string`, then `int` -> `array`) is one its author never saw. The
    rule's own description (`Finding.change`, without dates or blame added since) and the older
    version it is against are stable across pushes that leave the change alone.
    """
    described = " ".join(finding.change.split())
    parts = (of(finding, file), described, finding.side.value, finding.against or "")
    return digest(parts)


def marker(value: str) -> str:
    return MARKER.format(fingerprint=value)


def found_in(body: str | None) -> str | None:
    """The fingerprint a comment of ours carries, or None for anybody else's comment.

    The last marker counts: the App writes it at the very end, after any schema text the body
    quotes (a suggestion's text is kept verbatim and may hold a look-alike marker)."""
    found = MARKER_PATTERN.findall(body or "")
    return found[-1] if found else None


def posted(bodies: Iterable[str | None]) -> set[str]:
    """Fingerprints already posted, from the bodies of the pull request's comments."""
    return {value for value in map(found_in, bodies) if value}
