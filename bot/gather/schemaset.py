"""The other Avro and JSON Schema files a changed schema uses, fetched at the same revision.

A version's schema set is the repository's files of its format at its commit, as far as they
are needed: the `.avsc` files defining the named types it uses, the JSON Schemas its `$ref`s
name (by path, or by the last segment of an `$id` URL). Only files the config classifies as
that format are fetched. One GraphQL query per level (the files those files use come next),
at most MAX_SET_FILES files per revision and format; the commit's file list (one call, none
when the review state query read the head's) when a name has to be found by file name, or (the
head's) to search for the files using changed ones.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from posixpath import basename, normpath
from types import MappingProxyType
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from rules import Format
from rules.avro.library import definitions, uses
from rules.jsonschema.refs import FILE_BASE, id_of, reference_uris, uri_of

from bot.config.config import Config
from bot.review.review import FileChange, FileStatus

if TYPE_CHECKING:  # the local review (bot/local/git_review.py) uses this module without PyGithub
    from bot.github.repo import RepoClient

# Levels of files used by files used (order -> money -> currency is two); one query each.
MAX_ROUNDS = 4
# Files fetched per revision and format, at most: a set is the files a schema uses, not a tree.
MAX_SET_FILES = 200
FORMATS = (Format.AVRO, Format.JSONSCHEMA)
# The head's other files of a format searched for users of the changed ones, at most (four
# GraphQL queries each); beyond it, or in a tree GitHub cut short, the changed files fail.
MAX_CONTEXT_FILES = 1000
TREE_TRUNCATED = "GitHub cut the repository's file listing short, so files using it may be missing"
TOO_MANY = ("the repository holds {count:,} other files of its format, over the {limit:,} searched "
            "for files using it")
UNREADABLE = 'a file that may use it, "{path}", is too large or binary to read'
# Why a JSON Schema file a `$ref` may name was not fetched (Source.withheld): the reference then
# says so and fails, never passing for one outside the repository.
NOT_CLASSIFIED = "the config's `paths` do not review it as JSON Schema"
SET_FULL = "past the {limit}-file limit of a version's schema set"
TOO_DEEP = f"more than {MAX_ROUNDS} levels of files using files away"
UNUSABLE = "too large, binary or not a file"
LINK_LEFT_OUT = "a symbolic link, never followed"

Key = tuple[str, str]  # (commit sha, repository path)


def schema_sets(repo: RepoClient, config: Config, blobs: dict, *,
                listing: Listing | None = None,
                withheld: dict[Key, dict[str, str]] | None = None) -> dict[Key, dict[str, str]]:
    """(sha, path) of each Avro and JSON Schema version in `blobs` -> its set, path -> text.
    At most MAX_SET_FILES files are asked for per revision and format, however many files name
    them; where the commit's file list is already known, only files it holds are asked for.
    `withheld` is filled with each JSON Schema version's files a `$ref` may name that were not
    fetched, path -> why (a limit, or the config)."""
    fmt_of = formats_of(config)
    listing = listing or Listing(repo)
    versions = {key: blob.text for key, blob in blobs.items()
                if blob and blob.text and fmt_of(key[1]) in FORMATS}
    pools: dict[tuple[str, Format], _Pool] = {}
    for (sha, path), text in versions.items():  # the changed files belong to their sets too
        pools.setdefault((sha, fmt_of(path)), _Pool(fmt_of(path))).add(path, text)
    fetched: set[Key] = set(blobs)
    asked: dict[tuple[str, Format], int] = {}  # files requested so far, per revision and format
    left_out: dict[str, dict[str, str]] = {}  # JSON Schema: sha -> path not fetched -> why
    todo = [(key, pools[(key[0], fmt_of(key[1]))].documents.get(key[1])) for key in versions]
    for level in range(MAX_ROUNDS + 1):  # the last round only notes what is left out
        wanted: set[Key] = set()
        for (sha, path), document in todo:
            fmt = fmt_of(path)
            known = listing.listed(sha)
            noted = left_out.setdefault(sha, {}) if fmt is Format.JSONSCHEMA else {}
            if fmt is Format.JSONSCHEMA and document is not None:
                noted.update(dict.fromkeys(_json_unclassified(path, document, listing, sha, fmt_of),
                                           NOT_CLASSIFIED))
            for each in _needed(fmt, path, document, pools[(sha, fmt)], listing, sha, fmt_of):
                if (sha, each) in fetched or (known is not None and each not in known):
                    continue
                if level == MAX_ROUNDS:
                    noted.setdefault(each, TOO_DEEP)
                    continue
                if len(pools[(sha, fmt)].texts) + asked.get((sha, fmt), 0) >= MAX_SET_FILES:
                    noted.setdefault(each, SET_FULL.format(limit=MAX_SET_FILES))
                    continue
                fetched.add((sha, each))
                wanted.add((sha, each))
                asked[(sha, fmt)] = asked.get((sha, fmt), 0) + 1
        if not wanted:
            break
        todo = []
        for key, blob in repo.blobs(sorted(wanted)).items():
            fmt = fmt_of(key[1])
            asked[(key[0], fmt)] -= 1
            if blob is not None and blob.text:
                pool = pools.setdefault((key[0], fmt), _Pool(fmt))
                pool.add(key[1], blob.text)
                todo.append((key, pool.documents.get(key[1])))
            elif blob is not None and fmt is Format.JSONSCHEMA:  # there, but no text to read
                left_out.setdefault(key[0], {})[key[1]] = UNUSABLE
    if withheld is not None:
        for sha, path in versions:
            if fmt_of(path) is Format.JSONSCHEMA:
                withheld[(sha, path)] = {other: why for other, why in left_out.get(sha, {}).items()
                                         if other not in pools[(sha, Format.JSONSCHEMA)].texts}
    return {(sha, path): {other: text for other, text in pools[(sha, fmt_of(path))].texts.items()
                          if other != path}
            for sha, path in versions}


class _Pool:
    """One revision's set of one format so far: texts, each parsed once, and (Avro) the named
    types they define, kept up to date as files join (so a set of n files costs n parses)."""

    def __init__(self, fmt: Format):
        self.fmt = fmt
        self.texts: dict[str, str] = {}
        self.documents: dict[str, object] = {}
        self.defined: set[str] = set()

    def add(self, path: str, text: str) -> None:
        self.texts[path] = text
        try:
            document = json.loads(text)
        except (ValueError, RecursionError):
            return  # unusable: it is reported where it is checked
        self.documents[path] = document
        if self.fmt is Format.AVRO:
            self.defined |= definitions(document)


def uses_sets(config: Config, paths: Iterable[str]) -> bool:
    """Whether any of `paths` is an Avro or JSON Schema file (it has a set, and users)."""
    fmt_of = formats_of(config)
    return any(fmt_of(path) in FORMATS for path in paths)


def lists_head(config: Config, paths: Iterable[str]) -> bool:
    """Whether a review of `paths` reads the head's file list: for the users of an Avro or JSON
    Schema file, or the importers of a .proto one (bot/gather/proto_users.py)."""
    fmt_of = formats_of(config)
    return any(fmt_of(path) in (*FORMATS, Format.PROTOBUF) for path in paths)


def formats_of(config: Config) -> Callable[[str], Format | None]:
    cache: dict[str, Format | None] = {}

    def fmt_of(path: str) -> Format | None:
        if path not in cache:
            classified = config.classify(path)
            cache[path] = classified.format if classified else None
        return cache[path]
    return fmt_of


class Listing:
    """The commit's file paths, listed once per commit (one tree call) and only when asked;
    shared by the schema sets and the search for files using the changed ones. `known`: sha ->
    a whole listing read already (the review state query's, bot/github/tree_query.py)."""

    def __init__(self, repo: RepoClient, *, known: Mapping[str, list[str]] = MappingProxyType({})):
        self._repo = repo
        self._paths: dict[str, tuple[list[str], bool]] = {sha: (list(paths), False)
                                                          for sha, paths in known.items()}
        self._sets: dict[str, frozenset[str]] = {}
        self._formats: dict[tuple[str, Format], list[str]] = {}

    def paths(self, sha: str) -> list[str]:
        return self.tree(sha)[0]

    def tree(self, sha: str) -> tuple[list[str], bool]:
        """(paths, whether GitHub cut the listing short)."""
        if sha not in self._paths:
            self._paths[sha] = self._repo.tree_paths(sha)
        return self._paths[sha]

    def listed(self, sha: str) -> frozenset[str] | None:
        """The commit's paths if already listed (and not cut short), else None."""
        if sha not in self._paths or self._paths[sha][1]:
            return None
        if sha not in self._sets:
            self._sets[sha] = frozenset(self._paths[sha][0])
        return self._sets[sha]

    def of_format(self, sha: str, fmt: Format, fmt_of) -> list[str]:
        if (sha, fmt) not in self._formats:
            self._formats[(sha, fmt)] = [p for p in self.paths(sha) if fmt_of(p) is fmt]
        return self._formats[(sha, fmt)]


def _needed(fmt: Format, path: str, document, pool: _Pool, listing: Listing,
            sha: str, fmt_of) -> list[str]:
    """Paths of the files of the same format `document` uses and the set does not hold yet."""
    if document is None:
        return []  # unusable: it is reported where it is checked
    if fmt is Format.AVRO:
        return _avro_needed(document, pool, listing, sha, fmt_of)
    return _json_needed(path, document, pool, listing, sha, fmt_of)


def _avro_needed(document, pool: _Pool, listing: Listing, sha: str, fmt_of) -> list[str]:
    """Files likely to define the named types used and not defined in the set: named after the
    type (`Money.avsc`, `money.avsc`, `com.shop.Money.avsc`), else every Avro file."""
    missing = {name for names in uses(document) if not pool.defined.intersection(names)
               for name in names}
    if not missing:
        return []
    avro = [p for p in listing.of_format(sha, Format.AVRO, fmt_of) if p not in pool.texts]
    wanted = {f"{name.lower()}.avsc" for name in missing}
    wanted |= {f"{name.rpartition('.')[2].lower()}.avsc" for name in missing}
    named = [p for p in avro if basename(p).lower() in wanted]
    return named or avro


def _json_needed(path: str, document, pool: _Pool, listing: Listing, sha: str,
                 fmt_of) -> list[str]:
    """Files a `$ref` names: by its path (relative to the file, or to its `$id` when that is a
    path), else by its last segment (an `$id` URL usually ends in the file's name)."""
    out: list[str] = []
    by_segment = set()
    for uri in sorted(reference_uris(document, path)):
        if uri.startswith(FILE_BASE):
            joined = normpath(unquote(uri[len(FILE_BASE):]))
            if fmt_of(joined) is Format.JSONSCHEMA:
                out.append(joined)
            continue
        segment = _last_segment(uri)
        if segment:
            by_segment.add(segment)
    if by_segment:
        out += [p for p in listing.of_format(sha, Format.JSONSCHEMA, fmt_of)
                if basename(p) in by_segment]
    return [p for p in dict.fromkeys(out) if p not in pool.texts]


def _json_unclassified(path: str, document, listing: Listing, sha: str, fmt_of) -> list[str]:
    """Files of the commit a `$ref` may name (as _json_needed looks them up) that the config
    does not review as JSON Schema: never fetched, so a reference to one must say why."""
    known = listing.listed(sha)
    out, by_segment = [], set()
    for uri in reference_uris(document, path):
        if uri.startswith(FILE_BASE):
            joined = normpath(unquote(uri[len(FILE_BASE):]))
            if fmt_of(joined) is not Format.JSONSCHEMA and (known is None or joined in known):
                out.append(joined)
        elif segment := _last_segment(uri):
            by_segment.add(segment)
    if by_segment and known is not None:
        out += [p for p in known if basename(p) in by_segment and fmt_of(p) is not Format.JSONSCHEMA]
    return out


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
        for user, used in _users(fmt, set(names), base, head).items():
            if user in others:
                out.append(FileChange(
                    path=user, status=FileStatus.UNCHANGED, base_text=others[user],
                    head_text=others[user], context=True,
                    uses=tuple(sorted({names[p] for p in used})),
                    base_imports={p: t for p, t in base.items() if p != user},
                    head_imports={p: t for p, t in head.items() if p != user}))
    return out


def _users(fmt: Format, changed: set[str], *revisions: Mapping[str, str]) -> dict[str, set[str]]:
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
        document = json.loads(text)
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
    segment = _last_segment(uri)
    return [uri, "/" + segment] if segment else [uri]


def _last_segment(uri: str) -> str:
    """A URL's last path segment: the file name an `$id` URL usually ends in."""
    return urlsplit(uri).path.rstrip("/").rpartition("/")[2]


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
    changes = users_unchecked(changes, unchecked, fmt_of)
    return changes + context_changes(changes, files, fmt_of)


def users_unchecked(changes: list[FileChange], unchecked: Mapping[Format, str],
                    fmt_of: Callable[[str], Format | None]) -> list[FileChange]:
    """`changes` with those of a format whose files could not all be searched for users saying
    why (`users_unchecked`): a user nobody checked is never a pass."""
    return [replace(c, users_unchecked=unchecked[fmt_of(c.path)])
            if fmt_of(c.path) in unchecked and not c.context else c for c in changes]
