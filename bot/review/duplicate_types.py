"""A type defined twice at the head: an added or changed file declaring a type name (an Avro
full name, nested ones included; a protobuf `package.Message`, enum or service; a JSON Schema
`$id`) that another schema file of the head declares too. Names only pair files
(bot/review/moves.py), so the second definition would be compared with nothing and pass
however it differs from the first: it is an error on the file that brings the name, naming
the other file. Left alone: a name the file's own base already declared (a duplicate the pull
request did not make), and an Avro or JSON Schema definition equal to the other one (a type
inlined in each file that uses it: nothing to compare). Protobuf definitions are not compared:
protoc refuses a name defined twice. Judged before pairing, so a removed file's type that two
added files define is defined twice, whichever of them the pairing compares.

The head's other files are the changed ones and those the gather stage read
(FileChange.head_neighbours); where it could not read them all, the file already fails closed
(`users_unchecked`, bot/review/review.py)."""
from __future__ import annotations

import json
from typing import Callable, Iterable

from rules import Finding, Format, Severity

from bot.config.config import SCHEMA_IDENTITY_DUPLICATED
from rules import likeness, type_names

DUPLICATED = ('it defines {name}, which "{other}" defines too: a second definition of a type is '
              "compared with nothing, so it could differ from the first unseen; rename one of "
              "them, or define it in one file only")


def duplicated(changes: Iterable, classify: Callable) -> dict[str, tuple[Finding, ...]]:
    """Path of each changed file defining a type another head file defines -> its findings."""
    changed = [(c, found.format) for c in changes
               if not c.context and c.head_text is not None and (found := classify(c.path))]
    # Per format: every head file's definitions (the neighbour mappings are shared: read once).
    heads: dict[Format, dict[str, type_names.Defined]] = {}
    read: set[tuple[Format, int]] = set()
    for change, fmt in changed:
        files = heads.setdefault(fmt, {})
        if (fmt, id(change.head_neighbours)) not in read:
            read.add((fmt, id(change.head_neighbours)))
            files.update((p, type_names.defined(fmt, t)) for p, t in change.head_neighbours.items())
        files[change.path] = type_names.defined(fmt, change.head_text)
    index: dict[tuple[Format, str], list[str]] = {}  # a name -> the head files defining it
    for fmt, files in heads.items():
        for path in sorted(files):
            for name in files[path].names:
                index.setdefault((fmt, name), []).append(path)
    out: dict[str, tuple[Finding, ...]] = {}
    for change, fmt in changed:
        mine = heads[fmt][change.path].names
        findings = []
        for name in sorted(mine.keys() - likeness.identities(fmt, change.base_text)):
            other = next((p for p in index[(fmt, name)] if p != change.path
                          and not _same(mine[name], heads[fmt][p].names[name])), None)
            if other is not None:
                findings.append(Finding(
                    rule=SCHEMA_IDENTITY_DUPLICATED, severity=Severity.ERROR, line=1, path=name,
                    message=DUPLICATED.format(name=name, other=other), file=change.path,
                    breaks=frozenset()))
        if findings:
            out[change.path] = tuple(findings)
    return out


def _same(mine, other) -> bool:
    """Whether two definitions of a name are equal JSON (protobuf's, None, never are)."""
    if mine is None or other is None:
        return False
    try:
        return json.dumps(mine, sort_keys=True) == json.dumps(other, sort_keys=True)
    except (RecursionError, ValueError, TypeError):
        return False
