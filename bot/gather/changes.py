"""Gather a pull request's schema changes from GitHub: file list, both versions, imports, history."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable

from rules import Format
from rules.limits import MAX_SCHEMA_BYTES
from rules.proto_imports import imported
from rules.protobuf import bufyaml

from bot.gather import proto_users, unreviewed_uses
from bot.config.config import Config
from bot.github.blobs import LINKED, LINKED_IMPORT, Blob
from bot.github.repo import RepoClient
from bot.gather.proto_users import candidates
from bot.review.review import FileChange, FileStatus
from bot.gather.schemaset import Listing, formats_of, schema_sets, uses_sets
from bot.gather.users import (MAX_CONTEXT_FILES, TOO_MANY, TREE_TRUNCATED, UNREADABLE, users_unchecked,
                              with_context, with_neighbours)
from bot.lifecycle.since import Clock, History

# Rounds of import fetching (imports of imports); each round is one GraphQL query.
MAX_IMPORT_ROUNDS = 4
WELL_KNOWN = "google/protobuf/"
# Versions looked at for a deprecation marker or a transitive check, at most.
HISTORY_DEPTH = 30
HISTORY_BATCH = 20  # as many as the check summary charts (bot/review/review.py MAX_CHARTED)
TOO_LARGE = "the {side} version is {size:,} bytes, over the {limit:,}-byte limit for a schema"
BINARY = "the {side} version is binary, not schema text"
LINK = object()  # an import found as a symbolic link (its text is never kept)


@dataclass(frozen=True)
class Gathered:
    """What a review of a pull request reads: every changed schema file with both versions and
    what surrounds them; and the reader of their base-branch histories, which the review asks
    only when a rule needs one (bot/review/review.py), in batches (_Histories)."""

    changes: list[FileChange]
    history_of: Callable[[str], History]


def schema_files(listing: Sequence, config: Config) -> list:
    """The listed files the config classifies as schemas (by their new or their old name)."""
    return [f for f in listing if config.reviews(f.filename, f.previous_filename)]


def uses_unreviewed(listing: Sequence, config: Config) -> bool:
    """Whether the listed files include one the config does not review that a reviewed file may
    use (bot/gather/unreviewed_uses.py): its users are searched in the head's file list."""
    return bool(unreviewed_uses.targets([(f.filename, f.previous_filename) for f in listing],
                                        formats_of(config)))


def blob_keys(files: Sequence, *, base_sha: str | None, head_sha: str) -> list[tuple[str, str]]:
    """(revision, path) of every version a review of `files` reads; no base side without a base."""
    wanted = []
    for f in files:
        if f.status != FileStatus.ADDED and base_sha:
            wanted.append((base_sha, f.previous_filename or f.filename))
        if f.status != FileStatus.REMOVED:
            wanted.append((head_sha, f.filename))
    if base_sha:  # buf's layout files at the base: the policy under review, not the one proposed
        wanted += layout_keys(files, base_sha)
    return wanted


def layout_keys(files: Sequence, base_sha: str) -> list[tuple[str, str]]:
    """Where buf's layout files governing the changed .proto files may sit, at the base."""
    return [(base_sha, path) for path in dict.fromkeys(
        c for f in files if f.filename.endswith(".proto") for c in bufyaml.candidates(f.filename))]


