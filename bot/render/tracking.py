"""A migration's tracking issue (title and body) and the App's replies to `/schema-migrated`.

Element names and file paths come from schemas and go through bot/render/escape.py; owners come
from the default branch's config and are shown as code, so the issue mentions nobody. The one
mention the App writes is the commenter's login at the start of its reply, as for overrides.
"""
from __future__ import annotations

from typing import Mapping, Protocol, Sequence

from bot.render.escape import code, plain, text as prose


class Tracked(Protocol):
    """A tracking issue's migration (bot/overrides/confirmations.py: render never imports it)."""

    file: str
    element: str
    kind: str
    pull: int
    since: str
    due: str
    replacement: str

TITLE = "Schema migration: {element} in {file} ({kind})"
MAX_TITLE = 240
WHAT = {"deprecated": "deprecated {element}",
        "double-write": "deprecated {element}, replaced by {replacement} (a double-write)",
        "pending promotion": "added {element} as optional"}
NEXT = {"deprecated": "It may be removed once every consumer below has stopped reading it.",
        "double-write": "The old one may be removed once every consumer below reads the new one.",
        "pending promotion": "It may become required once every consumer below writes it."}
WINDOW = {"deprecated": "Deprecated since {since}; the window ends on {due}.",
          "double-write": "Double-written since {since}; the window ends on {due}.",
          "pending promotion": "Optional since {since}; the window ends on {due}."}
LEAD = "Pull request [#{pull}]({url}) {what} in {file}. {next}"
CONSUMERS = ("**Consumers** (`consumers:` in the default branch's `.github/schema-review.yml`): once you no "
             "longer depend on the old shape, comment `/schema-migrated` here (`/schema-migrated revoke` "
             "withdraws it). Only a listed user, or a member of a listed team, counts.")
CHECKED = "- [x] {owner} (confirmed by {user})"
UNCHECKED = "- [ ] {owner}"
GATE = ("Until every consumer has confirmed, a pull request that ends this migration before the window "
        "has passed fails the `schema-review` check (after it, a warning names who has not). This issue "
        "closes itself when the migration completes.")

ACCEPTED = "@{user} thank you: your confirmation counts for {owners}.{rest}"
STILL_WAITING = " Still waiting for: {owners}."
EVERYONE = " Every consumer has confirmed; open pull requests that end this migration are checked again."
REVOKED = "@{user} your confirmation ({owners}) is withdrawn; open pull requests that end this migration are checked again."
NOTHING_TO_REVOKE = "@{user} you have no confirmation on this migration to withdraw."
REFUSED = ("@{user} thank you, but only the consumers listed for {file} can confirm this migration "
           "({owners}): you are not one of the listed users, nor a member of a listed team.")
CLOSED = ("@{user} this tracking issue is closed: its migration is over (completed, or undone), so a "
          "confirmation here counts for nothing. A migration started again has its own tracking issue.")
SYNTAX = "@{user} `/schema-migrated` confirms you have moved; `/schema-migrated revoke` withdraws it."
COMPLETED = "The migration is complete: pull request #{pull} {how} {element}. Closing."
# A migration undone is over: its confirmations say nothing about a later one, as consumers may go
# back to the old shape meanwhile. A new deprecation gets a new issue, with an empty checklist.
WITHDRAWN_NOTE = ("Pull request #{pull} withdrew the deprecation of {element}: this migration is over, and "
                  "the confirmations here no longer count. Deprecating it again starts a new migration with "
                  "its own tracking issue, where consumers confirm again. Closing.")
RESTARTED = ("Pull request #{pull} started a migration of {element} again after this one had been undone: "
             "that is a new migration, with its own tracking issue, where consumers confirm again; the "
             "confirmations here no longer count. Closing.")
HOW = {"pending promotion": "made required"}


def title(tracking: Tracked) -> str:
    return plain(TITLE.format(element=tracking.element, file=tracking.file, kind=tracking.kind), limit=MAX_TITLE)


def body(tracking: Tracked, *, owners: Sequence[str], confirmed_by: Mapping[str, str], pull_url: str,
         record: str) -> str:
    """The issue's body, ending with `record` (the sealed marker naming the migration)."""
    what = WHAT.get(tracking.kind, WHAT["deprecated"]).format(
        element=code(tracking.element), replacement=code(tracking.replacement))
    lines = [LEAD.format(pull=tracking.pull, url=pull_url, what=what, file=code(tracking.file),
                         next=NEXT.get(tracking.kind, NEXT["deprecated"])), ""]
    if tracking.since and tracking.due:
        lines += [prose(WINDOW.get(tracking.kind, WINDOW["deprecated"]).format(since=tracking.since, due=tracking.due)), ""]
    lines += [CONSUMERS, ""]
    lines += [CHECKED.format(owner=code(o), user=prose("@" + confirmed_by[o])) if o in confirmed_by
              else UNCHECKED.format(owner=code(o)) for o in owners]
    return "\n".join([*lines, "", GATE, "", record])


def owners_list(owners: Sequence[str]) -> str:
    return ", ".join(map(code, owners))


def completed(tracking: Tracked, *, pull: int) -> str:
    return COMPLETED.format(pull=pull, how=HOW.get(tracking.kind, "removed"), element=code(tracking.element))


def withdrawn(tracking: Tracked, *, pull: int) -> str:
    return WITHDRAWN_NOTE.format(pull=pull, element=code(tracking.element))


def restarted(tracking: Tracked, *, pull: int) -> str:
    return RESTARTED.format(pull=pull, element=code(tracking.element))
