"""Override records (kept in the App's own PR comments) and what they do to the check's verdict."""
from __future__ import annotations

import base64
import enum
import json
import re
from dataclasses import asdict, dataclass
from typing import Callable, Iterable

from rules import Severity

from .fingerprint import fingerprint
from .render.markdown import cell, fit
from .render.model import Conclusion
from .review import ReviewResult

MARKER = "<!-- schema-review:override {payload} -->"
MARKER_PATTERN = re.compile(r"<!-- schema-review:override ([A-Za-z0-9_=-]+) -->")
TITLE = "Overridden by {users}"
TITLE_PARTIAL = "{title} ({count} not covered by the override)"
SECTION = "### Override\n\n| By | When | Reason | Covers | Command |\n|---|---|---|---|---|"
COVERED = "**Overridden** ({count}): {items}"
NOT_COVERED = ("**Not covered** ({count}): {items}. These breaking changes appeared after the "
               "override, or were outside its scope; the check fails until they are fixed or overridden.")
EVERYTHING = "every breaking change then present"


class RecordKind(enum.StrEnum):
    OVERRIDE = "override"
    REVOKE = "revoke"


@dataclass(frozen=True)
class Record:
    """One accepted command, as the App wrote it into its reply (the audit trail)."""

    kind: RecordKind
    user: str
    at: str  # ISO time the command was accepted
    comment: str  # link to the command's comment
    reason: str = ""
    scope: tuple[str, ...] = ()
    fingerprints: tuple[str, ...] = ()

    def marker(self) -> str:
        data = json.dumps(asdict(self), separators=(",", ":")).encode()
        return MARKER.format(payload=base64.urlsafe_b64encode(data).decode())


def records_in(bodies: Iterable[str | None]) -> list[Record]:
    """Records from the App's own comment bodies, oldest first; anything malformed is skipped."""
    found = []
    for body in bodies:
        match = MARKER_PATTERN.search(body or "")
        if not match:
            continue
        try:
            data = json.loads(base64.urlsafe_b64decode(match.group(1)))
            found.append(Record(kind=RecordKind(data["kind"]), user=str(data["user"]), at=str(data["at"]),
                                comment=str(data["comment"]), reason=str(data.get("reason", "")),
                                scope=tuple(data.get("scope", ())),
                                fingerprints=tuple(data.get("fingerprints", ()))))
        except (ValueError, KeyError, TypeError):
            continue
    return found


def active(records: list[Record], *, still_allowed: Callable[[str], bool]) -> list[Record]:
    """Overrides since the last revoke whose author still has the right to override."""
    current: list[Record] = []
    for record in records:
        current = [] if record.kind is RecordKind.REVOKE else current + [record]
    return [r for r in current if still_allowed(r.user)]


def errors(result: ReviewResult) -> list[tuple[str, str, object]]:
    """(fingerprint, file, finding) of every error-level finding: what an override can cover."""
    return [(fingerprint(f, file=file.path), file.path, f)
            for file in result.files for f in file.findings if f.severity is Severity.ERROR]


def in_scope(scope: tuple[str, ...], path: str, finding) -> bool:
    return not scope or finding.rule in scope or path in scope


def verdict(result: ReviewResult, overrides: list[Record], *,
            conclusion: Conclusion) -> tuple[Conclusion, str, str]:
    """(conclusion, title, summary) once the active overrides are taken into account."""
    breaking = errors(result)
    if not overrides or not breaking:
        return result.conclusion, result.title, result.summary
    covered = {fp for record in overrides for fp in record.fingerprints}
    done = [item for item in breaking if item[0] in covered]
    missing = [item for item in breaking if item[0] not in covered]
    users = ", ".join(dict.fromkeys(f"@{r.user}" for r in overrides))
    title = TITLE.format(users=users)
    lines = [SECTION] + [_row(r) for r in overrides] + [""]
    if done:
        lines.append(COVERED.format(count=len(done), items=_items(done)))
    if missing:
        lines.append(NOT_COVERED.format(count=len(missing), items=_items(missing)))
        conclusion, title = Conclusion.FAILURE, TITLE_PARTIAL.format(title=title, count=len(missing))
    # The audit trail comes first; the findings follow, cut to GitHub's limit if they must be.
    return conclusion, title, fit(lines + ["", *result.summary.split("\n")])


def _row(record: Record) -> str:
    covers = ", ".join(f"`{s}`" for s in record.scope) or EVERYTHING
    return (f"| @{record.user} | {record.at} | {cell(record.reason)} | {covers} | "
            f"[comment]({record.comment}) |")


def _items(items) -> str:
    return ", ".join(f"`{f.rule}` {cell(f.path) or '(file)'} in `{path}`" for _fp, path, f in items)
