"""Tracking issues and consumers' confirmations, as sealed records (bot/overrides/records.py).

A tracking issue's body ends with a record naming its migration, sealed for the repository (an
issue's number is not known before it is opened); each `/schema-migrated` the App accepted is a
record in the App's own reply, sealed for that issue, so a confirmation cannot be moved to
another migration. Only the App's own issues and replies are read; anything else counts for nothing.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Iterable

from bot.overrides.records import scope_of, seal, unseal

TRACKING_KIND = "migration"
CONFIRMED, WITHDRAWN = "migrated", "migrated-revoke"


def tracking_scope(repository: str) -> str:
    """What a tracking issue's record is bound to: the repository's migrations."""
    return f"{repository.lower()}#migrations"


@dataclass(frozen=True)
class Tracked:
    """The migration a tracking issue is about, as the App recorded it when it opened the issue."""

    file: str
    element: str
    kind: str  # bot.lifecycle.migrations.Kind's value
    pull: int  # the pull request whose merge started it
    since: str = ""  # ISO dates of the window, as the calendar had them at the merge
    due: str = ""
    replacement: str = ""  # the new half of a double-write
    # When the merge that started it landed (GitHub's `merged_at`): which run of the migration the
    # issue is about, should the element be un-deprecated (or removed) and deprecated again.
    started: str = ""
    number: int = 0  # the issue's number (not sealed: known once the issue exists)
    url: str = ""
    open: bool = True

    @property
    def key(self) -> tuple[str, str]:
        return self.file, self.element

    def marker(self, *, key: bytes, repository: str) -> str:
        data = {"kind": TRACKING_KIND, "migration": self.kind, "file": self.file, "element": self.element,
                "pull": self.pull, "since": self.since, "due": self.due, "replacement": self.replacement,
                "started": self.started}
        return seal(data, key=key, scope=tracking_scope(repository))


def tracked_in(issues: Iterable, *, key: bytes, repository: str, login: str) -> dict[tuple[str, str], Tracked]:
    """(file, element) -> its tracking issue, from the App's own issues (newest first: the newest
    wins should two ever exist)."""
    out: dict[tuple[str, str], Tracked] = {}
    for issue in issues:
        found = tracking_of(issue, key=key, repository=repository, login=login)
        if found is not None:
            out.setdefault(found.key, found)
    return out


def tracking_of(issue, *, key: bytes, repository: str, login: str) -> Tracked | None:
    if issue is None or issue.author != login or issue.author_type != "Bot":
        return None
    data = unseal(issue.body, key=key, scope=tracking_scope(repository))
    if not data or data.get("kind") != TRACKING_KIND:
        return None
    try:
        return Tracked(str(data["file"]), str(data["element"]), str(data["migration"]), int(data["pull"]),
                       since=str(data.get("since") or ""), due=str(data.get("due") or ""),
                       replacement=str(data.get("replacement") or ""), started=str(data.get("started") or ""),
                       number=issue.number, url=issue.url, open=issue.state == "open")
    except (KeyError, TypeError, ValueError):
        return None


@dataclass(frozen=True)
class Confirmation:
    """One accepted `/schema-migrated` (or its revoke), as the App wrote it into its reply."""

    kind: str  # CONFIRMED or WITHDRAWN
    user: str
    owners: tuple[str, ...]  # the listed owners the user answers for (`@user`, `@org/team`)
    at: str
    comment: str

    def marker(self, *, key: bytes, repository: str, number: int) -> str:
        return seal(asdict(self), key=key, scope=scope_of(repository, number))


def confirmed(bodies: Iterable[str | None], *, key: bytes, repository: str, number: int) -> dict[str, str]:
    """Owner -> the user whose confirmation stands for it, replaying the App's replies in order:
    a revoke withdraws everything its author had confirmed."""
    out: dict[str, str] = {}
    for body in bodies:
        data = unseal(body, key=key, scope=scope_of(repository, number))
        if not data or data.get("kind") not in (CONFIRMED, WITHDRAWN):
            continue
        user = str(data.get("user", ""))
        if data["kind"] == WITHDRAWN:
            out = {owner: who for owner, who in out.items() if who.lower() != user.lower()}
        else:
            out.update({str(owner): user for owner in data.get("owners") or ()})
    return out
