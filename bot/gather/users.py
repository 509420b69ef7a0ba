"""Who uses a changed Avro or JSON Schema file: the head's other files of its format are read
(at most MAX_CONTEXT_FILES), and those that use a changed file, directly or through each other,
at the base or at the head, are reviewed too (context changes), so a break shows where it is
visible. Where they could not all be read, the changed files say so: a user nobody checked is
never a pass. The same files are a changed file's neighbours: a type defined twice."""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from posixpath import basename
from typing import TYPE_CHECKING

from rules import Format
from rules.avro.library import definitions, uses
from rules.jsonschema.refs import FILE_BASE, id_of, reference_uris, uri_of

from bot.config.config import Config
from bot.gather.schemaset import FORMATS, Listing, formats_of, last_segment, uses_sets
from bot.review.review import FileChange, FileStatus

if TYPE_CHECKING:  # the local review (bot/local/git_review.py) uses this module without PyGithub
    from bot.github.repo import RepoClient

# The head's other files of a format searched for users of the changed ones, at most (four
# GraphQL queries each); beyond it, or in a tree GitHub cut short, the changed files fail.
MAX_CONTEXT_FILES = 1000
TREE_TRUNCATED = "GitHub cut the repository's file listing short, so files using it may be missing"
TOO_MANY = ("the repository holds {count:,} other files of its format, over the {limit:,} searched "
            "for files using it")
UNREADABLE = 'a file that may use it, "{path}", is too large or binary to read'


def context_changes(changes: list[FileChange], head_files: Mapping[str, str],
                    fmt_of: Callable[[str], Format | None]) -> list[FileChange]:
    """Files the pull request does not change that use, directly or through each other, an
    Avro or JSON Schema file it does change, at the base or at the head: each is reviewed as it is, between the changed
    files' base and head versions, so a break shows where it is visible (a named type's or
    `$ref` target's findings then move to that file). `head_files`: candidates, path -> text.
    Each names the changed files it uses (`uses`): if it cannot be reviewed, they fail."""
    in_pull = {c.path for c in changes} | {c.previous_path for c in changes if c.previous_path}
    out: list[FileChange] = []
    for fmt in FORMATS:
        changed = [c for c in changes if fmt_of(c.path) is fmt and not c.context]
        if not changed:
            continue
        others = {p: t for p, t in head_files.items() if fmt_of(p) is fmt and p not in in_pull}
        head = {**others, **{c.path: _str(c.head_text) for c in changed if c.head_text is not None}}
        base = {**others, **{c.previous_path or c.path: _str(c.base_text) for c in changed
                             if c.base_text is not None}}
        # A changed file by either of its names -> its path in the pull request.
        names = {**{c.previous_path or c.path: c.path for c in changed}, **{c.path: c.path for c in changed}}
        # Edges of both revisions: a user the head's version no longer serves (a type renamed,
        # an `$id` changed) must be re-resolved at the head, not dropped as a non-user.
        for user, used in users_of(fmt, set(names), base, head).items():
            if user in others:
                out.append(FileChange(
                    path=user, status=FileStatus.UNCHANGED, base_text=others[user],
                    head_text=others[user], context=True,
                    uses=tuple(sorted({names[p] for p in used})),
                    base_imports={p: t for p, t in base.items() if p != user},
                    head_imports={p: t for p, t in head.items() if p != user}))
    return out


def users_of(fmt: Format, changed: set[str], *revisions: Mapping[str, str]) -> dict[str, set[str]]:
    """The files that use a changed file at any of `revisions` (path -> text each), directly
    or through each other, by path (sorted) -> the changed files each reaches."""
    links: dict[tuple[str, str], tuple[set[str], set[str]] | None] = {}  # unchanged files: once
    used_by: dict[str, set[str]] = {}
    for files in revisions:
        for path, text in files.items():
            if (path, text) not in links:
                links[(path, text)] = _links(fmt, path, text)
        index: dict[str, set[str]] = {}  # what a file is named by -> the files so named
        for path, text in files.items():
            for key in (links[(path, text)] or ((), ()))[0]:
                index.setdefault(key, set()).add(path)
        for user, text in files.items():
            for key in (links[(user, text)] or ((), ()))[1]:
                for target in index.get(key, ()):
                    if target != user:
                        used_by.setdefault(target, set()).add(user)
    reached: dict[str, set[str]] = {}
    for start in changed:
        stack, seen = [start], {start}
        while stack:
            for user in used_by.get(stack.pop(), ()):
                if user not in seen and user not in changed:
                    seen.add(user)
                    stack.append(user)
                    reached.setdefault(user, set()).add(start)
    return dict(sorted(reached.items()))


