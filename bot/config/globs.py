"""Repository path globs (wcmatch): `*` stays inside one directory and `**` crosses directories."""
from __future__ import annotations

import functools

from wcmatch import glob

# GLOBSTAR: `**` spans directories (zero included); DOTGLOB: `*` also matches `.github/...`, as
# paths in a pull request are plain names, not a shell listing; FORCEUNIX: `/` whatever the host.
# No BRACE or NEGATE: `{` and a leading `!` stay literal, as they always have in this config.
FLAGS = glob.GLOBSTAR | glob.DOTGLOB | glob.FORCEUNIX


@functools.lru_cache(maxsize=512)
def compile_globs(patterns: tuple[str, ...]):
    """One matcher for whole repository paths; a leading `/` means the repository root."""
    return glob.compile([pattern.lstrip("/") for pattern in patterns], flags=FLAGS)


def matches(path: str, patterns: tuple[str, ...] | list[str]) -> bool:
    return bool(patterns) and compile_globs(tuple(patterns)).match(path)
