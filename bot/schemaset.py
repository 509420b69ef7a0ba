"""The other Avro and JSON Schema files a changed schema uses, fetched at the same revision.

A version's schema set is the repository's files of its format at its commit, as far as they
are needed: the `.avsc` files defining the named types it uses, the JSON Schemas its `$ref`s
name (by path, or by the last segment of an `$id` URL). Only files the config classifies as
that format are fetched. One GraphQL query per level (the files those files use come next),
and the commit's file list (one call) only when a name has to be found by file name.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from posixpath import basename, dirname, join, normpath
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from rules import Format
from rules.avro.library import definitions, uses
from rules.jsonschema.refs import references

from .config import Config
from .review import FileChange, FileStatus

if TYPE_CHECKING:  # the local review (bot/local.py) uses this module without PyGithub
    from .github import RepoClient

# Levels of files used by files used (order -> money -> currency is two); one query each.
MAX_ROUNDS = 4
# Files fetched per revision and format, at most: a set is the files a schema uses, not a tree.
MAX_SET_FILES = 200
FORMATS = (Format.AVRO, Format.JSONSCHEMA)

Key = tuple[str, str]  # (commit sha, repository path)


def schema_sets(repo: RepoClient, config: Config, blobs: dict) -> dict[Key, dict[str, str]]:
    """(sha, path) of each Avro and JSON Schema version in `blobs` -> its set, path -> text."""
    fmt_of = formats_of(config)
    versions = {key: blob.text for key, blob in blobs.items()
                if blob and blob.text and fmt_of(key[1]) in FORMATS}
    pools: dict[tuple[str, Format], dict[str, str]] = {}
    for (sha, path), text in versions.items():  # the changed files belong to their sets too
        pools.setdefault((sha, fmt_of(path)), {})[path] = text
    listing = _Listing(repo)
    fetched: set[Key] = set(blobs)
    todo = list(versions.items())
    for _round in range(MAX_ROUNDS):
        wanted: set[Key] = set()
        for (sha, path), text in todo:
            fmt = fmt_of(path)
            pool = pools[(sha, fmt)]
            room = MAX_SET_FILES - len(pool)
            found = [(sha, each) for each in _needed(fmt, path, text, pool, listing, sha, fmt_of)
                     if (sha, each) not in fetched]
            wanted.update(found[:max(room, 0)])
        if not wanted:
            break
        fetched |= wanted
        todo = []
        for key, blob in repo.blobs(sorted(wanted)).items():
            if blob is not None and blob.text:
                pools[(key[0], fmt_of(key[1]))][key[1]] = blob.text
                todo.append((key, blob.text))
    return {(sha, path): {other: text for other, text in pools[(sha, fmt_of(path))].items()
                          if other != path}
            for sha, path in versions}


def formats_of(config: Config) -> Callable[[str], Format | None]:
    cache: dict[str, Format | None] = {}

    def fmt_of(path: str) -> Format | None:
        if path not in cache:
            classified = config.classify(path)
            cache[path] = classified.format if classified else None
        return cache[path]
    return fmt_of


class _Listing:
    """The commit's file paths, listed once per commit and only when asked."""

    def __init__(self, repo: RepoClient):
        self._repo, self._paths = repo, {}

    def paths(self, sha: str) -> list[str]:
        if sha not in self._paths:
            self._paths[sha] = self._repo.tree_paths(sha)[0]
        return self._paths[sha]


def _needed(fmt: Format, path: str, text: str, pool: dict[str, str], listing: _Listing,
            sha: str, fmt_of) -> list[str]:
    """Paths of the files of the same format that `text` uses and the set does not hold yet."""
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return []  # unusable: it is reported where it is checked
    if fmt is Format.AVRO:
        return _avro_needed(document, pool, listing, sha, fmt_of)
    return _json_needed(path, document, pool, listing, sha, fmt_of)


def _avro_needed(document, pool: dict[str, str], listing: _Listing, sha: str, fmt_of) -> list[str]:
    """Files likely to define the named types used and not defined in the set: named after the
    type (`Money.avsc`, `money.avsc`, `com.shop.Money.avsc`), else every Avro file."""
    used = uses(document)
    if not used:
        return []
    defined = set()
    for text in pool.values():
        try:
            defined |= definitions(json.loads(text))
        except (ValueError, RecursionError):
            continue
    missing = {name for names in used if not defined.intersection(names) for name in names}
    if not missing:
        return []
    avro = [p for p in listing.paths(sha) if fmt_of(p) is Format.AVRO and p not in pool]
    wanted = {f"{name.lower()}.avsc" for name in missing}
    wanted |= {f"{name.rpartition('.')[2].lower()}.avsc" for name in missing}
    named = [p for p in avro if basename(p).lower() in wanted]
    return named or avro


