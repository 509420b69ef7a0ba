"""The other Avro and JSON Schema files a changed schema uses, fetched at the same revision.

A version's schema set is the repository's files of its format at its commit, as far as they
are needed: the `.avsc` files defining the named types it uses, the JSON Schemas its `$ref`s
name (by path, or by the last segment of an `$id` URL). Only files the config classifies as
that format are fetched. One GraphQL query per level (the files those files use come next),
at most MAX_SET_FILES files per revision and format; the commit's file list (one call, none
when the review state query read the head's) when a name has to be found by file name. The
files using a changed one are searched in bot/gather/users.py.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from posixpath import basename, normpath
from types import MappingProxyType
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from rules import Format
from rules.avro.library import definitions, uses
from rules.jsonschema.refs import FILE_BASE, reference_uris

from bot.config.config import Config

if TYPE_CHECKING:  # the local review (bot/local/git_review.py) uses this module without PyGithub
    from bot.github.repo import RepoClient

# Levels of files used by files used (order -> money -> currency is two); one query each.
MAX_ROUNDS = 4
# Files fetched per revision and format, at most: a set is the files a schema uses, not a tree.
MAX_SET_FILES = 200
FORMATS = (Format.AVRO, Format.JSONSCHEMA)
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
        segment = last_segment(uri)
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
        elif segment := last_segment(uri):
            by_segment.add(segment)
    if by_segment and known is not None:
        out += [p for p in known if basename(p) in by_segment and fmt_of(p) is not Format.JSONSCHEMA]
    return out


def last_segment(uri: str) -> str:
    """A URL's last path segment: the file name an `$id` URL usually ends in."""
    return urlsplit(uri).path.rstrip("/").rpartition("/")[2]
