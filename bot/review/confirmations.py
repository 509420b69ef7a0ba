"""The gate on a migration's end, for files with `consumers:`: removing a deprecated element (or
the old half of a double-write) or making an optional one required is judged by who confirmed,
in the migration's tracking issue, that they have moved.

Pure: the reviewed files, the config, the tracking issues and their confirmations in; the files
out, with one SCHEMA_CONSUMERS_MIGRATION finding per migration ended, and each migration in flight
annotated with who confirmed. Before the window has passed, an unconfirmed consumer makes it an
error whatever the window's own severity; after it, a warning; once every consumer confirmed, a
note, and the window's own finding on that element is at most a warning. A tracking issue speaks
only for the run of the migration it was opened in: undone (un-deprecated, removed) and started
again, the migration is a new one its consumers have not confirmed.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Mapping, Protocol, Sequence

from rules import Finding, Severity, Side

from bot.config.bot_rules import CONSUMERS_MIGRATION, DEPRECATION_WINDOW
from bot.config.config import Config
from bot.lifecycle.migrations import Kind, Migration
from bot.lifecycle.promotion import promoted
from bot.lifecycle.since import aware, parse_time
from bot.render.model import FileReview

ENDS = {Kind.DEPRECATED: "removed while deprecated", Kind.DOUBLE_WRITE: "removed (the old half of a double-write)",
        Kind.PROMOTION: "made required while pending promotion"}
EARLY = ('"{element}" is {what} before its window has passed ({due}); consumers who have not '
         "confirmed they moved: {waiting}.{confirmed} {where}")
LATE = ('"{element}" is {what}; its window passed on {due}, but consumers have not confirmed '
        "they moved: {waiting}.{confirmed} {where}")
ALL = '"{element}" is {what}; every consumer confirmed they moved: {confirmed}. {where}'
CONFIRMED = " Confirmed: {confirmed}."
NO_DATE = "no date could be established"
TRACKED = "Tracking issue: #{number}."
UNTRACKED = ("No tracking issue records this migration (it began before the App tracked it), so "
             "nobody could confirm; a maintainer can accept the change with `/schema-override`.")
EARLIER = ("Tracking issue #{number} was opened for an earlier run of this migration (undone since and "
           "started again, or begun before the history read), so its confirmations do not count; a "
           "maintainer can accept the change with `/schema-override`.")

Key = tuple[str, str]


class Tracked(Protocol):
    """A migration's tracking issue (bot/overrides/confirmations.py; review never imports overrides)."""

    number: int
    url: str
    since: str
    started: str
    open: bool


def gate(files: Sequence[FileReview], config: Config, tracked: Mapping[Key, Tracked],
         confirmations: Mapping[Key, Mapping[str, str]], *, today: date) -> list[FileReview]:
    out = []
    for file in files:
        owners = owners_of(config, file)
        if not owners:
            out.append(file)
            continue
        findings = list(file.findings)
        for migration in file.ended:
            key = (migration.file, migration.element)
            findings = _judged(findings, migration, owners, tracked.get(key), confirmations.get(key, {}),
                               file=file, today=today)
        charted = tuple(_annotated(m, owners, _of_this_run(tracked.get((file.path, m.element)), m),
                                   confirmations.get((file.path, m.element), {})) for m in file.migrations)
        out.append(replace(file, findings=tuple(sorted(findings, key=lambda f: f.sort_key)), migrations=charted))
    return out


def owners_of(config: Config, file: FileReview) -> tuple[str, ...]:
    readers = [c for path in dict.fromkeys(p for p in (file.base_path, file.path) if p)
               for c in config.consumers_of(path)]
    return tuple(dict.fromkeys(owner for c in readers for owner in c.owners))


def split(owners: Sequence[str], confirmed: Mapping[str, str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(confirmed, waiting) among the listed owners: a confirmation for an owner no longer listed
    counts for nothing, and a newly listed owner has not confirmed."""
    return (tuple(o for o in owners if o in confirmed), tuple(o for o in owners if o not in confirmed))


def of_this_run(tracking: Tracked, migration: Migration) -> bool:
    """Whether the tracking issue was opened during the migration's present run, which began at
    `migration.started` (its first version on the base branch): an issue opened before it is
    about an earlier run (the element un-deprecated or removed since, and deprecated again), whose
    consumers may have gone back to the old shape. A run the history read does not reach the start
    of (bounded) may have begun before the issue: the issue counts then only while open, as the App
    closes it on a merge that undoes the migration. Issues recorded before `started` existed give
    only the day of their merge, compared by day (their migrations in flight keep their
    confirmations; the App closes them on a merge that undoes them)."""
    opened = parse_time(tracking.started or tracking.since)
    if migration.started is None or opened is None:
        return False  # either start unknown: nothing shows the issue is about this run
    if tracking.started:
        during = aware(opened) >= migration.started
    else:
        during = opened.date() >= migration.started.date()
    return during or (migration.bounded and tracking.open)


def _of_this_run(tracking: Tracked | None, migration: Migration) -> Tracked | None:
    return tracking if tracking is not None and of_this_run(tracking, migration) else None


def _judged(findings: list[Finding], migration: Migration, owners: Sequence[str], tracking: Tracked | None,
            confirmed_by: Mapping[str, str], *, file: FileReview, today: date) -> list[Finding]:
    if tracking is not None and not of_this_run(tracking, migration):
        where, confirmed_by = EARLIER.format(number=tracking.number), {}
    else:
        where = TRACKED.format(number=tracking.number) if tracking else UNTRACKED
    done, waiting = split(owners, confirmed_by)
    shown_done = ", ".join(f"{o} (by @{confirmed_by[o]})" for o in done)
    due = migration.due.isoformat() if migration.due else NO_DATE
    values = dict(element=migration.element, what=ENDS[migration.kind], due=due, where=where,
                  waiting=", ".join(waiting), confirmed=CONFIRMED.format(confirmed=shown_done) if done else "")
    if not waiting:
        severity, message = Severity.INFO, ALL.format(**{**values, "confirmed": shown_done})
        findings = [_eased(f, migration, file) for f in findings]
    elif migration.due is None or today < migration.due:
        severity, message = Severity.ERROR, EARLY.format(**values)
    else:
        severity, message = Severity.WARNING, LATE.format(**values)
    line = next((f.line for f in findings if _about(f, migration, file)), 1)
    return [*findings, Finding(rule=CONSUMERS_MIGRATION, severity=severity, line=line, path=migration.element,
                               message=message.strip(), side=Side.OLD, file=migration.file, breaks=frozenset())]


def _about(finding: Finding, migration: Migration, file: FileReview) -> bool:
    """The window's own finding on the element: the deprecation window's, or the promotion's."""
    if finding.rule == DEPRECATION_WINDOW:
        return migration.element == finding.path or migration.element.endswith("." + finding.path)
    return file.format is not None and promoted(finding, fmt=file.format) == migration.element


def _eased(finding: Finding, migration: Migration, file: FileReview) -> Finding:
    if finding.severity is Severity.ERROR and _about(finding, migration, file):
        return replace(finding, severity=Severity.WARNING)
    return finding


def _annotated(migration: Migration, owners: Sequence[str], tracking: Tracked | None,
               confirmed_by: Mapping[str, str]) -> Migration:
    if tracking is None:
        return migration
    done, waiting = split(owners, confirmed_by)
    return replace(migration, issue=tracking.url, confirmed=done, waiting=waiting)
