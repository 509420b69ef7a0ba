"""Readable, stable element paths: `UserEvent.user.level`, `$.tags[]`, `$.pair[0]`, `$.x/maxLength`.

A path starts at the root schema's `title` when that is a plain name, otherwise at `$`.
`.name` steps into a property (`["odd name"]` when the name is not a plain identifier),
`[]` into the items of an array, `[i]` into a positional item, `.*` into
additionalProperties, and `/keyword` names a keyword or a keyword's subschema
(`/maxLength`, `/not`, `/oneOf[1]`, `/dependentSchemas/foo`). Like Confluent's paths, a path
never goes through `$ref`: a change inside a definition is reported where it is used.
"""
from __future__ import annotations

import json
import re

PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
ROOT = "$"


def root(schema: object) -> str:
    title = schema.get("title") if isinstance(schema, dict) else None
    return title if isinstance(title, str) and PLAIN.match(title) else ROOT


def prop(path: str, name: str) -> str:
    return f"{path}.{name}" if PLAIN.match(name) else f"{path}[{json.dumps(name)}]"


def keyword(path: str, *parts: object) -> str:
    return path + "".join(f"/{part}" for part in parts)


def leaf(path: str) -> str:
    """The last property name of a path, for titles (`UserEvent.userLevel` -> `userLevel`)."""
    return path.rsplit(".", 1)[-1]
