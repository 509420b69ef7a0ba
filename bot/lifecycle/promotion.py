"""Staged promotion to required: an element optional for long enough may become required."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Sequence

from rules import Finding, Format, Severity

from bot.lifecycle.elements import optional_paths
from bot.lifecycle.since import Clock, History, States, aware, days, stamped

# The engine's findings that say "an optional element became required", by format.
PROMOTION_RULES = {
    Format.AVRO: "AVRO_NULLABLE_MADE_NON_NULLABLE",  # the null branch (and its default) removed
    Format.JSONSCHEMA: "JSONSCHEMA_PROPERTY_MADE_REQUIRED",
    Format.PROTOBUF: "PROTO_REQUIRED_FIELD_CHANGED",  # `required` / LEGACY_REQUIRED
}
AVRO_NULL_BRANCH = "<null>"  # the engine's path of a union's null branch: `User.email<null>`
TOO_SOON = (" It has been optional since {since}, {days}; the promotion window is {window} days, "
            "so it may become required from {until}.")
PASSED = " Optional since {since}, {days}; producers that still omit it will now fail."
# When the run reaches the oldest version read, the true start may be earlier still.
AT_LEAST = "at least "
UNKNOWN = (" Since when it has been optional cannot be established from the base branch's "
           "history (none could be read, or it was rewritten and no longer leads to the base), "
           "so the {window}-day promotion window is not taken as passed.")


def stage(findings: Sequence[Finding], *, base: str, fmt: Format, history: History,
          window_days: int, now: datetime) -> list[Finding]:
    """The findings, with each promotion to required dated against the promotion window.

    Before the window has passed (or when the date is unknown) the finding keeps its severity
    and says why; after it, an error becomes a warning: the team decides knowingly.
    """
    if window_days <= 0:
        return list(findings)
    in_base = optional_paths(base, fmt=fmt)
    optional = States(history, lambda text: optional_paths(text, fmt=fmt))
    out = []
    for finding in findings:
        element = promoted(finding, fmt=fmt)
        if element is None or element not in in_base:
            out.append(finding)
            continue
        out.append(_dated(finding, optional.since(element), window_days, aware(now),
                          bounded=optional.bounded(element), clock=optional.dated_by(element)))
    return out


def promoted(finding: Finding, *, fmt: Format) -> str | None:
    """The element a promotion-to-required finding is about, else None."""
    if finding.rule != PROMOTION_RULES.get(fmt) or finding.against is not None:
        return None  # a finding against an older version (transitive) is about that version
    if fmt is Format.AVRO:
        return finding.path.removesuffix(AVRO_NULL_BRANCH) if finding.path.endswith(AVRO_NULL_BRANCH) else None
    return finding.path


def promotable_from(since: datetime, window_days: int) -> datetime:
    return since + timedelta(days=window_days)


def _dated(finding: Finding, since: datetime | None, window_days: int, now: datetime, *,
           bounded: bool, clock: Clock | None) -> Finding:
    if since is None:
        return _noted(finding, UNKNOWN.format(window=window_days))
    until, age = promotable_from(since, window_days), days((now - since).days)
    day = (AT_LEAST if bounded else "") + stamped(since.date().isoformat(), clock)
    if now < until:
        return _noted(finding, TOO_SOON.format(since=day, days=age, window=window_days,
                                               until=until.date().isoformat()))
    severity = Severity.WARNING if finding.severity is Severity.ERROR else finding.severity
    return replace(_noted(finding, PASSED.format(since=day, days=age)), severity=severity)


def _noted(finding: Finding, note: str) -> Finding:
    """The finding with a dated note: the change it reports stays the rule's (an override covers
    that, and the note's day count grows every day)."""
    return replace(finding, message=finding.message + note, reported=finding.change)
