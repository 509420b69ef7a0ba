"""Override records (kept in the App's own PR comments) and what they do to the check's verdict."""
from __future__ import annotations

import enum
from dataclasses import asdict, dataclass
from typing import Iterable, Sequence

from rules import Severity

from bot.render.fingerprint import covered_by_override
from bot.overrides.records import seal, unseal
from bot.render.escape import cell, code, text
from bot.render.markdown import fit
from bot.render.model import Conclusion
from bot.review.review import ReviewResult

TITLE = "Overridden by {users}"
TITLE_PARTIAL = "{title} ({count} not covered by the override)"
LAPSED_TITLE = "Override by {users} no longer counts"
LAPSED = "**No longer counts**: @{user}'s override. @{user}, {why}."
SECTION = "### Override\n\n| By | When | Reason | Covers | Command |\n|---|---|---|---|---|"
COVERED = "**Overridden** ({count}): {items}"
NOT_COVERED = ("**Not covered** ({count}): {items}. These breaking changes appeared or changed after "
               "the override (it covers only the changes its author saw), were outside its scope, or "
               "its author has since pushed to or committed in this pull request; the check fails "
               "until they are fixed or overridden again by someone with the right to override who "
               "did not write or push them.")
EVERYTHING = "every breaking change then present"
ON_HEAD = " (as of {sha})"


class RecordKind(enum.StrEnum):
    OVERRIDE = "override"
    REVOKE = "revoke"
    RECHECK = "recheck"  # when a recheck was last run: `/schema-review recheck` is rate-limited


@dataclass(frozen=True)
class Record:
    """One accepted command, as the App wrote it into its reply (the audit trail)."""

    kind: RecordKind
    user: str
    at: str  # when the command's comment was written (GitHub's created_at)
    comment: str  # link to the command's comment
    reason: str = ""
    scope: tuple[str, ...] = ()
    fingerprints: tuple[str, ...] = ()
    head: str = ""  # the head commit the override is bound to: current when the comment was written

    def marker(self, *, key: bytes, scope: str) -> str:
        """The sealed marker the App appends to its reply; `scope` names the pull request."""
        return seal(asdict(self), key=key, scope=scope)


def records_in(bodies: Iterable[str | None], *, key: bytes, scope: str) -> list[Record]:
    """Records from the App's own comment bodies, oldest first: the last sealed marker of each
    body, for this pull request; anything forged, moved or malformed is skipped."""
    found = []
    for body in bodies:
        data = unseal(body, key=key, scope=scope)
        if data is None:
            continue
        try:
            found.append(Record(kind=RecordKind(data["kind"]), user=str(data["user"]), at=str(data["at"]),
                                comment=str(data["comment"]), reason=str(data.get("reason", "")),
                                scope=tuple(map(str, data.get("scope", ()))),
                                fingerprints=tuple(map(str, data.get("fingerprints", ()))),
                                head=str(data.get("head", ""))))
        except (ValueError, KeyError, TypeError):
            continue
    return found


def since_revoke(records: list[Record]) -> list[Record]:
    """The overrides given since the last revoke."""
    current: list[Record] = []
    for record in records:
        if record.kind is RecordKind.REVOKE:
            current = []
        elif record.kind is RecordKind.OVERRIDE:
            current.append(record)
    return current


def errors(result: ReviewResult) -> list[tuple[str, str, object]]:
    """(fingerprint, file, finding) of every error-level finding: what an override can cover
    (the fingerprint names the change itself, so a different change at the element is not covered)."""
    return [(covered_by_override(f, file), file.path, f)
            for file in result.files for f in file.findings if f.severity is Severity.ERROR]


def in_scope(scope: tuple[str, ...], path: str, finding) -> bool:
    return not scope or finding.rule in scope or path in scope


def verdict(result: ReviewResult, overrides: list[Record], *, conclusion: Conclusion,
            lapsed: Sequence[tuple[Record, str]] = ()) -> tuple[Conclusion, str, str]:
    """(conclusion, title, summary) once the active overrides are taken into account; `lapsed`
    are (record, why) of overrides whose author may no longer override: shown, never counted."""
    breaking = errors(result)
    if not (overrides or lapsed) or not breaking:
        return result.conclusion, result.title, result.summary
    covered = {fp for record in overrides for fp in record.fingerprints}
    done = [item for item in breaking if item[0] in covered]
    missing = [item for item in breaking if item[0] not in covered]
    counted = overrides or [record for record, _why in lapsed]
    users = ", ".join(dict.fromkeys(f"@{r.user}" for r in counted))  # a plain-text title
    title = (TITLE if overrides else LAPSED_TITLE).format(users=users)
    lines = [SECTION] + [_row(r) for r in overrides] + [_row(r) for r, _why in lapsed] + [""]
    lines += [LAPSED.format(user=text(r.user), why=why) for r, why in lapsed]
    if done:
        lines.append(COVERED.format(count=len(done), items=_items(done)))
    if missing:
        lines.append(NOT_COVERED.format(count=len(missing), items=_items(missing)))
        conclusion, title = Conclusion.FAILURE, TITLE_PARTIAL.format(title=title, count=len(missing))
    # The audit trail comes first; the findings follow, cut to GitHub's limit if they must be.
    return conclusion, title, fit(lines + ["", *result.summary.split("\n")])


def _row(record: Record) -> str:
    covers = ", ".join(code(s) for s in record.scope) or EVERYTHING
    if record.head:
        covers += ON_HEAD.format(sha=code(record.head[:7]))
    return (f"| @{text(record.user)} | {text(record.at)} | {cell(text(record.reason))} | {cell(covers)} | "
            f"[comment]({record.comment}) |")


def _items(items) -> str:
    return ", ".join(f"{code(f.rule)} {code(f.path) or '(file)'} in {code(path)}" for _fp, path, f in items)
