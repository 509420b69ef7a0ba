"""Parse a pull request comment into a slash command, or say what is wrong with its syntax."""
from __future__ import annotations

import enum
import re
import unicodedata
from dataclasses import dataclass

from bot.render.escape import code

OVERRIDE, REVIEW = "/schema-override", "/schema-review"
RULE_ID = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
SYNTAX = (
    "`/schema-override <reason>` overrides every breaking change of the head commit; "
    "`/schema-override <RULE_ID or file path> ... -- <reason>` overrides only those; "
    "`/schema-override revoke` withdraws the overrides; `/schema-review recheck` runs the review "
    "again; `/schema-review help` lists the commands.")
UNKNOWN = "{word} is not a schema-review command."
NO_REASON = ("An override needs a reason of at least {minimum} characters, not counting spaces and "
             "invisible ones, so the audit trail says why.")
# Letters that render as nothing (Hangul fillers, the blank braille pattern): like zero-width
# and other format characters, they would pad a reason the audit trail shows as empty.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
NO_SCOPE = "Name at least one rule ID or file path before `--`."


class Kind(enum.StrEnum):
    OVERRIDE = "override"
    REVOKE = "revoke"
    RECHECK = "recheck"
    HELP = "help"
    INVALID = "invalid"


@dataclass(frozen=True)
class Command:
    kind: Kind
    reason: str = ""
    scope: tuple[str, ...] = ()  # rule IDs and file paths; empty: every error-level finding
    problem: str = ""  # for INVALID: what to tell the commenter

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(item for item in self.scope if RULE_ID.match(item))

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(item for item in self.scope if not RULE_ID.match(item))


def parse(body: str, *, min_reason_length: int = 10) -> Command | None:
    """The command a comment starts with; None when it is not a /schema- command at all."""
    text = (body or "").strip()
    if not text.startswith("/schema-"):
        return None
    first_line = text.splitlines()[0]
    word, _, rest = first_line.partition(" ")
    # The reason may continue on later lines; only the command word must be on the first.
    rest = (rest + "\n" + "\n".join(text.splitlines()[1:])).strip()
    if word == OVERRIDE:
        return _override(rest, min_reason_length)
    if word == REVIEW and rest.lower() in ("recheck", "help"):
        return Command(Kind(rest.lower()))
    return Command(Kind.INVALID, problem=UNKNOWN.format(word=code(first_line[:60])) + " " + SYNTAX)


def _override(rest: str, minimum: int) -> Command:
    if rest.lower() == "revoke":
        return Command(Kind.REVOKE)
    scope: tuple[str, ...] = ()
    reason = rest
    if rest.startswith("--") or " -- " in f" {rest} ":
        head, _, reason = f" {rest} ".partition(" -- ")
        scope = tuple(head.split())
        if not scope:
            return Command(Kind.INVALID, problem=NO_SCOPE + " " + SYNTAX)
    reason = reason.strip()
    if _visible_length(reason) < minimum:
        return Command(Kind.INVALID, problem=NO_REASON.format(minimum=minimum) + " " + SYNTAX)
    return Command(Kind.OVERRIDE, reason=reason, scope=scope)


def _visible_length(reason: str) -> int:
    """Characters a reader of the reason sees: no whitespace, control, format (zero-width, bidi),
    private-use or unassigned character, no combining mark (it adds to another character)."""
    return sum(1 for char in reason if not char.isspace() and char not in BLANK_LETTERS
               and unicodedata.category(char)[0] not in "CMZ")
