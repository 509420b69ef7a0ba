"""Which head commit a pull request had when a comment was written, from the App's push log.

An override answers what its author saw. GitHub does not say which commit a reader had on the
screen, but it does time both sides: a comment's `created_at`, and every push, whose signed
`pull_request` delivery (opened, synchronize, ...) carries the new head and the pull request's
`updated_at`. The App logs those (head, time) pairs as the deliveries arrive, so the head when a
comment was written is the newest push logged before it. Commit dates are never used: the
author of a commit chooses them.

GitHub's times have one-second resolution: a push in the same second as the comment may have
come before or after it, so every head of that second counts as possibly seen, and an override
then covers only what all of them had in common (never more than the maintainer could have seen).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Sequence

from bot.lifecycle.since import parse_time


@dataclass(frozen=True)
class Seen:
    """The heads that may have been on screen when the comment was written."""

    heads: tuple[str, ...]  # empty: the log only has pushes after the comment (unknown head)
    current: str

    @property
    def known(self) -> bool:
        return bool(self.heads)

    @property
    def moved(self) -> bool:
        """True when the head is not (only) the one the comment's author could have seen."""
        return self.heads != (self.current,)


def seen_at(pushes: Sequence[tuple[str, ...]], *, written: datetime, current: str) -> Seen:
    """The head(s) when a comment written at `written` was written.

    `pushes` are (time, head sha[, pusher]) from signed deliveries, in arrival order. No log at all for
    this pull request (the App started watching after its last push) means no push happened
    since, so the current head is the one that was seen.
    """
    read = ((parse_time(entry[0]), entry[1]) for entry in pushes)
    timed = [(when, sha) for when, sha in read if when is not None]
    if not timed:
        return Seen((current,), current)
    before = [(when, sha) for when, sha in timed if when < written]
    same_second = [sha for when, sha in timed if when == written]
    heads = []
    if before:
        newest = max(when for when, _sha in before)
        heads.append([sha for when, sha in before if when == newest][-1])  # the later arrival wins
    heads += same_second
    return Seen(tuple(dict.fromkeys(heads)), current)


__all__ = ["Seen", "seen_at", "parse_time"]
