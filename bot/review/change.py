"""What a review reads: one changed schema file with both versions and what surrounds it, as plain
values the gather stage fills and a test can build by hand."""
from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Callable, Mapping

from bot.lifecycle.since import History


class FileStatus(enum.StrEnum):
    """A pull request file's `status`, as the files API reports it."""

    ADDED = "added"
    MODIFIED = "modified"
    REMOVED = "removed"
    RENAMED = "renamed"
    COPIED = "copied"
    CHANGED = "changed"
    UNCHANGED = "unchanged"


@dataclass(frozen=True)
class FileChange:
    """One changed file: the files API's fields plus both versions' text, fetched by the caller.

    Texts may be bytes (checked for size, binary and UTF-8 here) or str; None when the version
    does not exist. `history` is (sha, ISO date, text[, clock]) of the file's versions on the
    base branch (bot/lifecycle/since.py), newest first, normally starting with the base itself; it may be
    empty.
    """

    path: str
    status: FileStatus | str
    previous_path: str | None = None
    patch: str | None = None
    base_text: str | bytes | None = None
    head_text: str | bytes | None = None
    base_imports: Mapping[str, str] = field(default_factory=dict)
    head_imports: Mapping[str, str] = field(default_factory=dict)
    # protobuf: import path -> the repository path it was read from (Source.import_paths)
    base_import_paths: Mapping[str, str] = field(default_factory=dict)
    head_import_paths: Mapping[str, str] = field(default_factory=dict)
    # JSON Schema: files a `$ref` may name that were not fetched, path -> why (Source.withheld)
    base_withheld: Mapping[str, str] = field(default_factory=dict)
    head_withheld: Mapping[str, str] = field(default_factory=dict)
    history: History = ()
    problem: str | None = None  # set by the caller when a version could not be fetched usably
    # The versions' git blob ids when known: the content's identity even when it was too large
    # to fetch (whole-file findings, and so overrides of them, are bound to it).
    blob_ids: tuple[str, str] = ("", "")
    # protobuf: the buf modules around the file at the base (rules.protobuf.bufyaml.Layout):
    # their `breaking:` section applies beneath the config; None: no buf files were looked for
    buf_layout: object | None = None
    # Not changed by the pull request: it uses changed Avro or JSON Schema files, or imports a
    # .proto file it removes, and is checked between their base and head versions
    # (bot/gather/users.py, bot/gather/proto_users.py) to show what breaks.
    context: bool = False
    # context: the changed files it uses; if it cannot be reviewed, they are not known to pass.
    uses: tuple[str, ...] = ()
    # changed: why files that may use it could not all be checked (bot/gather/users.py), if so.
    users_unchecked: str | None = None
    # changed: the head's other schema files of its format the gather stage read, path -> text
    # (one mapping shared by the changes): a type they define too is defined twice
    # (bot/review/duplicate_types.py). Where they could not all be read, `users_unchecked` says so.
    head_neighbours: Mapping[str, str | bytes] = field(default_factory=dict)


class DeferredHistory(Sequence):
    """A file's older versions, read only if a rule asks (transitive mode, the deprecation and
    promotion windows, the migration calendar), from the reader the review was handed."""

    def __init__(self, fetch: Callable[[], History]):
        self._fetch, self._items = fetch, None

    def _load(self) -> list:
        if self._items is None:
            self._items = self._fetch()
        return self._items

    def __bool__(self) -> bool:
        return True  # checked before iteration; the fetch decides what is really there

    def __len__(self) -> int:
        return len(self._load())

    def __getitem__(self, index):
        return self._load()[index]

    def __iter__(self):
        return iter(self._load())
