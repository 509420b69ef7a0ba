"""The durable record of every accepted delivery: seen once, its job, its state, its PR's head."""
from __future__ import annotations

import enum
import time
from typing import Iterator

from bot.ambient.jobs import Job
from bot.queue import admission
from bot.queue.heads import advance, heads
from bot.queue.subject import Subject, subject_of

PREFIX = "delivery:"
# GitHub lets anyone redeliver a delivery for three days; its id is remembered that long.
REMEMBER_SECONDS = 3 * 24 * 3600
# Pushes logged per pull request (to tell which head a comment's author saw); older ones drop off.
PUSHES_KEPT = 100
# A push admitted within BURST_SECONDS of the one before it is part of a burst (a stack rebased,
# a bot): its review waits until the pull request has had no push for QUIET_SECONDS (the
# runtime's SCHEMA_REVIEW_BURST_QUIET), so that heads replaced a moment later cost no GitHub
# call (issue 24). A lone push starts at once.
BURST_SECONDS = 2.0
QUIET_SECONDS = 2.0
# How far two hosts' clocks may disagree (NTP keeps them within milliseconds): a review's start
# (the worker's clock) must be this much after a delivery's admission (the web host's) before
# the delivery counts as seen by it. Closer, it is reviewed again: a spare review, never a base
# edit lost because a worker's clock ran ahead.
CLOCK_SKEW_SECONDS = 1.0


class State(str, enum.Enum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"  # the payload is dropped; the entry stays to recognise redeliveries


class Ledger:
    """Entries live in the queue's own key-value store (SQLite table or Redis hash)."""

    def __init__(self, huey, *, clock=time.time, quiet: float = QUIET_SECONDS):
        self._huey, self._clock, self._quiet = huey, clock, quiet

    def admit(self, job: Job, *, task: bytes | None = None) -> bool:
        """Record a new delivery with its pull request's newest head and push log, and queue
        `task` (its serialized job) with it; False when this delivery id was already received
        (then nothing is written)."""
        now = self._clock()
        entry = {"job": job, "state": State.QUEUED.value, "owner": None, "at": now, "admitted": now, "attempts": 0}
        subject = subject_of(job)
        keys = _record_keys(subject)
        return admission.admit(self._huey, PREFIX + job.delivery_id, entry, reads=keys, task=task,
                               update=lambda values: _updates(subject, keys, values, now))

    def get(self, guid: str) -> dict | None:
        return self._huey.get(PREFIX + guid, peek=True)

    def update(self, guid: str, **changes) -> dict | None:
        entry = self.get(guid)
        if entry is None or entry["state"] == State.DONE.value:
            return None
        entry.update(changes, at=self._clock())
        self._huey.put(PREFIX + guid, entry)
        return entry

    def finish(self, guid: str, outcome: str) -> None:
        self._huey.put(PREFIX + guid, {"state": State.DONE.value, "outcome": outcome, "at": self._clock()})

    def forget(self, guid: str) -> None:
        self._huey.delete(PREFIX + guid)

    def entries(self, prefix: str = PREFIX) -> Iterator[tuple[str, dict]]:
        deserialize = self._huey.serializer.deserialize
        for key, raw in self._huey.all_results().items():
            if key.startswith(prefix):
                yield key[len(prefix):], deserialize(raw)

    def expire(self) -> int:
        """Drop finished entries, and newest-head records no push touched, older than GitHub's
        redelivery window: no delivery they could judge can arrive any more."""
        cutoff, dropped = self._clock() - REMEMBER_SECONDS, 0
        for guid, entry in list(self.entries()):
            if entry["state"] == State.DONE.value and entry["at"] < cutoff:
                self.forget(guid)
                dropped += 1
        for pull, known in list(self.entries(_head_key(""))):
            if known.get("at", cutoff) < cutoff:  # records written before they had a time stay
                self._huey.delete(_head_key(pull))
                dropped += 1
        return dropped

    # --- the newest push of each pull request -------------------------------------------------
    def pushes(self, pull: str) -> list[tuple[str, str]]:
        """The logged (time, head sha) pushes of a pull request ("owner/name#number"), followed,
        where the delivery named a sender (bot/github/pushers.py), by its login, action and `before`."""
        return list(self._huey.get(_log_key(pull), peek=True) or [])

    def reviewed(self, subject: Subject, *, started: float) -> None:
        """A review of this head started at `started` and finished."""
        if subject.pull and subject.head:
            self._huey.put(f"reviewed:{subject.pull}", {"sha": subject.head, "started": started})

    def covered(self, subject: Subject, *, admitted: float) -> bool:
        """A review of the same head that started after this delivery arrived already finished:
        it saw everything this delivery could show, so this job has nothing left to do."""
        if not subject.pull or not subject.head:
            return False
        known = self._huey.get(f"reviewed:{subject.pull}", peek=True)
        return known is not None and known["sha"] == subject.head \
            and known["started"] > admitted + CLOCK_SKEW_SECONDS

    def settling(self, subject: Subject) -> float:
        """Seconds before a push's review should start: > 0 while its pull request is in a burst
        of pushes (new heads) and the newest came less than the quiet time ago. Deliveries of
        a head already seen (a base edited, a reopen, a late one) never make a burst."""
        if not subject.pull or not subject.head:
            return 0.0
        known = self._huey.get(_head_key(subject.pull), peek=True) or {}
        pushed, prior = known.get("pushed"), known.get("prior")
        # Two web hosts' clocks may disagree: a push "before" the one before it is no burst.
        if not self._quiet or pushed is None or prior is None or not 0 <= pushed - prior < BURST_SECONDS:
            return 0.0
        # `pushed` is the web process's clock: capped, a worker whose clock is behind waits
        # at most the quiet time (and the runner lets a job wait once).
        return max(0.0, min(self._quiet, pushed + self._quiet - self._clock()))

    def superseded(self, subject: Subject) -> bool:
        if not subject.pull or not subject.head:
            return False
        known = self._huey.get(_head_key(subject.pull), peek=True)
        return known is not None and subject.head not in heads(known)


def _record_keys(subject: Subject) -> list[str]:
    """The records a push delivery updates: its pull request's newest head(s), and its push log."""
    return [_head_key(subject.pull), _log_key(subject.pull)] if subject.pull and subject.head else []


def _head_key(pull: str) -> str:
    return f"head:{pull}"


def _log_key(pull: str) -> str:
    return f"pushes:{pull}"


def _updates(subject: Subject, keys: list[str], values: list, now: float) -> dict:
    """The new values of those records, given their current ones (only those that change)."""
    if not keys:
        return {}
    (head_key, log_key), (known, log), changes = keys, values, {}
    # The newest head(s): by second, then by the push chain (bot/queue/heads.py).
    newest = advance(known, version=subject.version, head=subject.head, before=subject.before, at=now)
    if newest is not None:
        changes[head_key] = newest
    # (time, head) of every signed push delivery: which head a comment's author saw; and who
    # showed it, with how (bot/github/pushers.py), whom an override must not come from.
    entry = ((subject.version, subject.head, subject.pusher, subject.action, subject.before)
             if subject.pusher else (subject.version, subject.head))
    log = log or []
    if entry not in log:
        changes[log_key] = (log + [entry])[-PUSHES_KEPT:]
    return changes
