"""Turning untrusted bytes (a local file or a fetched blob) into a Source, within the limits."""
from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

from .limits import MAX_SCHEMA_BYTES

from .model import SchemaError, Source

MAX_WALKED = 5000  # directory entries looked at for sibling schemas
MAX_PARENTS = 32  # directories looked at, upwards, for buf's layout files

TOO_LARGE = "file is {size:,} bytes, over the {limit:,}-byte limit for a schema"
BINARY = "file is binary, not schema text"
NOT_UTF8 = "file is not UTF-8 text (byte {offset})"
EMPTY = "file is empty"


def decode(path: str, data: bytes) -> str:
    """Schema text from raw bytes, or a SchemaError that names the problem."""
    if len(data) > MAX_SCHEMA_BYTES:
        raise SchemaError(path, None, TOO_LARGE.format(size=len(data), limit=MAX_SCHEMA_BYTES))
    if b"\0" in data:
        raise SchemaError(path, None, BINARY)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SchemaError(path, None, NOT_UTF8.format(offset=error.start)) from None
    if not text.strip():
        raise SchemaError(path, None, EMPTY)
    return text


def read(path: str, *, proto_paths: tuple[str, ...] = ()) -> Source:
    """A Source from a local file (the CLI's OLD, NEW and --against arguments)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SCHEMA_BYTES + 1)
    except OSError as error:
        raise SchemaError(path, None, f"cannot read file: {error.strerror or error}") from None
    if len(data) > MAX_SCHEMA_BYTES:
        size = Path(path).stat().st_size
        raise SchemaError(path, None, TOO_LARGE.format(size=size, limit=MAX_SCHEMA_BYTES))
    imports = SiblingSchemas(path, ".avsc") if path.endswith(".avsc") else {}
    if path.endswith(".proto"):  # a buf module's roots, as `buf` itself would resolve imports
        proto_paths = tuple(dict.fromkeys((*proto_paths, *buf_layout(path).roots)))
    return Source(path=path, text=decode(path, data), proto_paths=own_root_first(path, proto_paths),
                  imports=imports)


def buf_layout(path: str):
    """The buf modules declared by buf.yaml, buf.work.yaml or buf.gen.yaml files in the file's
    directory and its parents, up to the checkout holding it (a directory with `.git`)."""
    from .protobuf import bufyaml  # only protobuf files need it

    files, folder = {}, Path(path).resolve().parent
    for _level in range(MAX_PARENTS):
        for name in bufyaml.NAMES:
            candidate = folder / name
            try:
                if candidate.is_file() and candidate.stat().st_size <= bufyaml.MAX_BYTES:
                    files[str(candidate)] = candidate.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue  # unreadable: as if absent
        if (folder / ".git").exists() or folder.parent == folder:
            break
        folder = folder.parent
    return bufyaml.layout(files)


class SiblingSchemas(Mapping):
    """The other files with the same extension under a file's directory, path -> text: the
    named types an Avro file may use by name. Read only when the file names a type it does not
    define itself, and bounded: a file in a huge directory does not walk all of it."""

    def __init__(self, path: str, suffix: str):
        self._own, self._suffix, self._files = Path(path).resolve(), suffix, None

    def __bool__(self) -> bool:
        return True  # asked before any lookup; the walk decides what is really there

    def _load(self) -> dict[str, str]:
        if self._files is None:
            self._files = {}
            for other in _walk(self._own.parent, self._suffix):
                if other.resolve() == self._own or other.stat().st_size > MAX_SCHEMA_BYTES:
                    continue
                try:
                    self._files[str(other)] = decode(str(other), other.read_bytes())
                except (OSError, SchemaError):
                    continue  # not a usable schema: it defines nothing
        return self._files

    def __getitem__(self, key: str) -> str:
        return self._load()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


def _walk(root: Path, suffix: str) -> Iterator[Path]:
    """Files ending in `suffix` under root, visiting at most MAX_WALKED entries."""
    visited = 0
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            visited += 1
            if visited > MAX_WALKED:
                return
            if name.endswith(suffix):
                yield Path(folder) / name


def own_root_first(path: str, roots: tuple[str, ...]) -> tuple[str, ...]:
    """The import roots with the one holding `path` first: `--proto-path old --proto-path new`
    must resolve NEW's imports from new/, not from the old copy of the tree."""
    where = Path(path).resolve()
    holding = [root for root in roots if where.is_relative_to(Path(root).resolve())]
    if not holding:
        return roots
    # The deepest root that holds the file is its own; the rest keep their order.
    own = max(holding, key=lambda root: len(Path(root).resolve().parts))
    return (own, *(root for root in roots if root != own))
