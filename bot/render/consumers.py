"""The App's review that tells a pull request's author which consumers it asked to review, and why.

Every string from a schema (element names, file paths) and from the config (labels, owners) goes
through bot/render/escape.py; owners are shown as code, so the table itself mentions nobody:
the review request is the one notification.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from bot.render.escape import cell, code, text as prose
from bot.render.model import Change, Notice

HEADING = "### Consumers asked to review"
LEAD = ("This pull request changes elements of files that others read (`consumers:` in the default "
        "branch's `.github/schema-review.yml`); the App asks them to review it before it merges.")
HEADER = "| Element | File | Change | Consumers |\n|---|---|---|---|"
MAX_ROWS = 50
MORE = "…and {count} more changes for the same consumers."
REPLACED_BY = "{change}, replaced by {replacement}"
ASKED = "**Asked to review:** {owners}."
ASKED_BEFORE = "**Asked on an earlier push:** {owners}."
NOT_ASKED = "**Could not be asked** (named here instead):"


def body(found: Sequence[Notice], *, asked: Sequence[str], before: Sequence[str],
         refused: Mapping[str, str], record: str) -> str:
    """The review's body, ending with `record` (the App's sealed marker: clip() keeps it)."""
    rows = [_row(notice) for notice in found[:MAX_ROWS]]
    more = len(found) - MAX_ROWS
    lines = [HEADING, "", LEAD, "", HEADER, *rows]
    if more > 0:
        lines += ["", MORE.format(count=more)]
    lines.append("")
    if asked:
        lines.append(ASKED.format(owners=_owners(asked)))
    if before:
        lines.append(ASKED_BEFORE.format(owners=_owners(before)))
    if refused:
        lines += [NOT_ASKED, *(f"- {code(owner)}: {prose(why)}" for owner, why in refused.items())]
    return "\n".join(lines) + "\n\n" + record


def _row(notice: Notice) -> str:
    change = prose(notice.change.value)
    if notice.change is Change.DOUBLE_WRITE and notice.replacement:
        change = REPLACED_BY.format(change=change, replacement=code(notice.replacement))
    consumers = _owners(notice.owners)
    if notice.names:
        consumers += " (" + ", ".join(prose(name) for name in notice.names) + ")"
    return f"| {cell(code(notice.element))} | {cell(code(notice.file))} | {cell(change)} | {cell(consumers)} |"


def _owners(owners: Sequence[str]) -> str:
    return ", ".join(code(owner) for owner in owners)
