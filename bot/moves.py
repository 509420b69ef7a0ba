"""A schema moved to a new file: GitHub lists a removal and an addition when the two files share
too little text to call it a rename, yet the type is the same (an Avro full name, a protobuf
`package.Message`, a JSON Schema `$id`). Paired up, they are compared like a rename, so moving a
type cannot hide its breaking change (a removal alone is a warning, an addition has no base)."""
from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Callable

from rules import Format

# Protobuf's top level, roughly: comments and string literals out, then braces counted (one
# line may hold a whole file).
# Every alternative always matches (an unterminated comment or string runs to the end of the
# file or line), so the scan stays linear on a hostile file of unclosed `/*` or quotes.
NOISE = re.compile(r'//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"?' + r"|'(?:\\.|[^'\\\n])*'?", re.DOTALL)
TOKENS = re.compile(r"[{}]|\bpackage\s+([\w.]+)|\b(?:message|enum|service)\s+(\w+)")
RENAMED = "renamed"  # the files API's status (bot.review.FileStatus.RENAMED)


def identities(fmt: Format, text: str | bytes | None) -> frozenset[str]:
    """The type names a schema file defines at its top level (empty when unreadable)."""
    if text is None:
        return frozenset()
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if fmt is Format.PROTOBUF:
        return _proto_types(text)
    try:
        data = json.loads(text)
    except ValueError:
        return frozenset()
    if not isinstance(data, dict):
        return frozenset()
    if fmt is Format.JSONSCHEMA:
        return frozenset({data["$id"]}) if isinstance(data.get("$id"), str) else frozenset()
    name, namespace = data.get("name"), data.get("namespace")
    if not isinstance(name, str):
        return frozenset()
    return frozenset({name if "." in name or not isinstance(namespace, str) else f"{namespace}.{name}"})


def _proto_types(text: str) -> frozenset[str]:
    depth, package, names = 0, "", []
    for token in TOKENS.finditer(NOISE.sub(" ", text)):
        if token.group(0) == "{":
            depth += 1
        elif token.group(0) == "}":
            depth = max(depth - 1, 0)
        elif token.group(1) and depth == 0:
            package = token.group(1) + "."
        elif token.group(2) and depth == 0:
            names.append(token.group(2))
    return frozenset(package + name for name in names)


def paired(changes: list, classify: Callable) -> list:
    """`changes` with each removed file that defines a type an added file of the same format
    defines too replaced by one renamed change from the first to the second."""
    removed = [c for c in changes if c.head_text is None and c.base_text is not None]
    added = [c for c in changes if c.base_text is None and c.head_text is not None]
    if not removed or not added:
        return changes
    merged, used = {}, set()
    for gone in removed:
        old = classify(gone.path)
        if old is None:
            continue
        names = identities(old.format, gone.base_text)
        for new in added:
            fresh = classify(new.path)
            if id(new) in used or fresh is None or fresh.format is not old.format:
                continue
            if names & identities(fresh.format, new.head_text):
                used.update((id(gone), id(new)))
                merged[id(new)] = replace(
                    new, status=RENAMED, previous_path=gone.path, base_text=gone.base_text,
                    base_imports=gone.base_imports, history=gone.history,
                    blob_ids=(gone.blob_ids[0], new.blob_ids[1]), problem=gone.problem or new.problem)
                break
    return [merged.get(id(c), c) for c in changes if id(c) not in used or id(c) in merged]
