"""The migration calendar: the migrations in flight, as a Markdown table and as plain words."""
from __future__ import annotations

from typing import Sequence

from bot.lifecycle.migrations import Kind, Migration
from bot.lifecycle.since import stamped
from bot.render.escape import cell, code, text as prose

HEADING = "### Migrations in flight"
LEAD = ("In the files this pull request touches; dates from the base branch's history: when "
        "GitHub merged the pull request that brought each version, else the commit's own date.")
HEADER = "| File | Element | Migration | Since | From |\n|---|---|---|---|---|"
MAX_ROWS = 15
MORE = "…and {count} more: `schema-review lifecycle` lists them all."
THIS_CHANGE = "this change"
UNKNOWN = "unknown (no history)"
OR_EARLIER = "{since} or earlier"  # the history read ends there
WHAT = {Kind.DEPRECATED: "deprecated", Kind.DOUBLE_WRITE: "double-write, replaced by {replacement}",
        Kind.PROMOTION: "optional, pending promotion to required"}
# Added when the App knows a migration's tracking issue (files with `consumers:`).
CONSUMERS_HEADER = " Consumers |"
CONFIRMED = "confirmed: {owners}"
WAITING = "waiting for: {owners}"
ISSUE = "[tracking issue]({url})"
DUE = {Kind.DEPRECATED: "removable from {due}", Kind.DOUBLE_WRITE: "old one removable from {due}",
       Kind.PROMOTION: "promotable from {due}"}


def words(migration: Migration, *, quote=lambda name: f'"{name}"') -> tuple[str, str, str]:
    """(what, since, from) in words; `quote` shows the replacement's name."""
    what = WHAT[migration.kind].format(replacement=quote(migration.replacement or ""))
    if migration.new:
        since = THIS_CHANGE
    else:
        since = migration.since.isoformat() if migration.since else UNKNOWN
        since = OR_EARLIER.format(since=since) if migration.bounded else since
        since = stamped(since, migration.clock) if migration.clock else since
    due = DUE[migration.kind].format(due=migration.due.isoformat()) if migration.due else ""
    return what, since, due


def table(migrations: Sequence[Migration]) -> list[str]:
    """Markdown blocks for the end of the check run's summary; none when nothing is in flight."""
    if not migrations:
        return []
    rows = []
    tracked = any(m.issue for m in migrations[:MAX_ROWS])
    for migration in migrations[:MAX_ROWS]:
        what, since, due = words(migration, quote=code)
        # `what` holds the replacement already as a code span; the rest is prose.
        shown = what if migration.kind is Kind.DOUBLE_WRITE else prose(what)
        extra = f" {cell(consumers(migration))} |" if tracked else ""
        rows.append(f"| {cell(code(migration.file))} | {cell(code(migration.element))} "
                    f"| {cell(shown)} | {cell(prose(since))} | {cell(prose(due))} |{extra}")
    more = len(migrations) - MAX_ROWS
    header = HEADER.replace("|\n", "|" + CONSUMERS_HEADER + "\n", 1) + "---|" if tracked else HEADER
    return ["", HEADING, "", LEAD, "", header, *rows, *([""] + [MORE.format(count=more)] if more > 0 else [])]


def consumers(migration: Migration) -> str:
    """Who confirmed and who has not, with the tracking issue's link (a GitHub URL); owners as
    code, so the table mentions nobody."""
    if not migration.issue:
        return ""
    parts = [CONFIRMED.format(owners=", ".join(map(code, migration.confirmed)))] if migration.confirmed else []
    parts += [WAITING.format(owners=", ".join(map(code, migration.waiting)))] if migration.waiting else []
    return "; ".join(parts + [ISSUE.format(url=migration.issue)])