def collect(repo: RepoClient, listing: Sequence, config: Config, *, base_sha: str,
            head_sha: str, prefetched: Mapping[tuple[str, str], Blob | None] = MappingProxyType({}),
            head_paths: list[str] | None = None) -> Gathered:
    """Every listed changed file the config classifies as a schema, with its texts fetched in
    bulk (those `prefetched` by the review state query are not asked for again, nor the head's
    file list when it read it whole: `head_paths`). History is read from the base commit
    itself, never a branch name a tag could shadow."""
    pull_files, files = listing, schema_files(listing, config)
    wanted = blob_keys(files, base_sha=base_sha, head_sha=head_sha)
    missing = [key for key in wanted if key not in prefetched]
    blobs = {**{key: prefetched[key] for key in wanted if key in prefetched},
             **(repo.blobs(missing) if missing else {})}
    layout = bufyaml.layout({path: blobs[(ref, path)].text for ref, path in layout_keys(files, base_sha)
                             if blobs.get((ref, path)) and blobs[(ref, path)].text is not None})
    roots = tuple(dict.fromkeys((*config.import_roots, *layout.roots))) or ("",)
    imports, linked, import_paths = _imports(repo, roots, blobs)
    # The head's file list: read for the files using the changed ones anyway, and the sets'
    # lookups are limited to files it holds.
    listing = Listing(repo, known={} if head_paths is None else {head_sha: head_paths})
    if uses_sets(config, [f.filename for f in files]):
        listing.tree(head_sha)
    withheld: dict = {}  # JSON Schema: what a `$ref` may name that was not fetched, and why
    imports.update(schema_sets(repo, config, blobs, listing=listing, withheld=withheld))  # disjoint keys
    histories = _Histories(repo, base_sha, config, known=blobs, paths=[
        f.previous_filename or f.filename for f in files if f.status != FileStatus.ADDED])
    changes = []
    for f in files:
        base_path = f.previous_filename or f.filename
        changes.append(FileChange(
            path=f.filename, status=f.status, previous_path=f.previous_filename, patch=f.patch,
            base_text=_text(blobs.get((base_sha, base_path))),
            head_text=_text(blobs.get((head_sha, f.filename))),
            base_imports=imports.get((base_sha, base_path), {}),
            head_imports=imports.get((head_sha, f.filename), {}),
            base_import_paths=import_paths.get((base_sha, base_path), {}),
            head_import_paths=import_paths.get((head_sha, f.filename), {}),
            base_withheld=withheld.get((base_sha, base_path), {}),
            head_withheld=withheld.get((head_sha, f.filename), {}),
            buf_layout=layout if f.filename.endswith(".proto") else None,
            problem=_problem(base=blobs.get((base_sha, base_path)), head=blobs.get((head_sha, f.filename)))
            or linked.get((head_sha, f.filename)) or linked.get((base_sha, base_path)),
            blob_ids=(_oid(blobs.get((base_sha, base_path))), _oid(blobs.get((head_sha, f.filename))))))
    changes = with_context(repo, config, changes, head_sha, listing=listing)
    changes = _with_proto_users(repo, config, changes, listing, roots=roots, layout=layout,
                                base_sha=base_sha, head_sha=head_sha)
    return Gathered(_with_unreviewed_uses(repo, config, changes, pull_files, listing, roots=roots,
                                          head_sha=head_sha), histories.of)


def _with_unreviewed_uses(repo: RepoClient, config: Config, changes: list[FileChange],
                          pull_files: Sequence, listing: Listing, *, roots: tuple[str, ...],
                          head_sha: str) -> list[FileChange]:
    """`changes` with the head's reviewed files using a changed file the config does not
    review failing (bot/gather/unreviewed_uses.py); the head's files of that format are read
    (at most MAX_CONTEXT_FILES: a repository past it, or a listing cut short, is not searched)."""
    fmt_of = formats_of(config)
    for fmt, used in unreviewed_uses.targets(
            [(f.filename, f.previous_filename) for f in pull_files], fmt_of).items():
        paths, _truncated = listing.tree(head_sha)
        wanted = [(head_sha, p) for p in paths if fmt_of(p) is fmt][:MAX_CONTEXT_FILES]
        files = {path: blob.text for (_sha, path), blob in (repo.blobs(wanted) if wanted else {}).items()
                 if blob and blob.text}
        changes = unreviewed_uses.failing(changes, fmt, used, files, roots)
    return changes


def _with_proto_users(repo: RepoClient, config: Config, changes: list[FileChange],
                      listing: Listing, *, roots: tuple[str, ...], layout, base_sha: str,
                      head_sha: str) -> list[FileChange]:
    """`changes` and the head's unchanged .proto files importing one they edit, remove or rename
    away (bot/gather/proto_users.py), each with its imports at both revisions; the added and
    changed ones with those files as `head_neighbours` (a type defined twice). Where those files
    could not all be read, the changed .proto files say so (a user nobody checked, a second
    definition nobody saw, is never a pass)."""
    targets = proto_users.changed(changes)
    fmt_of = formats_of(config)
    if not targets and not proto_users.defining(changes, fmt_of):
        return changes
    in_pull = {c.path for c in changes} | {c.previous_path for c in changes if c.previous_path}
    paths, truncated = listing.tree(head_sha)
    wanted = [(head_sha, p) for p in paths if fmt_of(p) is Format.PROTOBUF and p not in in_pull]
    blobs = repo.blobs(wanted[:MAX_CONTEXT_FILES]) if wanted else {}
    unreadable = [path for (_sha, path), blob in blobs.items()
                  if blob and (blob.too_large or blob.binary)]
    problem = (TREE_TRUNCATED if truncated
               else TOO_MANY.format(count=len(wanted), limit=MAX_CONTEXT_FILES)
               if len(wanted) > MAX_CONTEXT_FILES
               else UNREADABLE.format(path=unreadable[0]) if unreadable else None)
    if problem:
        changes = users_unchecked(changes, {Format.PROTOBUF: problem}, fmt_of)
    texts = {path: blob.text for (_sha, path), blob in blobs.items() if blob and blob.text}
    changes = with_neighbours(changes, texts, fmt_of)
    users = proto_users.importers(targets, texts, roots)
    versions = {(sha, user): blobs[(head_sha, user)] for user in users for sha in (base_sha, head_sha)}
    imports, linked, import_paths = _imports(repo, roots, versions)
    return changes + [FileChange(
        path=user, status=FileStatus.UNCHANGED, base_text=texts[user], head_text=texts[user],
        context=True, uses=used, buf_layout=layout, base_imports=imports.get((base_sha, user), {}),
        head_imports=imports.get((head_sha, user), {}),
        base_import_paths=import_paths.get((base_sha, user), {}),
        head_import_paths=import_paths.get((head_sha, user), {}),
        problem=linked.get((head_sha, user)) or linked.get((base_sha, user)))
        for user, used in users.items()]


