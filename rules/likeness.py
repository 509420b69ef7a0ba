"""How alike two versions of a schema file are, to follow a type that moved to another file: the
type names both define (rules/type_names.py), or, where a file has none, the share of content
features they have in common (JSON: every scalar with the object keys leading to it, list
positions left out so a removed field shifts nothing; Protobuf: its tokens, comments aside),
over the larger file's count, at least SIMILAR (git's rename threshold). Used by the App
(bot/review/moves.py) and by directory mode (rules/tree.py)."""
from __future__ import annotations

import json
import re
from collections import Counter
from typing import Iterator

from . import type_names
from .model import Format

NOISE = type_names.NOISE  # protobuf's comments and string literals, out of its content features
WORDS = re.compile(r"[\w.]+|[^\w\s]")
SIMILAR = 0.5  # shared features over the larger file's: git's default rename threshold (-M50%)
MAX_DEPTH = 256  # JSON nesting walked for features (deeper is left out)
# Content comparisons per review, at most (each costs both files' features); beyond it the
# unpaired removals without an identity fail closed.
MAX_COMPARISONS = 10_000


def identities(fmt: Format, text: str | bytes | None) -> frozenset[str]:
    """The type names a schema file defines, nested ones included (empty when unreadable)."""
    return frozenset(type_names.defined(fmt, text).names)


def features(fmt: Format, text: str | bytes | None) -> Counter:
    """What content pairing compares (see the module's docstring); empty when unreadable."""
    if text is None:
        return Counter()
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if fmt is Format.PROTOBUF:
        return Counter(WORDS.findall(NOISE.sub(" ", text)))
    try:
        return Counter(_leaves(json.loads(text.removeprefix("\ufeff")), (), 0))
    except (ValueError, RecursionError):
        return Counter()


def _leaves(node, keys: tuple, depth: int) -> Iterator[tuple]:
    if depth > MAX_DEPTH:
        return
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, (*keys, key), depth + 1)
    elif isinstance(node, list):
        for item in node:
            yield from _leaves(item, keys, depth + 1)
    else:
        yield (keys, json.dumps(node))


def similarity(old: Counter, new: Counter) -> float:
    larger = max(sum(old.values()), sum(new.values()))
    return sum((old & new).values()) / larger if larger else 0.0
