"""Turning untrusted bytes (a local file or a fetched blob) into a Source, within the limits."""
from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

from .limits import MAX_SCHEMA_BYTES
from .localfile import LINKED_PARENT, SYMLINK, TOO_LARGE, Refused, linked_parent, read_regular
from .model import SchemaError, Source

MAX_WALKED = 5000  # directory entries looked at for sibling schemas
MAX_PARENTS = 32  # directories looked at, upwards, for buf's layout files

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


def read(path: str, *, proto_paths: tuple[str, ...] = (), root: str | None = None) -> Source:
    """A Source from a local file (the CLI's OLD, NEW and --against arguments). Its schema
    set (`imports`) is the other files of its format under `root` (default: its directory)."""
    data = read_regular(path, MAX_SCHEMA_BYTES)  # a link, FIFO or device is refused
    suffix = Path(path).suffix.lower()
    imports = SiblingSchemas(path, suffix, root=root) if suffix in SET_SUFFIXES else {}
    deps: tuple[str, ...] = ()
    if path.endswith(".proto"):  # a buf module's roots, as `buf` itself would resolve imports
        layout = buf_layout(path)
        proto_paths = tuple(dict.fromkeys((*proto_paths, *layout.roots)))
        deps = layout.deps_of(str(Path(path).resolve()))
        # Last, the tree the file sits in (directory mode's, or the pair's), else its own
        # directory, as the not-found message says: a sibling import resolves.
        own = root if root is not None else str(Path(path).parent)
        proto_paths = tuple(dict.fromkeys((*own_root_first(path, proto_paths), own)))
    return Source(path=path, text=decode(path, data), proto_paths=proto_paths,
                  imports=imports, buf_deps=deps)


def buf_layout(path: str):
    """The buf modules declared by buf.yaml, buf.work.yaml or buf.gen.yaml files in the file's
    directory and its parents, up to the checkout holding it (a directory with `.git`)."""
    from .protobuf import bufyaml  # only protobuf files need it

    files, folder = {}, Path(path).resolve().parent
    for _level in range(MAX_PARENTS):
        for name in bufyaml.NAMES:
            candidate = folder / name
            if not os.path.lexists(candidate):
                continue
            try:  # a link is refused (it decides the policy); too large or unreadable: absent
                data = read_regular(candidate, bufyaml.MAX_BYTES)
            except Refused:
                raise
            except SchemaError:
                continue
            files[str(candidate)] = data.decode("utf-8", errors="replace")
        if (folder / ".git").exists() or folder.parent == folder:
            break
        folder = folder.parent
    return bufyaml.layout(files)


# Formats whose files name other files' schemas (Avro named types, JSON Schema `$ref`s); a
# protobuf file names its imports itself, resolved through the import roots instead.
SET_SUFFIXES = (".avsc", ".json")


class SiblingSchemas(Mapping):
    """A version's schema set from disk: the other files with the same extension under `root`
    (default: the file's directory), name -> text, where a name is spelled as the file's own
    path is (joined onto `root` as given). Walked only when a schema names something it does
    not hold itself, read file by file, and bounded: a huge directory is not walked whole."""

    def __init__(self, path: str, suffix: str, *, root: str | None = None):
        self._own = Path(path).resolve()
        self._root = os.path.dirname(path) if root is None else root
        self._suffix, self._paths, self._texts = suffix, None, {}
        self.cut_short = False  # the walk stopped at its bound: files past it are not listed

    def __bool__(self) -> bool:
        return True  # asked before any lookup; the walk decides what is really there

    def _load(self) -> dict[str, Path]:
        if self._paths is None:
            self._paths = {}
            top = Path(self._root or ".")
            for other in _walk(top, self._suffix):
                if other is None:
                    self.cut_short = True
                elif other.resolve() != self._own:
                    self._paths[os.path.join(self._root, other.relative_to(top).as_posix())] = other
        return self._paths

    def __getitem__(self, key: str) -> str:
        if key not in self._texts:
            other = self._load().get(key) or self._beyond(key)
            try:
                self._texts[key] = decode(key, read_regular(other, MAX_SCHEMA_BYTES))
            except Refused as error:  # a link or special file: refused, never "defines nothing"
                raise Refused(key, None, error.problem) from None
            except SchemaError:
                self._texts[key] = ""  # not a usable schema: it defines nothing
        return self._texts[key]

    def _beyond(self, key: str) -> Path:
        """A file named directly (a `$ref` by path) that the walk did not list: outside the
        root, or past the walk's bound. Only files of the same format, and only inside the
        checkout holding the file: a schema under review never reads the rest of the disk."""
        other = Path(key)
        if other.suffix.lower() != self._suffix:
            raise KeyError(key)
        checkout = _checkout(self._own, self._root)
        if (link := linked_parent(key, checkout)) is not None:
            raise Refused(key, None, LINKED_PARENT.format(link=link))
        if other.is_symlink() and Path(os.path.realpath(other.parent)).is_relative_to(checkout):
            raise Refused(key, None, SYMLINK)
        if not other.is_file() or other.resolve() == self._own:
            raise KeyError(key)
        if not other.resolve().is_relative_to(checkout):
            raise KeyError(key)
        return other

    def outside(self, key: str) -> bool:
        """Whether a path a reference names lies outside the checkout: never read, and whether
        such a file exists is never told."""
        return not Path(key).resolve().is_relative_to(_checkout(self._own, self._root))

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


def _checkout(own: Path, root: str | None) -> Path:
    """Where a schema's references may reach: the git checkout holding it (the nearest folder
    with `.git`), else the tree it was given with, else its own folder."""
    for folder in list(own.parents)[:MAX_PARENTS]:
        if (folder / ".git").exists():
            return folder
    return Path(root or own.parent).resolve()


def _walk(root: Path, suffix: str) -> Iterator[Path | None]:
    """Files ending in `suffix` under root, visiting at most MAX_WALKED entries (then None)."""
    visited = 0
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            visited += 1
            if visited > MAX_WALKED:
                yield None
                return
            if name.lower().endswith(suffix):
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


def paired_roots(old: str, new: str) -> tuple[str | None, str | None]:
    """The trees two files sit in, when they are the same file of two trees: for
    `old/avro/shop/order.avsc new/avro/shop/order.avsc` the trees are `old` and `new`, where
    the file's named types and `$ref`s are looked for. Else None (its own directory)."""
    old_parts, new_parts = Path(old).parts, Path(new).parts
    same = 0
    while (same < min(len(old_parts), len(new_parts)) - 1
           and old_parts[-1 - same] == new_parts[-1 - same]):
        same += 1
    if same < 2 or old_parts[:-same] == new_parts[:-same]:
        return None, None  # only the name is shared: two versions side by side
    return (str(Path(*old_parts[:-same])) if len(old_parts) > same else ".",
            str(Path(*new_parts[:-same])) if len(new_parts) > same else ".")
