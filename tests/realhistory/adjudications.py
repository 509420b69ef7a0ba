"""Who is right, and why, for each kind of disagreement seen on real histories.

A disagreement is classified by what each side reported (our error rules, the peer's rule ids);
the first entry whose test matches gives the verdict. An unmatched disagreement is reported as
"not adjudicated", so a new kind cannot hide in the totals.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

OURS, PEER, BOTH = "ours", "peer", "both defensible"


@dataclass(frozen=True)
class Adjudication:
    key: str
    right: str  # OURS, PEER or BOTH
    our_bug: bool  # a defect of ours to fix (a minimal pair in the report)
    why: str
    test: Callable[[dict], bool]

    def to_json(self) -> dict:
        return {"key": self.key, "right": self.right, "our_bug": self.our_bug, "why": self.why}


def _ours(row: dict) -> set[str]:
    return set(row["ours"]["rules"])


def _peer(row: dict) -> set[str]:
    return set((row["peer"] or {}).get("rules") or ())


ADJUDICATIONS: list[Adjudication] = []

UNADJUDICATED = Adjudication("unadjudicated", "?", False, "not adjudicated yet", lambda row: True)


def adjudicate(row: dict) -> dict:
    for each in ADJUDICATIONS:
        if each.test(row):
            return each.to_json()
    return UNADJUDICATED.to_json()
