"""The shared pieces of every format's search: the time and size budget, and error text."""
from __future__ import annotations

import time

from .. import limits


class Budget:
    """A deadline and a candidate count for one finding, inside the comparison's own deadline."""

    def __init__(self, overall: float, *, clock=time.monotonic):
        self._clock = clock
        self._end = min(overall, clock() + limits.EXAMPLE_SECONDS_PER_FINDING)
        self._left = limits.EXAMPLE_CANDIDATES

        self.exhausted = False

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
            example = attempt()
            self._results[key] = False if example is None or too_big(example) else example
        return self._results[key]


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
