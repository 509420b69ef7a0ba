"""The migrations in flight in a schema file: deprecations, double-writes, pending promotions."""
from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from rules import Format

from bot.config.config import Config
from bot.lifecycle.elements import Element, elements
from bot.lifecycle.promotion import promotable_from
from bot.lifecycle.since import Clock, History, States, aware


class Kind(enum.StrEnum):
    DEPRECATED = "deprecated"  # removable once the deprecation window has passed
    DOUBLE_WRITE = "double-write"  # a deprecated element and the one that replaces it, both kept
    PROMOTION = "pending promotion"  # optional, may become required once the promotion window has passed


@dataclass(frozen=True)
class Migration:
    """One element's migration. `since` None: not established (no history), or `new` in this change."""

    file: str
    kind: Kind
    element: str
    since: date | None
    due: date | None  # removable (deprecations) or promotable (promotions) from
    replacement: str | None = None
    new: bool = False
    bounded: bool = False  # the history read ends inside the run: `since` may be earlier still
    clock: Clock | None = None  # whose clock dated `since`; None when it is not from history
    # When this run of the migration began (`since` is its day): an element un-deprecated, or
    # removed, and deprecated again starts a new run, which an earlier run's tracking issue does
    # not speak for. None when not from history.
    started: datetime | None = None
    # The App's tracking issue of the migration, and which consumers confirmed they have moved
    # (bot/review/confirmations.py): known only to the App, never to the CLI.
    issue: str = ""  # the issue's URL; empty when the migration has none
    confirmed: tuple[str, ...] = ()  # owners (`@user`, `@org/team`) who confirmed
    waiting: tuple[str, ...] = ()  # owners who have not

    def to_json(self) -> dict:
        return {"file": self.file, "kind": self.kind.value, "element": self.element,
                "since": self.since and self.since.isoformat(), "due": self.due and self.due.isoformat(),
                "replacement": self.replacement, "new": self.new, "since_or_earlier": self.bounded,
                "clock": self.clock and self.clock.value}


def in_flight(text: str, *, file: str, fmt: Format, history: History, config: Config,
              now: datetime, added: bool = False, settled: bool = False) -> list[Migration]:
    """What `text` has in flight, dated by `history` (the file on the base branch, newest first).

    An element deprecated or made optional by `text` itself is `new`, dated today. A field
    optional since the oldest version looked at is part of the design, not a migration; one
    whose promotion window has passed is settled (making it required is only a warning), and
    left out unless `settled`.
    """
    deprecation_days, promotion_days = config.deprecation_window_days, config.promotion_window_days
    current = elements(text, fmt=fmt)
    today = aware(now).date()
    versions = _Versions(history, fmt)
    out = []
    for path, element in current.items():
        if element.deprecated:
            out.append(_deprecation(path, current, versions, file=file, today=today,
                                    window=deprecation_days, added=added))
        elif element.optional and promotion_days > 0 and not added and len(versions.present):
            found = _promotion(path, versions, file=file, now=aware(now), window=promotion_days,
                               settled=settled)
            out += [found] if found else []
    return sorted(out, key=lambda m: (m.file, m.element))


class _Versions:
    """The file's versions read for each state the calendar asks about, each version once."""

    def __init__(self, history: History, fmt: Format):
        read = functools.lru_cache(maxsize=None)(lambda text: elements(text, fmt=fmt))
        self.deprecated = States(history, lambda text: _having(read(text), "deprecated"))
        self.optional = States(history, lambda text: _having(read(text), "optional"))
        self.present = States(history, lambda text: frozenset(read(text)))


def _having(found: dict[str, Element], flag: str) -> frozenset[str]:
    return frozenset(path for path, element in found.items() if getattr(element, flag))


def _deprecation(path: str, current: dict[str, Element], versions: _Versions, *, file: str,
                 today: date, window: int, added: bool) -> Migration:
    history = versions.present
    start = versions.deprecated.start(path)
    if start is None and not len(history) and not added:
        return Migration(file, Kind.DEPRECATED, path, None, None)  # no history: cannot tell
    bounded, clock, started = False, None, None
    if start is None:  # deprecated by this change
        since, new = today, True
        introduced = set(current) - history.holds(0) if len(history) else set()
    else:
        started, new = versions.deprecated.date(start), False
        since = started.date()
        bounded, clock = versions.deprecated.bounded(path), versions.deprecated.clock(start)
        older = start + 1 < len(history)
        introduced = history.holds(start) - history.holds(start + 1) if older else set()
    # The replacement arrived with the deprecation, beside it, and is kept: a double-write.
    beside = [p for p in introduced if p != path and p in current
              and current[p].parent == current[path].parent and not current[p].deprecated]
    due = since + timedelta(days=window)
    if len(beside) == 1:
        return Migration(file, Kind.DOUBLE_WRITE, path, since, due, replacement=beside[0], new=new,
                         bounded=bounded, clock=clock, started=started)
    return Migration(file, Kind.DEPRECATED, path, since, due, new=new, bounded=bounded, clock=clock,
                     started=started)


def _promotion(path: str, versions: _Versions, *, file: str, now: datetime,
               window: int, settled: bool = False) -> Migration | None:
    """Dated as the review stages the promotion (bot/lifecycle/promotion.py), so the two never disagree."""
    start = versions.optional.start(path)
    before = 0 if start is None else start + 1  # the version before it became optional
    if before >= len(versions.present) or path in versions.present.holds(before):
        return None  # optional since the oldest version looked at, or relaxed from required
    if start is None:  # added as optional by this change
        return Migration(file, Kind.PROMOTION, path, now.date(),
                         promotable_from(now, window).date(), new=True)
    since = versions.optional.date(start)
    due = promotable_from(since, window)
    if now >= due and not settled:
        return None
    return Migration(file, Kind.PROMOTION, path, since.date(), due.date(),
                     clock=versions.optional.clock(start), started=since)


def ended(base: str, head: str | None, *, file: str, fmt: Format, history: History, config: Config,
          now: datetime) -> list[Migration]:
    """The base's migrations that `head` completes: a deprecated element (or the old half of a
    double-write) gone, an optional one pending promotion made required; dated as in the base.
    `history` is the base branch's, starting with the base itself."""
    found = in_flight(base, file=file, fmt=fmt, history=history, config=config, now=now, settled=True)
    after = elements(head, fmt=fmt) if head is not None else {}
    out = []
    for migration in found:
        kept = after.get(migration.element)
        if kept is None or (migration.kind is Kind.PROMOTION and not kept.optional):
            out.append(migration)
    return out


def withdrawn(base: str, head: str | None, *, fmt: Format) -> list[str]:
    """The elements `base` deprecates that `head` keeps without deprecating: the deprecation is
    undone, and with it the migration (deprecating the element again starts a new one)."""
    after = elements(head, fmt=fmt) if head is not None else {}
    return sorted(path for path, element in elements(base, fmt=fmt).items()
                  if element.deprecated and path in after and not after[path].deprecated)
