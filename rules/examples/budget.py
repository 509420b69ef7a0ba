"""The shared pieces of every format's search: the time and size budget, and error text."""
from __future__ import annotations

import time

from .. import limits


class Budget:
    """A deadline and a candidate count for one finding, inside the comparison's own deadline."""

    def __init__(self, overall: float, *, clock=time.thread_time):
        self._clock = clock
        self._end = min(overall, clock() + limits.EXAMPLE_SECONDS_PER_FINDING)
        self._left = limits.EXAMPLE_CANDIDATES

        self.exhausted = False
        self.oversized = False  # some candidate was refused for its size: the note says so

    def spend(self) -> bool:
        """Whether one more candidate may be tried (and count it)."""
        if self._left <= 0 or self._clock() >= self._end:
            self.exhausted = True
            return False
        self._left -= 1
        return True


class Tried:
    """Candidates already tried in this comparison, by writer side and overrides, with their
    result: findings near each other try the same records, the plain one first of all."""

    def __init__(self):
        self._results: dict = {}

    def get(self, writer, overrides: dict, budget: Budget, attempt):
        """The candidate's Example, or False when it shows nothing (or the budget is spent)."""
        key = (writer, tuple(sorted(overrides.items(), key=repr)))
        if key not in self._results:
            if not budget.spend():
                return False
            try:
                example = attempt()
            except TooBig:
                example = OVERSIZED
            if example is not None and example is not OVERSIZED and too_big(example):
                example = OVERSIZED
            self._results[key] = False if example is None else example
        if self._results[key] is OVERSIZED:  # for every finding that tries it, not the first only
            budget.oversized = True
            return False
        return self._results[key]


OVERSIZED = object()  # a candidate refused for its size, remembered as such


class TooBig(Exception):
    """A record being built would pass EXAMPLE_PAYLOAD_CHARS: the build stops before it does."""


class Allowance:
    """What one record may cost while it is built, in characters of its JSON form (at least one
    a value). A schema declares sizes (a 800 MB Avro fixed in 140 bytes) and reuses named types
    (a handful of records nesting into billions of values): the cost is checked before the
    memory is taken, so a record is refused, never allocated."""

    def __init__(self):
        self.left = limits.EXAMPLE_PAYLOAD_CHARS

    def spend(self, chars: int) -> None:
        self.left -= chars
        if self.left < 0:
            raise TooBig


def too_big(example) -> bool:
    """A payload over EXAMPLE_PAYLOAD_CHARS proves nothing a reviewer can read: not kept."""
    import json
    return len(json.dumps(example.payload, default=str)) > limits.EXAMPLE_PAYLOAD_CHARS


def short(error: BaseException | str) -> str:
    """A runtime's message, on one line and within EXAMPLE_ERROR_CHARS."""
    text = " ".join(str(error).split()) or type(error).__name__
    limit = limits.EXAMPLE_ERROR_CHARS
    return text if len(text) <= limit else text[:limit - 3] + "..."


def instance_path(steps) -> str:
    """`$`, `$.amount`, `$.lines[0].price`: where in the record a value sits."""
    out = "$"
    for step in steps:
        out += f"[{step}]" if isinstance(step, int) else f".{step}"
    return out


def quoted_names(message: str) -> tuple[str, ...]:
    """The last segment of each name a finding's message quotes (`"UserEvent.userName"`):
    a rename's message gives the element's other name."""
    import re
    return tuple(re.split(r"[./]", quoted)[-1] for quoted in re.findall(r'"([^"]+)"', message))