def _problem(**versions: Blob | None) -> str | None:
    """Why a version cannot be reviewed at all (it is never downloaded whole), else None."""
    for side, blob in versions.items():
        if blob is not None and blob.linked:
            return LINKED.format(side=side)
        if blob is not None and blob.too_large:
            return TOO_LARGE.format(side=side, size=blob.size, limit=MAX_SCHEMA_BYTES)
        if blob is not None and blob.binary:
            return BINARY.format(side=side)
    return None


def _oid(blob: Blob | None) -> str:
    return blob.oid if blob else ""


def _text(blob: Blob | None) -> str | None:
    return blob.text if blob else None


class _Histories:
    """The files' versions on the base branch, read HISTORY_BATCH files at a time the first time
    one of them is needed: one query for their commits, one per BLOBS_PER_QUERY versions."""

    def __init__(self, repo: RepoClient, ref: str, config: Config, *, paths: list[str],
                 known: Mapping[tuple[str, str], Blob | None] = MappingProxyType({})):
        self._repo, self._ref, self._paths, self._found = repo, ref, paths, {}
        self._known = known  # versions already fetched (the base's, when it last changed them)
        self._depth = max(HISTORY_DEPTH, config.transitive_versions)

    def of(self, path: str) -> list[tuple[str, str, str, Clock]]:
        if path not in self._found:
            later = self._paths[self._paths.index(path) + 1:] if path in self._paths else []
            self._read([path, *[p for p in later if p not in self._found][:HISTORY_BATCH - 1]])
        return self._found[path]

    def _read(self, paths: list[str]) -> None:
        commits = self._repo.histories(paths, self._ref, self._depth)
        wanted = [(sha, path) for path in paths for sha, *_when in commits.get(path, ())]
        missing = [key for key in wanted if key not in self._known]
        blobs = {**self._known, **(self._repo.blobs(missing) if missing else {})}
        for path in paths:
            self._found[path] = [(sha, date, _text(blobs.get((sha, path))) or "", clock)
                                 for sha, date, clock in commits.get(path, ())]


def _imports(repo: RepoClient, roots: tuple[str, ...], blobs: Mapping) -> tuple[dict, dict, dict]:
    """Import path -> text for every protobuf version, fetched at the same revision; why a
    version is not reviewed when an import is a symbolic link (never followed); and import
    path -> the repository path it was read from (findings in an imported file name it).

    One GraphQL query per round of imports (a file's imports, then theirs), not one per file.
    """
    found: dict[tuple[str, str], dict[str, str]] = {}
    paths: dict[tuple[str, str], dict[str, str]] = {}
    linked: dict[tuple[str, str], str] = {}
    # (schema version it is for, ref, path of the importing file, its text)
    todo = []
    for key, blob in blobs.items():
        if blob and blob.text and key[1].endswith(".proto"):
            found[key] = {}
            todo.append((key, key[0], key[1], blob.text))
    fetched: dict[tuple[str, str], str | None] = {}
    for _round in range(MAX_IMPORT_ROUNDS):
        wanted = {}
        for owner, ref, importer, text in todo:
            for name in imported(text):
                if not name.startswith(WELL_KNOWN) and name not in found[owner]:
                    wanted[(owner, name)] = [(ref, c) for c in candidates(name, importer, roots)]
        missing = [key for keys in wanted.values() for key in keys if key not in fetched]
        if not wanted:
            break
        if missing:
            fetched.update((key, LINK if blob and blob.linked else blob.text if blob else None)
                           for key, blob in repo.blobs(missing).items())
        todo = []
        for (owner, name), keys in wanted.items():
            hit = next((key for key in keys if fetched.get(key) is not None), None)
            if hit is not None and fetched[hit] is LINK:
                linked.setdefault(owner, LINKED_IMPORT.format(name=name))
                continue
            if hit is not None and name not in found[owner]:
                found[owner][name] = fetched[hit]
                paths.setdefault(owner, {})[name] = hit[1]
                todo.append((owner, hit[0], hit[1], fetched[hit]))
    return found, linked, paths