def _links(fmt: Format, path: str, text: str) -> tuple[set[str], set[str]] | None:
    """(what the file may be named by, what it names), or None if it is not JSON. Avro: the
    named types it defines, those it uses; JSON Schema: the keys of _keys, and those a `$ref`
    may name (_names), so each reference costs a lookup."""
    try:
        document = json.loads(text.removeprefix("\ufeff"))  # a BOM, as the engine reads it (utf-8-sig)
    except (ValueError, RecursionError):
        return None
    if fmt is Format.AVRO:
        return set(definitions(document)), {name for names in uses(document) for name in names}
    return (set(_keys(path, document)),
            {key for uri in reference_uris(document, path) for key in _names(uri)})


def _keys(path: str, document) -> list[str]:
    """What a `$ref` can name a file by: its path URI, its `$id`, its file name."""
    return [uri_of(path), *filter(None, [id_of(document, path)]), "/" + basename(path)]


def _names(uri: str) -> list[str]:
    """What a `$ref`'s URI may name (the keys of _keys): that very URI (a file's path or
    `$id`); a URL also a file by its last segment (an `$id` usually ends in the file's name)."""
    if uri.startswith(FILE_BASE):
        return [uri]
    segment = last_segment(uri)
    return [uri, "/" + segment] if segment else [uri]


def _str(text: str | bytes) -> str:
    return text.decode("utf-8", "replace") if isinstance(text, bytes) else text


def with_context(repo: RepoClient, config: Config, changes: list[FileChange], head_sha: str, *,
                 listing: Listing | None = None) -> list[FileChange]:
    """`changes` and their context_changes: the head commit's other Avro and JSON Schema files
    (at most MAX_CONTEXT_FILES per format: a query per BLOBS_PER_QUERY of them) of which those
    using a changed file are reviewed too. Where they could not all be read (a tree GitHub cut
    short, more files than that, a file too large or binary), the changed files of that format
    say so (`users_unchecked`): a user nobody checked is never a pass."""
    fmt_of = formats_of(config)
    if not uses_sets(config, [c.path for c in changes]):
        return changes
    formats = {fmt_of(c.path) for c in changes} & set(FORMATS)
    in_pull = {c.path for c in changes} | {c.previous_path for c in changes if c.previous_path}
    paths, truncated = (listing or Listing(repo)).tree(head_sha)
    unchecked: dict[Format, str] = {}
    wanted = []
    for fmt in sorted(formats):
        candidates = [p for p in paths if fmt_of(p) is fmt and p not in in_pull]
        if truncated:
            unchecked[fmt] = TREE_TRUNCATED
        elif len(candidates) > MAX_CONTEXT_FILES:
            unchecked[fmt] = TOO_MANY.format(count=len(candidates), limit=MAX_CONTEXT_FILES)
        wanted += [(head_sha, p) for p in candidates[:MAX_CONTEXT_FILES]]
    files = {}
    for (_sha, path), blob in repo.blobs(wanted).items():
        if blob and blob.text:
            files[path] = blob.text
        elif blob and (blob.too_large or blob.binary):
            unchecked.setdefault(fmt_of(path), UNREADABLE.format(path=path))
    changes = with_neighbours(users_unchecked(changes, unchecked, fmt_of), files, fmt_of)
    return changes + context_changes(changes, files, fmt_of)


def with_neighbours(changes: list[FileChange], files: Mapping[str, str],
                    fmt_of: Callable[[str], Format | None]) -> list[FileChange]:
    """`changes` with the head's other files of their format among `files` (path -> text; the
    pull request's own are left out) as `head_neighbours`: a type one of them defines too is
    defined twice (bot/review/duplicate_types.py). One mapping per format, shared."""
    in_pull = {c.path for c in changes} | {c.previous_path for c in changes if c.previous_path}
    by_format: dict[Format, dict[str, str]] = {}
    for path, text in files.items():
        if path not in in_pull and (fmt := fmt_of(path)) is not None:
            by_format.setdefault(fmt, {})[path] = text
    return [replace(c, head_neighbours=by_format[fmt])
            if not c.context and c.head_text is not None and (fmt := fmt_of(c.path)) in by_format
            else c for c in changes]


def users_unchecked(changes: list[FileChange], unchecked: Mapping[Format, str],
                    fmt_of: Callable[[str], Format | None]) -> list[FileChange]:
    """`changes` with those of a format whose files could not all be searched for users saying
    why (`users_unchecked`): a user nobody checked is never a pass."""
    return [replace(c, users_unchecked=unchecked[fmt_of(c.path)])
            if fmt_of(c.path) in unchecked and not c.context else c for c in changes]
