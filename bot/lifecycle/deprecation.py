"""Whether a deleted field had been deprecated for long enough, from the file's history."""
from __future__ import annotations

from datetime import datetime, timedelta

from rules import Finding, Format, Severity, Side

from bot.config.config import DEPRECATION_WINDOW
from bot.lifecycle.elements import elements
from bot.lifecycle.since import History, States, aware, days as _days, stamped

TOO_SOON = ('"{path}" was deleted {when}; the deprecation window is {window} days, so it may '
            "be deleted from {until}.")
DELETED = '"{path}" was deleted while deprecated'
SAME_DAY = "on the day it was marked deprecated, {since}"
DAYS_AFTER = "{days} after it was marked deprecated on {since}"


def check(base: str, head: str, *, fmt: Format, file: str, history: History,
          window_days: int, now: datetime, severity: Severity) -> list[Finding]:
    """One finding per deprecated element deleted less than `window_days` after it was marked.

    `history` is the file's versions on the base branch, newest first (normally starting with
    the base itself): the marker landed in the oldest version of the newest unbroken run of
    versions that carry it. Deleting a field never deprecated is the rule engine's business.
    """
    if window_days <= 0 or not history:
        return []
    deleted = deleted_deprecated(base, head, fmt=fmt)
    wanted = frozenset(identity for identity, _path, _line in deleted)
    out, marked = [], States(history, lambda text: deprecated_identities(text, fmt=fmt) & wanted)
    for identity, path, line in deleted:
        since = marked.since(identity)
        if since is None or aware(now) >= since + timedelta(days=window_days):
            continue
        days = (aware(now) - since).days
        until = since + timedelta(days=window_days)
        day = stamped(since.date().isoformat(), marked.dated_by(identity))
        when = SAME_DAY.format(since=day) if days < 1 else DAYS_AFTER.format(days=_days(days),
                                                                            since=day)
        message = TOO_SOON.format(path=path, when=when, window=window_days,
                                  until=until.date().isoformat())
        out.append(Finding(rule=DEPRECATION_WINDOW, severity=severity, line=line, path=path,
                           message=message, side=Side.OLD, file=file, breaks=frozenset(),
                           reported=DELETED.format(path=path)))  # the dates change daily
    return out


def deleted_deprecated(base: str, head: str, *, fmt: Format) -> list[tuple[str, str, int]]:
    """(identity, element path, base line) of each element deprecated in base and gone in head.

    Elements are matched by where they are declared (record, message or object, and name), read
    from the parsed schema: a namesake elsewhere, or a name left in a comment, keeps nothing.
    """
    kept = {element.identity for element in elements(head, fmt=fmt, limit=None).values()}
    return [(element.identity, element.path, element.line or 1)
            for element in elements(base, fmt=fmt, limit=None, lines=True).values()
            if element.deprecated and element.identity not in kept]


def deprecated_identities(text: str, *, fmt: Format) -> frozenset[str]:
    """The identities of the elements the schema text marks as deprecated, all of them: an
    element past a cap would look never deprecated, and its deletion would go unchecked."""
    return frozenset(element.identity for element in elements(text, fmt=fmt, limit=None).values()
                     if element.deprecated)
