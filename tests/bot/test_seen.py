"""Which head a comment's author saw, from the push log: before, same second, after, unknown."""
from datetime import datetime, timezone

import pytest

from bot.overrides.seen import seen_at

A, B, C, D = "a" * 40, "b" * 40, "c" * 40, "d" * 40
WRITTEN = datetime(2026, 12, 2, 12, 0, 30, tzinfo=timezone.utc)


def at(second: int) -> str:
    return f"2026-12-02T12:00:{second:02d}Z"


@pytest.mark.parametrize("pushes, current, heads, moved", [
    ([], C, (C,), False),  # nothing logged: no push since the App started watching
    ([(at(10), A)], A, (A,), False),
    ([(at(10), A), (at(40), B)], B, (A,), True),  # pushed after the comment: not seen
    ([(at(10), A), (at(20), B), (at(40), C)], C, (B,), True),
    ([(at(10), A)], B, (A,), True),  # a push the App has not heard of yet
    ([(at(10), A), (at(30), B)], B, (A, B), True),  # same second: either may have been on screen
    ([(at(30), A)], A, (A,), False),  # opened and commented within one second
    ([(at(40), A)], A, (), True),  # only pushes after the comment: unknown, never guessed
    ([(at(10), A), (at(20), B), (at(25), A), (at(45), B)], B, (A,), True),  # back and forth
    ([(at(10), B), (at(10), A)], A, (A,), False),  # equal times: the later arrival is newer
    ([("garbage", A), (at(5), D)], D, (D,), False),
])
def test_seen_at(pushes, current, heads, moved):
    seen = seen_at(pushes, written=WRITTEN, current=current)
    assert seen.heads == heads and seen.moved is moved and seen.known is bool(heads)
