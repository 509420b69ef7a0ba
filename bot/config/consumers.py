"""`consumers:` in the config: who reads which schema files, to be asked when a change touches them.

Owners come only from the default branch's config (or the base it `_extends`), never from a
pull request, and only in GitHub's own spellings (`@user`, `@org/team`): they are the one
kind of mention the App writes, and they go to GitHub's review request API, not into markdown.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from bot.config import globs
from bot.config.configfile import Node

# A GitHub login (letters, digits, single inner hyphens, at most 39) and a team slug
# (letters, digits, `_` and `-`, as GitHub derives it from a team's name).
LOGIN = r"[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}"
TEAM_SLUG = r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}"
OWNER = re.compile(rf"@({LOGIN})(?:/({TEAM_SLUG}))?")
OWNER_PATTERN = f"^{OWNER.pattern}$"  # the config's JSON Schema spells it so
BAD_OWNER = "expected `@user` or `@org/team`"
NO_OWNER = "expected at least one owner"


@dataclass(frozen=True)
class Consumer:
    paths: tuple[str, ...]
    owners: tuple[str, ...]  # `@user` or `@org/team`, as written
    name: str = ""

    def reads(self, path: str) -> bool:
        return globs.matches(path, self.paths)


def split_owner(owner: str) -> tuple[str, str | None]:
    """(`user`, None) or (`org`, `team`) of a validated owner."""
    found = OWNER.fullmatch(owner)
    if found is None:
        raise ValueError(owner)
    return found.group(1), found.group(2)


def read(node: Node) -> tuple[Consumer, ...]:
    out = []
    for item in node.sequence():
        entry = item.mapping(allowed=("paths", "owners", "name"), required=("paths", "owners"))
        owners = entry["owners"].sequence()
        if not owners:
            raise entry["owners"].error(NO_OWNER)
        for owner in owners:
            # fullmatch on the raw value: a schema pattern's `$` would let a trailing newline by.
            if not isinstance(owner.value, str) or OWNER.fullmatch(owner.value) is None:
                raise owner.error(BAD_OWNER)
        name = entry["name"].string() if "name" in entry else ""
        out.append(Consumer(entry["paths"].globs(), tuple(dict.fromkeys(o.value for o in owners)), name))
    return tuple(out)


def consumers_of(consumers: tuple[Consumer, ...], path: str) -> tuple[Consumer, ...]:
    """Every entry whose paths match: a file can be read by several teams."""
    return tuple(c for c in consumers if c.reads(path))
