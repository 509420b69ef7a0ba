"""One line per change: a change seen from several checked files (a shared named type, an
imported message, a `$ref` target) is reported once, at its definition, naming its users."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from .model import Finding

ALSO_AT = " Also at {paths}."
USED_BY = " Used by {users}."
MORE = "{shown} and {count} more"
MAX_NAMED = 10  # places named per finding: a type thousands of files use stays one short line


def _place(finding: Finding) -> tuple:
    return (finding.rule, finding.file, finding.line, finding.side, finding.against)


def _said(finding: Finding) -> str:
    """The message with the element's path masked (`$.a/maxLength` is said as `"$.a"`)."""
    path = finding.path
    while path and path not in finding.message and "/" in path:
        path = path.rsplit("/", 1)[0]
    return finding.message.replace(path, "\0") if path else finding.message


def _leading(said: str) -> list[str]:
    """The message's leading sentences, longest first: "A. B." -> ["A. B.", "A."]."""
    parts = said.split(". ")
    return [". ".join(parts[:n]) + ("." if n < len(parts) else "") for n in range(len(parts), 0, -1)]


def once(seen: Iterable[tuple[str, Finding]]) -> list[Finding]:
    """(file checked, finding) pairs -> each change once, sorted. What the check of the file it
    is in found wins (its path is from that file's root, and only it can carry a fix), at the
    worst severity any check gave it; the other places it was reached from are named on it:
    other paths of that file ("Also at"), then the other files that use it ("Used by").

    One change: rule, file, line, side and older version agree, and the messages differ only in
    the element's path (each user names it from its own root: `$.zip` in address.schema.json
    is `Order.shipTo.zip` seen from order.schema.json) or in whole sentences one adds after the
    other's (the App's note on the file's own history). Looked up by key, never pairwise: a
    file of thousands of findings on one line costs no more than thousands on as many lines."""
    whole: dict[tuple, list] = {}  # (place, message said) -> its group
    leading: dict[tuple, list] = {}  # (place, a leading part of a message said) -> a group
    groups: list[list[tuple[str, Finding]]] = []
    for checked, finding in seen:
        place, said = _place(finding), _said(finding)
        sentences = _leading(said)
        group = leading.get((place, said)) or next(
            (whole[(place, part)] for part in sentences if (place, part) in whole), None)
        if group is None:
            groups.append(group := [])
            whole[(place, said)] = group
            for part in sentences:
                leading.setdefault((place, part), group)
        group.append((checked, finding))
    out = []
    for group in groups:
        own = [finding for checked, finding in group if checked == finding.file]
        # The shortest path is the easiest place to find: the others are named after it.
        kept = min(own, key=lambda finding: len(finding.path)) if own else group[0][1]
        also = dict.fromkeys(finding.path for checked, finding in group
                             if checked == finding.file and finding.path != kept.path)
        users = dict.fromkeys(checked if finding.path == kept.path else f"{checked} ({finding.path})"
                              for checked, finding in group if checked != finding.file)
        worst = min((finding.severity for _, finding in group), key=lambda s: s.rank)
        message = (kept.message + (ALSO_AT.format(paths=_listed(also)) if also else "")
                   + (USED_BY.format(users=_listed(users)) if users else ""))
        if worst is kept.severity and message == kept.message:
            out.append(kept)  # reached once, as almost every finding is: nothing to rewrite
        else:
            out.append(dataclasses.replace(kept, severity=worst, message=message))
    return sorted(out, key=lambda f: f.sort_key)


def _listed(names) -> str:
    names = list(names)
    shown = ", ".join(names[:MAX_NAMED])
    return shown if len(names) <= MAX_NAMED else MORE.format(shown=shown, count=len(names) - MAX_NAMED)
