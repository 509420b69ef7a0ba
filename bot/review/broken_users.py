"""A user of a changed file that the change leaves unresolvable says which change did it.

An unchanged file reviewed as a user (FileChange.context) whose head no longer resolves (an
Avro named type renamed or removed, a `$ref`'s `$id` or pointer gone, an import removed) is
an error on that file; its message names the changed files it uses, since the user itself
shows no edit that would explain it.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from rules import Finding

BROKEN_BY = "{message} (after this change to {changed}, which this file uses)"


def blamed(findings: Iterable[Finding], rule: str, changed: tuple[str, ...]) -> tuple[Finding, ...]:
    """`findings` with those of `rule` naming the changed files `changed` (quoted: paths are
    repository text, escaped where rendered)."""
    if not changed:
        return tuple(findings)
    named = ", ".join(f'"{path}"' for path in changed)
    # The rule's own words stay the change reported (the files named may differ on a later push).
    return tuple(replace(f, message=BROKEN_BY.format(message=f.message, changed=named), reported=f.change)
                 if f.rule == rule else f for f in findings)
