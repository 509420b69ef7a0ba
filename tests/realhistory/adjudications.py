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


def _format(row: dict, fmt: str) -> bool:
    return row["format"] == fmt


ADJUDICATIONS: list[Adjudication] = [
    Adjudication(
        "protobuf: a deleted message is an error under buf's wire categories", PEER, True,
        "Deleting a message type changes no encoded byte: every field that used it was changed "
        "or deleted too, and those changes are judged on their own. What breaks is generated "
        "code and `Any` type URLs, which buf checks in its FILE and PACKAGE categories "
        "(MESSAGE_NO_DELETE, PACKAGE_MESSAGE_NO_DELETE), not in WIRE or WIRE_JSON. Under "
        "WIRE/WIRE_JSON PROTO_MESSAGE_DELETED should be silent (or a warning); under FILE or "
        "PACKAGE an error. Minimal pair: old `message A {} message B {}`, new `message A {}`: "
        "expected compatible under WIRE and WIRE_JSON, breaking under FILE/PACKAGE. "
        "For the rules/protobuf categories work (issue 9 (b)).",
        lambda row: _format(row, "protobuf") and row["ours"]["compatible"] is False
        and row["peer"]["compatible"] is True and _ours(row) == {"PROTO_MESSAGE_DELETED"}),
]

UNADJUDICATED = Adjudication("unadjudicated", "?", False, "not adjudicated yet", lambda row: True)


def adjudicate(row: dict) -> dict:
    for each in ADJUDICATIONS:
        if each.test(row):
            return each.to_json()
    return UNADJUDICATED.to_json()
