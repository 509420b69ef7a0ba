"""A type defined twice at the head: an added or changed file declaring a type name (an Avro
full name, nested ones included; a protobuf `package.Message`, enum or service; a JSON Schema
`$id`) that another schema file of the head declares too. Names only pair files
(bot/review/moves.py), so the second definition would be compared with nothing and pass
however it differs from the first: it is an error on the file that brings the name, naming
the other file. A name the file's own base already declared (a duplicate the pull request did
not make) is left alone; it is judged before pairing, so a removed file's type that two added
files define is defined twice, whichever of them the pairing compares.

The head's other files are the changed ones and those the gather stage read
(FileChange.head_neighbours); where it could not read them all, the file already fails closed
(`users_unchecked`, bot/review/review.py)."""
from __future__ import annotations

from typing import Callable, Iterable

from rules import Finding, Severity

from bot.config.config import SCHEMA_IDENTITY_DUPLICATED
from bot.review import moves

DUPLICATED = ('it defines {name}, which "{other}" defines too: a second definition of a type is '
              "compared with nothing, so it could differ from the first unseen; rename one of "
              "them, or define it in one file only")


def duplicated(changes: Iterable, classify: Callable) -> dict[str, tuple[Finding, ...]]:
    """Path of each changed file defining a type another head file defines -> its findings."""
    names: dict[tuple[str, str], frozenset[str]] = {}  # (path, text) -> names, parsed once

    def declared(fmt, path, text) -> frozenset[str]:
        if (path, text) not in names:
            names[(path, text)] = moves.identities(fmt, text)
        return names[(path, text)]

    changed = [(c, found.format) for c in changes
               if not c.context and c.head_text is not None and (found := classify(c.path))]
    out: dict[str, tuple[Finding, ...]] = {}
    for change, fmt in changed:
        arrived = declared(fmt, change.path, change.head_text) - moves.identities(fmt, change.base_text)
        if not arrived:
            continue
        others = {**change.head_neighbours, **{c.path: c.head_text for c, f in changed if f is fmt}}
        findings = []
        for name in sorted(arrived):
            other = next((p for p, t in sorted(others.items())
                          if p != change.path and name in declared(fmt, p, t)), None)
            if other is not None:
                findings.append(Finding(
                    rule=SCHEMA_IDENTITY_DUPLICATED, severity=Severity.ERROR, line=1, path=name,
                    message=DUPLICATED.format(name=name, other=other), file=change.path,
                    breaks=frozenset()))
        if findings:
            out[change.path] = tuple(findings)
    return out
