"""Which push of a pull request is the newest: by `updated_at` second, then by the push chain.

`updated_at` has one-second resolution, and deliveries arrive in any order: pushes in the same
second cannot be told apart by the clock. But a `synchronize` names the head it replaced
(`before` → head): a head some push of that second replaced is not the newest, whenever its
delivery arrives. Only the pushes the chain cannot order stay tied (force pushes onto an unrelated
commit, a predecessor whose delivery never came, a head pushed back again: a → b → a).

The record holds, for the newest second only: the heads shown (`afters`), the heads replaced
(`named`) and what remains (`heads`). A newer second starts it afresh, so it never outgrows one
second's pushes, and those are capped at CHAIN_KEPT each.
"""
from __future__ import annotations

# One second's pushes to one pull request kept in the record. Beyond it the first-arrived drop
# off: a replaced head first (it only matters for a cycle), then the others.
CHAIN_KEPT = 100


def heads(known: dict | None) -> list[str]:
    """The newest push's head(s); entries written before ties were kept hold one `sha`."""
    if not known:
        return []
    return list(known.get("heads") or [known["sha"]])


def advance(known: dict | None, *, version: str, head: str, before: str, at: float) -> dict | None:
    """The record after a push of `head` (replacing `before`, "" if unknown) at `version`;
    None when it changes nothing (an older second, or a push already recorded)."""
    if known is not None and version < known["version"]:
        return None  # an older push delivered late
    fresh = known is None or version > known["version"]
    afters = [] if fresh else list(known.get("afters") or heads(known))
    named = [] if fresh else list(known.get("named") or [])
    replaced = before if before and before != head else ""
    if head in afters and (not replaced or replaced in named):
        return None
    afters = _capped(([a for a in afters if a != head] + [head]), named + [replaced])
    named = _capped(named + [replaced], []) if replaced and replaced not in named else named
    # A cycle (a → b → a) replaces every head shown: it orders nothing, so all stay tied.
    remaining = [a for a in afters if a not in named] or afters
    # `pushed`: when a head last became newest, `prior`: when the one before it did (a burst of
    # pushes, bot/queue/ledger.py). A delivery of a head already newest (a base edited, the pull
    # request reopened), or of one already replaced (delivered late), is no push: it keeps both.
    if head in remaining and head not in heads(known):
        pushed, prior = at, known.get("pushed") if known else None
    else:
        pushed, prior = known.get("pushed"), known.get("prior")
    return {"version": version, "heads": remaining, "afters": afters, "named": named, "at": at,
            "pushed": pushed, "prior": prior}


def _capped(items: list[str], replaced: list[str]) -> list[str]:
    """The last CHAIN_KEPT items, dropping replaced ones (oldest first) before the others."""
    items = [item for item in items if item]
    while len(items) > CHAIN_KEPT:
        gone = next((item for item in items if item in replaced), items[0])
        items.remove(gone)
    return items
