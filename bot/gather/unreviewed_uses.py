"""Reviewed schemas that use a file the pull request changes but the config does not review.

A `$ref` to a `.json` file outside `paths`, or an import of a file outside them (protoc imports
any file name: `import "types.inc";`), makes that file part of the schema: the rules never read it as one (a `$ref` to it is withheld, an
import is compiled but not compared), so a change to it would reach the contract unreviewed.
Each unchanged reviewed file using such a changed file, directly or through other files, is
returned as not reviewed (SCHEMA_NOT_REVIEWED), naming the file and how to bring it in: a file
not reviewed is never a pass. Shared by the App (bot/gather/changes.py) and the local review.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from rules import Format

from bot.gather import proto_users
from bot.gather.users import users_of
from bot.review.review import FileChange, FileStatus

# The formats whose files name other files by path, and the suffix such a file must have to be
# one the rules would read: a JSON Schema `$ref` target is JSON; protoc imports any file name,
# so every changed file no format reviews may be a protobuf import (its users are searched only
# where the head has reviewed .proto files).
SUFFIXES = {Format.JSONSCHEMA: ".json", Format.PROTOBUF: ""}
USES_UNREVIEWED = ('it uses "{used}", which this pull request changes and the config\'s `paths` '
                   "do not review as {format}: a change to what a schema uses changes the schema; "
                   "add that file to `paths`")
FORMAT_NAMES = {Format.JSONSCHEMA: "JSON Schema", Format.PROTOBUF: "Protobuf"}


def targets(changed: Iterable[tuple[str, str | None]],
            fmt_of: Callable[[str], Format | None]) -> dict[Format, set[str]]:
    """Format -> the changed paths (by either name: `(path, previous)` pairs) that no format
    classifies but that files of that format may use (by suffix)."""
    out: dict[Format, set[str]] = {}
    for path, previous in changed:
        for name in filter(None, (path, previous)):
            if fmt_of(name) is not None:
                continue
            for fmt, suffix in SUFFIXES.items():
                if name.lower().endswith(suffix):
                    out.setdefault(fmt, set()).add(name)
    return out


def failing(changes: list[FileChange], fmt: Format, used: set[str], files: Mapping[str, str],
            roots: Iterable[str]) -> list[FileChange]:
    """`changes` where each of `files` (the head's reviewed files of `fmt`, path -> text) using
    one of `used` is not reviewed: a changed one says so, an unchanged one joins as such."""
    if fmt is Format.PROTOBUF:
        users = proto_users.importers({path: path for path in used}, files, roots)
    else:
        # A target is named by its path or file name, as a withheld `$ref` target is found.
        users = users_of(fmt, used, {**files, **dict.fromkeys(used, "{}")})
    problems = {user: USES_UNREVIEWED.format(used=", ".join(sorted(via)), format=FORMAT_NAMES[fmt])
                for user, via in users.items() if user in files}
    out = [replace(c, problem=c.problem or problems[c.path])
           if not c.context and c.head_text is not None and c.path in problems else c for c in changes]
    out = [c for c in out if not (c.context and c.path in problems)]  # not reviewed as a user either
    in_pull = {c.path for c in out}
    return out + [FileChange(path=user, status=FileStatus.UNCHANGED, base_text=files[user],
                             head_text=files[user], problem=problem)
                  for user, problem in sorted(problems.items()) if user not in in_pull]
