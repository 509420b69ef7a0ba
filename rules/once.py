"""One line per change: a change seen from several checked files (a shared named type, an
imported message, a `$ref` target) is reported once, at its definition, naming its users."""
from __future__ import annotations

import dataclasses
from typing import Iterable

from .model import Finding

USED_BY = " Used by {users}."


def same_change(finding: Finding) -> tuple:
    """Two findings are one change when rule, file, line, side and older version agree and
    their messages differ only in the element's path (each user names it from its own root:
    `$.zip` in address.schema.json is `Order.shipTo.zip` seen from order.schema.json)."""
    message = finding.message.replace(finding.path, "\0") if finding.path else finding.message
    return (finding.rule, finding.file, finding.line, finding.side, finding.against, message)


def once(seen: Iterable[tuple[str, Finding]]) -> list[Finding]:
    """(file checked, finding) pairs -> each change once, sorted. The finding from checking the
    file it is in wins (its path is from that file's root, and only it can carry a fix), at the
    worst severity any check gave it; the other files that saw it are named as its users."""
    groups: dict[tuple, list[tuple[str, Finding]]] = {}
    for checked, finding in seen:
        groups.setdefault(same_change(finding), []).append((checked, finding))
    out = []
    for group in groups.values():
        group.sort(key=lambda pair: pair[0] != pair[1].file)  # stable: its own file's first
        kept = group[0][1]
        users = dict.fromkeys(checked if finding.path == kept.path else f"{checked} ({finding.path})"
                              for checked, finding in group[1:]
                              if (checked, finding.path) != (kept.file, kept.path))
        worst = min((finding.severity for _, finding in group), key=lambda s: s.rank)
        message = kept.message + (USED_BY.format(users=", ".join(users)) if users else "")
        out.append(dataclasses.replace(kept, severity=worst, message=message))
    return sorted(out, key=lambda f: f.sort_key)
