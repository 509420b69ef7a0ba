"""Each revision's Avro and JSON Schema files as the local review reads them from git: the set
a version's named types and `$ref`s resolve in, what it leaves out and why."""
from __future__ import annotations

from pathlib import Path

from rules import Format

from bot.config.config import Config
from bot.gather.schemaset import LINK_LEFT_OUT, NOT_CLASSIFIED, SET_FULL, UNUSABLE
from bot.gather.users import TOO_MANY, UNREADABLE
from bot.local.git import SYMLINK_MODE, git, read_all
from bot.review.review import FileChange

MAX_IMPORTS = 500  # files in one version's imports or schema set
SET_FORMATS = (Format.AVRO, Format.JSONSCHEMA)  # formats whose files use other files' schemas


class SchemaSets:
    """Each revision's Avro and JSON Schema files (those the config classifies), read once per
    revision with one `git cat-file --batch`: the set a version's named types and `$ref`s
    resolve in, as the App fetches it (here every file of the format, which git reads cheaply)."""

    def __init__(self, repo: Path, config: Config):
        self._repo, self._config = repo, config
        self._texts: dict[tuple[str, Format], dict[str, str]] = {}
        self._withheld: dict[str, dict[str, str]] = {}  # ref -> JSON file left out -> why
        # (ref, format) -> all its files (read or not), and those left out as too large or binary
        self._unread: dict[tuple[str, Format], tuple[list[str], list[str]]] = {}

    def of(self, ref: str, path: str) -> dict[str, str]:
        classified = self._config.classify(path)
        if classified is None or classified.format not in SET_FORMATS:
            return {}
        return {other: text for other, text in self._all(ref, classified.format).items()
                if other != path}

    def withheld(self, ref: str, path: str) -> dict[str, str]:
        """A JSON Schema version's `.json` files the set leaves out, path -> why (Source.withheld):
        a `$ref` to one fails saying so, never passing for a reference outside the repository."""
        classified = self._config.classify(path)
        if classified is None or classified.format is not Format.JSONSCHEMA:
            return {}
        self._all(ref, Format.JSONSCHEMA)
        return self._withheld.get(ref, {})

    def of_format(self, ref: str, fmt: Format) -> dict[str, str]:
        """Every file at `ref` the config classifies as `fmt` (at most MAX_IMPORTS)."""
        return self._all(ref, fmt)

    def unread(self, ref: str, formats: tuple[Format, ...],
               changes: list[FileChange]) -> dict[Format, str]:
        """Format -> why some of its files at `ref` other than `changes`' were not read, so
        files using those changes may be missing (the bounds of bot/gather/users.py's search)."""
        in_pull = {c.path for c in changes} | {c.previous_path for c in changes if c.previous_path}
        out = {}
        for fmt in formats:
            self._all(ref, fmt)
            every, unreadable = self._unread[(ref, fmt)]
            others = [path for path in unreadable if path not in in_pull]
            if len(every) > MAX_IMPORTS:
                count = sum(path not in in_pull for path in every)
                out[fmt] = TOO_MANY.format(count=count, limit=MAX_IMPORTS)
            elif others:
                out[fmt] = UNREADABLE.format(path=others[0])
        return out

    def _all(self, ref: str, fmt: Format) -> dict[str, str]:
        if (ref, fmt) not in self._texts:
            entries = git(self._repo, "ls-tree", "-r", "-z", ref).decode(
                "utf-8", "surrogateescape").split("\0")
            listed = [(meta, name) for meta, _tab, name in (e.partition("\t") for e in entries) if name]
            # A link is no schema of the set: its blob is a path, and it is never followed.
            links = [name for meta, name in listed if meta.startswith(SYMLINK_MODE)]
            names = [name for meta, name in listed if not meta.startswith(SYMLINK_MODE)]
            wanted = [name for name in names if (found := self._config.classify(name))
                      and found.format is fmt]
            self._texts[(ref, fmt)], unreadable = read_all(self._repo, ref, wanted[:MAX_IMPORTS])
            self._unread[(ref, fmt)] = (wanted, unreadable)
            if fmt is Format.JSONSCHEMA:
                self._withheld[ref] = _left_out(names, links, wanted, self._texts[(ref, fmt)])
        return self._texts[(ref, fmt)]

    def everything(self, ref: str) -> dict[str, str]:
        """Every Avro and JSON Schema file at `ref` (the candidates for context_changes)."""
        out: dict[str, str] = {}
        for fmt in SET_FORMATS:
            out |= self._all(ref, fmt)
        return out


def _left_out(names: list[str], links: list[str], wanted: list[str],
              texts: dict[str, str]) -> dict[str, str]:
    """The `.json` files of a revision its JSON Schema set does not hold, path -> why."""
    kept = set(wanted)
    out = {name: NOT_CLASSIFIED for name in names if name.lower().endswith(".json") and name not in kept}
    out |= dict.fromkeys((name for name in links if name.lower().endswith(".json")), LINK_LEFT_OUT)
    out |= dict.fromkeys(wanted[MAX_IMPORTS:], SET_FULL.format(limit=MAX_IMPORTS))
    out |= dict.fromkeys((name for name in wanted[:MAX_IMPORTS] if name not in texts), UNUSABLE)
    return out
