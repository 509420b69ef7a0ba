"""Reading a local file under review: a regular file only, never through a link, never blocking.

A repository is untrusted: a schema file that is a symbolic link would have its target's text
(any file of the machine) read and reported, a FIFO would hang the reader, and a link to
/dev/zero would grow memory until the kernel steps in. So the file is opened with O_NOFOLLOW
(a link is refused, not followed) and O_NONBLOCK (opening a FIFO does not wait for a writer),
fstat decides on the open descriptor (no race with a swap) and at most `limit` + 1 bytes are
ever read.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .model import SchemaError

SYMLINK = "a symbolic link, which is never followed: schema files must be regular files"
LINKED_PARENT = ("under a symbolic link ({link}), which is never followed: schema files must be "
                 "regular files in the tree")
NOT_REGULAR = "a {kind}, not a regular file: not read"
TOO_LARGE = "file is {size:,} bytes, over the {limit:,}-byte limit for a schema"
UNREADABLE = "cannot read file: {problem}"
KINDS = ((stat.S_ISDIR, "directory"), (stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"),
         (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket"), (stat.S_ISLNK, "symbolic link"))
FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


class Refused(SchemaError):
    """A link or a special file: refused by kind, whatever its content (never "not found")."""


def refusal(mode: int) -> str | None:
    """Why an entry of this st_mode (from lstat or fstat) is not read, or None: a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return SYMLINK
    kind = next((name for test, name in KINDS if test(mode)), "special file")
    return NOT_REGULAR.format(kind=kind)


def read_regular(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; else a SchemaError saying why."""
    try:
        fd = os.open(path, FLAGS)
    except OSError as error:
        if error.errno == errno.ELOOP:  # O_NOFOLLOW's answer for a link as the last component
            raise Refused(str(path), None, SYMLINK) from None
        raise SchemaError(str(path), None, UNREADABLE.format(problem=error.strerror or error)) from None
    try:
        info = os.fstat(fd)
        if (why := refusal(info.st_mode)) is not None:
            raise Refused(str(path), None, why)
        if info.st_size > limit:
            raise SchemaError(str(path), None, TOO_LARGE.format(size=info.st_size, limit=limit))
        chunks, left = [], limit + 1  # a file that grows while read still stops here
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as error:
        raise SchemaError(str(path), None, UNREADABLE.format(problem=error.strerror or error)) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise SchemaError(str(path), None, TOO_LARGE.format(size=len(data), limit=limit))
    return data


def linked_parent(path: str | Path, top: str | Path) -> str | None:
    """The first directory of `path` below `top` that is a symbolic link (None: there is none).
    `path` is taken as spelled, with `..` folded; one outside `top` has none (the caller's
    own bound decides on it)."""
    spelled, real = os.path.normpath(os.path.abspath(top)), os.path.realpath(top)
    current = os.path.normpath(os.path.abspath(path))
    while True:
        parent = os.path.dirname(current)
        if parent == spelled:
            return None
        if os.path.islink(parent):  # before the comparison below: a link back to `top` is one
            return parent
        if os.path.realpath(parent) == real:  # `top` spelled another way (a link above it)
            return None
        if parent == current:
            return None  # never reached `top`: outside it
        current = parent
