"""Since when an element has been in the state it is in now, read from a file's history."""
from __future__ import annotations

import enum
from datetime import datetime, timezone
from typing import Callable, Hashable, Sequence


class Clock(enum.StrEnum):
    """Whose clock dated a version, said next to every date a window or the calendar shows."""

    MERGED = "merged on GitHub"  # the App: when the pull request that brought it was merged
    COMMIT = "commit date"  # the CLI, or a commit pushed without a pull request: the author's choice


# (sha, ISO date, text[, clock]) of a file's versions on the base branch, newest first; a
# version without a clock (the CLI's `git log`) is dated by its commit.
History = Sequence["tuple[str, str, str | bytes] | tuple[str, str, str | bytes, Clock]"]


class States:
    """Which elements each version of a file holds in one state (deprecated, optional, ...).

    `read` maps a version's text to the keys in that state; each version is read once, however
    many keys are asked about.
    """

    def __init__(self, history: History, read: Callable[[str], frozenset[Hashable]]):
        self._history, self._read, self._seen = history, read, {}

    def since(self, key: Hashable) -> datetime | None:
        """The date of the oldest version of the newest unbroken run of versions that hold `key`.

        None when the newest version does not hold it, or there is no history: the date cannot
        be established. History cut short (a shallow clone, the depth looked at) makes the date
        later than the truth, never earlier: a window is never taken as passed when it has not.
        """
        start = self.start(key)
        return None if start is None else self.date(start)

    def dated_by(self, key: Hashable) -> Clock | None:
        """Whose clock gave `since(key)`; None when there is no such date."""
        start = self.start(key)
        return None if start is None else self.clock(start)

    def start(self, key: Hashable) -> int | None:
        """The index of the oldest version of the newest unbroken run that holds `key`, or None."""
        start = None
        for index in range(len(self._history)):
            if key not in self.holds(index):
                break
            start = index
        return start

    def bounded(self, key: Hashable) -> bool:
        """True when the run holding `key` reaches the oldest version read: older versions (cut
        off by the depth read or a shallow clone) may hold it too, so its date is only the
        latest it can be, never a guess in the author's favour."""
        start = self.start(key)
        return start is not None and start == len(self._history) - 1

    def date(self, index: int) -> datetime:
        return aware(datetime.fromisoformat(self._history[index][1]))

    def clock(self, index: int) -> Clock:
        version = self._history[index]
        return Clock(version[3]) if len(version) > 3 else Clock.COMMIT

    def __len__(self) -> int:
        return len(self._history)

    def holds(self, index: int) -> frozenset[Hashable]:
        """The keys version `index` (0: the newest) holds."""
        if index not in self._seen:
            self._seen[index] = self._read(_str(self._history[index][2]))
        return self._seen[index]


def parse_time(value: str) -> datetime | None:
    """An ISO time as GitHub writes it (`Z` for UTC); None when it is not one."""
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return None


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def stamped(day: str, clock: Clock) -> str:
    """A date as shown to people, with the clock it came from: "2026-10-01 (merged on GitHub)"."""
    return f"{day} ({clock})"


def days(number: int) -> str:
    return f"{number} day{'s' if number != 1 else ''}"


def _str(text: str | bytes) -> str:
    return text.decode("utf-8", "replace") if isinstance(text, bytes) else text
