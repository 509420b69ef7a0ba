"""Who put each head of a pull request up for review, from the App's log of signed deliveries.

GitHub names a pusher only in a `synchronize` delivery (its `sender`, with the `before` head it
replaced). A push made while the pull request was closed, or before it was opened, surfaces only
as the head of the next `reopened` or `opened` delivery: its sender chose to put that head up for
review and answers for it (GitHub tells no more). A `reopened` showing a head another delivery
already explained changed nothing, so closing and reopening to re-run checks involves no one.
A base change (`edited`) changes which commits are reviewed: its sender answers for them too.

A head is explained when the log chains it back to an opening: `opened`, `reopened` or `edited`
show it, or a `synchronize` replaced an explained head with it. Deliveries may arrive in any
order (redeliveries come late), so the chain is closed over the whole log, not walked in time
order. A lost delivery, a log older than the entries kept, or a pull request opened before the
App was installed leaves a head unexplained: it was pushed by someone unknown, and nobody can be
cleared of it (bot/overrides/permissions.py `uninvolved`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

OPENINGS = ("opened", "reopened", "edited")  # deliveries that show a head without a `before`
# How each delivery is named in a refusal: "you {did} `abc1234` in this pull request".
DID = {"opened": "opened this pull request at", "reopened": "reopened this pull request at",
       "edited": "changed the base at", "synchronize": "pushed"}


@dataclass(frozen=True)
class Push:
    head: str
    sender: str
    action: str
    before: str = ""


@dataclass(frozen=True)
class PushLog:
    responsible: tuple[tuple[str, str, str], ...]  # (what they did, head sha, login)
    explained: frozenset[str]  # heads the log chains back to an opening


def logged(entries: Sequence[tuple[str, ...]]) -> list[Push]:
    """The entries that name a sender; older (time, head[, pusher]) entries say too little."""
    return [Push(*entry[1:5]) for entry in entries
            if len(entry) >= 5 and all(isinstance(item, str) for item in entry[1:5])
            and entry[2] and entry[3] in DID]


def _chain(pushes: Sequence[Push]) -> set[str]:
    """Heads reachable from an opening through `synchronize` (before → head) links."""
    explained = {push.head for push in pushes if push.action in OPENINGS}
    grew = True
    while grew:
        grew = False
        for push in pushes:
            if push.action == "synchronize" and push.before in explained and push.head not in explained:
                explained.add(push.head)
                grew = True
    return explained


def explain(entries: Sequence[tuple[str, ...]]) -> PushLog:
    pushes = logged(entries)
    without_reopens = _chain([push for push in pushes if push.action != "reopened"])
    responsible = tuple((DID[push.action], push.head, push.sender) for push in pushes
                        if push.action != "reopened" or push.head not in without_reopens)
    return PushLog(responsible, frozenset(_chain(pushes)))
