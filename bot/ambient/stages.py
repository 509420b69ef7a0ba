"""Where a review's time goes (listing, read, fetch, rules, render, publish), for its log line.

A context variable, so the stages of concurrent reviews on other threads never mix.
"""
from __future__ import annotations

import contextlib
import contextvars
import time
from typing import Iterator

_current: contextvars.ContextVar[dict | None] = contextvars.ContextVar("review_stages", default=None)


@contextlib.contextmanager
def recording() -> Iterator[dict[str, int]]:
    """Collect the stages timed inside, in milliseconds by name."""
    token = _current.set({})
    try:
        yield _current.get()
    finally:
        _current.reset(token)


@contextlib.contextmanager
def stage(name: str) -> Iterator[None]:
    started = time.monotonic()
    try:
        yield
    finally:
        found = _current.get()
        if found is not None:
            found[name] = found.get(name, 0) + round((time.monotonic() - started) * 1000)
