"""`schema-review lifecycle`: every migration in flight in a local repository, from its history."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

import rules
from rules import SchemaError
from rules.visible import line_start, visible

from bot.local.git import BAD_REF, LocalError, git, history
from bot.local.git_review import load_config
from bot.lifecycle.migrations import Migration, in_flight
from bot.render.calendar import words

NOTHING = "No migrations in flight."
ROW = "  {element}: {what}, since {since}{due}"


def lifecycle_repo(repo: Path, *, ref: str = "HEAD", config_file: Path | None = None,
                   now: datetime) -> list[Migration]:
    """What each schema file at `ref` has in flight, dated by its history up to `ref`."""
    if not ref or ref.startswith("-"):
        raise LocalError(BAD_REF.format(ref=ref))  # git would read it as an option
    commit = git(repo, "rev-parse", "--verify", f"{ref}^{{commit}}").decode().strip()
    config = load_config(repo, commit, config_file=config_file)
    names = git(repo, "ls-tree", "-r", "-z", "--name-only", commit).decode("utf-8", "surrogateescape")
    out = []
    for path in filter(None, names.split("\0")):
        classified = config.classify(path)
        versions = history(repo, commit, path) if classified else []
        if not versions:
            continue
        try:
            text = rules.decode(path, versions[0][2])
        except SchemaError:
            continue  # too large, binary or not UTF-8: `review` reports it when it changes
        out += in_flight(text, file=path, fmt=classified.format, history=versions, config=config,
                         now=now)
    return out


def render_text(migrations: list[Migration]) -> str:
    """File by file, one line per migration; schema text is shown, never sent to the terminal."""
    if not migrations:
        return NOTHING + "\n"
    lines, current = [], None
    for migration in migrations:
        if migration.file != current:
            current = migration.file
            lines.append(line_start(current))
        what, since, due = words(migration)
        lines.append(ROW.format(element=visible(migration.element), what=visible(what),
                                since=since, due=f"; {due}" if due else ""))
    return "\n".join(lines) + "\n"


def to_json(migrations: list[Migration]) -> dict:
    return {"migrations": [migration.to_json() for migration in migrations]}
