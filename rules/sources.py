"""Turning untrusted bytes (a local file or a fetched blob) into a Source, within the limits."""
from __future__ import annotations

from pathlib import Path

from .limits import MAX_SCHEMA_BYTES
from .model import SchemaError, Source

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
    return Source(path=path, text=decode(path, data), proto_paths=own_root_first(path, proto_paths))


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