def _json_needed(path: str, document, pool: dict[str, str], listing: _Listing, sha: str,
                 fmt_of) -> list[str]:
    """Files a `$ref` names: by its path relative to this file, else by its last segment
    (an `$id` URL usually ends in the file's name)."""
    out: list[str] = []
    by_segment = set()
    for ref in sorted(references(document)):
        parts = urlsplit(ref)
        if not parts.scheme and not parts.netloc and parts.path:
            joined = normpath(join(dirname(path), parts.path))
            if not joined.startswith("../") and joined != ".." and fmt_of(joined) is Format.JSONSCHEMA:
                out.append(joined)
                continue
        segment = parts.path.rstrip("/").rpartition("/")[2]
        if segment:
            by_segment.add(segment)
    if by_segment:
        out += [p for p in listing.paths(sha)
                if basename(p) in by_segment and fmt_of(p) is Format.JSONSCHEMA]
    return [p for p in dict.fromkeys(out) if p not in pool]


def context_changes(changes: list[FileChange], head_files: Mapping[str, str],
                    fmt_of: Callable[[str], Format | None]) -> list[FileChange]:
    """Files the pull request does not change that use, directly or through each other, an
    Avro or JSON Schema file it does change: each is reviewed as it is, between the changed
    files' base and head versions, so a break shows where it is visible (a named type's or
    `$ref` target's findings then move to that file). `head_files`: candidates, path -> text."""
    in_pull = {c.path for c in changes} | {c.previous_path for c in changes if c.previous_path}
    out: list[FileChange] = []
    for fmt in FORMATS:
        changed = [c for c in changes if fmt_of(c.path) is fmt]
        if not changed:
            continue
        others = {p: t for p, t in head_files.items() if fmt_of(p) is fmt and p not in in_pull}
        head = {**others, **{c.path: _str(c.head_text) for c in changed if c.head_text is not None}}
        base = {**others, **{c.previous_path or c.path: _str(c.base_text) for c in changed
                             if c.base_text is not None}}
        for user in _users(fmt, {c.path for c in changed} | {c.previous_path or c.path for c in changed},
                           {**base, **head}):
            if user in others:
                out.append(FileChange(
                    path=user, status=FileStatus.UNCHANGED, base_text=others[user],
                    head_text=others[user], context=True,
                    base_imports={p: t for p, t in base.items() if p != user},
                    head_imports={p: t for p, t in head.items() if p != user}))
    return out


def _users(fmt: Format, changed: set[str], files: Mapping[str, str]) -> list[str]:
    """Paths of the files that use a changed file, directly or through each other."""
    documents = {}
    for path, text in files.items():
        try:
            documents[path] = json.loads(text)
        except (ValueError, RecursionError):
            continue
    if fmt is Format.AVRO:
        defined = {path: definitions(doc) for path, doc in documents.items()}
        used = {path: {name for names in uses(doc) for name in names}
                for path, doc in documents.items()}
        def uses_file(user: str, target: str) -> bool:
            return bool(used[user] & defined.get(target, frozenset()))
    else:
        refs = {path: references(doc) for path, doc in documents.items()}
        def uses_file(user: str, target: str) -> bool:
            return any(_names(user, ref, target) for ref in refs[user])
    affected = set(changed)
    users: list[str] = []
    grew = True
    while grew:
        grew = False
        for path in sorted(documents):
            if path not in affected and any(uses_file(path, target) for target in affected):
                affected.add(path)
                users.append(path)
                grew = True
    return users


def _names(user: str, ref: str, target: str) -> bool:
    """Whether a `$ref` in `user` may name the file `target`: by relative path, else by the
    last segment of a URL (an `$id` usually ends in the file's name)."""
    parts = urlsplit(ref)
    if not parts.scheme and not parts.netloc and parts.path:
        return normpath(join(dirname(user), parts.path)) == target
    return bool(parts.path) and parts.path.rstrip("/").rpartition("/")[2] == basename(target)


def _str(text: str | bytes) -> str:
    return text.decode("utf-8", "replace") if isinstance(text, bytes) else text


def fetch_context(repo: RepoClient, config: Config, changes: list[FileChange],
                  head_sha: str) -> list[FileChange]:
    """The App's context_changes: the head commit's other Avro and JSON Schema files (at most
    MAX_SET_FILES, in one query), of which those using a changed file are reviewed too."""
    fmt_of = formats_of(config)
    if not any(fmt_of(c.path) in FORMATS for c in changes):
        return []
    in_pull = {c.path for c in changes} | {c.previous_path for c in changes if c.previous_path}
    paths = [p for p in repo.tree_paths(head_sha)[0] if fmt_of(p) in FORMATS and p not in in_pull]
    blobs = repo.blobs([(head_sha, p) for p in paths[:MAX_SET_FILES]])
    files = {path: blob.text for (_sha, path), blob in blobs.items() if blob and blob.text}
    return context_changes(changes, files, fmt_of)
