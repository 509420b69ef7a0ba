"""`schema-review lifecycle`: every migration in flight in a local repository, from its history."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import rules
from rules import SchemaError
from rules.visible import line_start, visible

from bot.local.git import BAD_REF, LocalError, git, history
from bot.config.config import Config
from bot.local.git_review import load_config
from bot.lifecycle.migrations import Migration, in_flight
from bot.render.calendar import words

NOTHING = "No migrations in flight."
ROW = "  {element}: {what}, since {since}{due}"
CONSUMERS = "  read by: {owners}"
# The App keeps who was asked (in its reviews) and who confirmed (in each migration's tracking
# issue) on GitHub; a local run sees only the config.
THE_APPS = ("Consumers are asked to review, and confirm each migration with `/schema-migrated` in its "
            "tracking issue, through the schema-review App on GitHub; confirmations are the App's, "
            "and a local run cannot see them.")


@dataclass(frozen=True)
class Chart:
    migrations: list[Migration]
    # Schema file -> who reads it (`consumers:` owners, with labels), for the files that have any.
    consumers: dict[str, tuple[str, ...]] = field(default_factory=dict)


def readers_of(config: Config, paths) -> dict[str, tuple[str, ...]]:
    """Each path's consumers as `@owner (label)`, for the paths any consumer reads."""
    out = {}
    for path in paths:
        found = config.consumers_of(path)
        if found:
            out[path] = tuple(dict.fromkeys(
                owner + (f" ({c.name})" if c.name else "") for c in found for owner in c.owners))
    return out


def lifecycle_repo(repo: Path, *, ref: str = "HEAD", config_file: Path | None = None,
                   now: datetime) -> Chart:
    """What each schema file at `ref` has in flight, dated by its history up to `ref`, and who reads it."""
    if not ref or ref.startswith("-"):
        raise LocalError(BAD_REF.format(ref=ref))  # git would read it as an option
    commit = git(repo, "rev-parse", "--verify", f"{ref}^{{commit}}").decode().strip()
    config = load_config(repo, commit, config_file=config_file)
    names = git(repo, "ls-tree", "-r", "-z", "--name-only", commit).decode("utf-8", "surrogateescape")
    out, schemas = [], []
    for path in filter(None, names.split("\0")):
        classified = config.classify(path)
        schemas += [path] if classified else []
        versions = history(repo, commit, path) if classified else []
        if not versions:
            continue
        try:
            text = rules.decode(path, versions[0][2])
        except SchemaError:
            continue  # too large, binary or not UTF-8: `review` reports it when it changes
        out += in_flight(text, file=path, fmt=classified.format, history=versions, config=config,
                         now=now)
    return Chart(out, readers_of(config, schemas))


def render_text(chart: Chart) -> str:
    """File by file, who reads it, then one line per migration; schema text is shown, never sent
    to the terminal."""
    by_file: dict[str, list[Migration]] = {}
    for migration in chart.migrations:
        by_file.setdefault(migration.file, []).append(migration)
    lines = [] if chart.migrations else [NOTHING]
    for path in sorted(set(by_file) | set(chart.consumers)):
        lines.append(line_start(path))
        if path in chart.consumers:
            lines.append(CONSUMERS.format(owners=visible(", ".join(chart.consumers[path]))))
        for migration in by_file.get(path, ()):
            what, since, due = words(migration)
            lines.append(ROW.format(element=visible(migration.element), what=visible(what),
                                    since=since, due=f"; {due}" if due else ""))
    if chart.consumers:
        lines.append(THE_APPS)
    return "\n".join(lines) + "\n"


def to_json(chart: Chart) -> dict:
    return {"migrations": [migration.to_json() for migration in chart.migrations],
            "consumers": [{"file": path, "owners": list(owners)} for path, owners in sorted(chart.consumers.items())]}
