"""Repository path globs where `*` stays inside one directory and `**` crosses directories."""
from __future__ import annotations

import functools
import re

# `**/` at the start or in the middle: zero or more whole directories.
_ANY_DIRS = "(?:[^/]+/)*"


@functools.lru_cache(maxsize=512)
def compile_glob(pattern: str) -> re.Pattern[str]:
    """A regex matching whole repository paths (no leading slash) against `pattern`.

    fnmatch lets `*` cross `/` and has no `**`, so `**/*.avsc` would miss a root-level file.
    """
    out, i, n = [], 0, len(pattern.lstrip("/"))
    pattern = pattern.lstrip("/")
    while i < n:
        if pattern.startswith("**/", i):
            out.append(_ANY_DIRS)
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 2:]:
            end = pattern.index("]", i + 2)
            body = pattern[i + 1:end]
            negate = body[:1] in ("!", "^")
            body = re.escape(body[1:] if negate else body).replace(r"\-", "-")
            out.append(f"[{'^/' if negate else ''}{body}]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def matches(path: str, patterns: tuple[str, ...] | list[str]) -> bool:
    return any(compile_glob(pattern).match(path) for pattern in patterns)
