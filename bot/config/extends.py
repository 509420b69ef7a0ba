"""`_extends`: a repository's config refines a shared base file, as in Probot (one level, same owner).

`_extends: .github` reads `.github/schema-review.yml` from the owner's `.github` repository (the
organisation's defaults); `_extends: other-repo` (or `owner/other-repo`, same owner) from that one.
The base is read at its default branch's exact ref (`refs/heads/<branch>`), merged under the
repository's file (mappings merge key by key, the repository wins; lists and values are replaced),
and every message still names the file and line a value came from.
"""
from __future__ import annotations

import re
from typing import Callable

from bot.config.configfile import ConfigError, Node, load

EXTENDS_KEY = "_extends"
REPO_NAME = re.compile(r"[A-Za-z0-9._-]{1,100}")
OWNER_NAME = re.compile(r"[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}")
BAD_TARGET = "expected a repository of the same owner: `.github`, `NAME` or `{owner}/NAME`"
OTHER_OWNER = "a base from another owner ({owner}) is not read; copy it into a repository of {mine}"
ITSELF = "a repository cannot extend itself"
NO_BASE = "{target} has no {path} on its default branch, or this App cannot read that repository"
ONE_LEVEL = "the base of `_extends` cannot extend another file (one level only)"
NOT_LOCAL = ("{target}'s config cannot be read here (only this repository is), and without it "
             "the settings would not be the App's; pass --config a file with the merged settings")


def split_target(node: Node, *, owner: str = "OWNER") -> tuple[str, str]:
    """(owner or "", repository name) as `_extends` writes them; the shape only. Raises ConfigError."""
    target_owner, _, target = node.string().strip().rpartition("/")
    if (not REPO_NAME.fullmatch(target) or target in (".", "..")
            or (target_owner and not OWNER_NAME.fullmatch(target_owner))):
        raise node.error(BAD_TARGET.format(owner=owner))
    return target_owner, target


def extends_target(root: Node, *, owner: str, name: str) -> str | None:
    """The repository (`owner/name`) that the file's `_extends` names, or None. Raises ConfigError."""
    if not isinstance(root.value, dict) or EXTENDS_KEY not in root.value:
        return None
    node = root.value[EXTENDS_KEY]
    target_owner, target = split_target(node, owner=owner)
    if target_owner and target_owner.lower() != owner.lower():
        raise node.error(OTHER_OWNER.format(owner=target_owner, mine=owner))
    if target.lower() == name.lower():
        raise node.error(ITSELF)
    return f"{owner}/{target}"


def with_base(root: Node, *, owner: str, name: str, path: str,
              read_base: Callable[[str], str | None]) -> Node:
    """`root` merged over the base it names (if any); `read_base(full_name)` gives the base's text."""
    target = extends_target(root, owner=owner, name=name)
    if target is None:
        return root
    text = read_base(target)
    if text is None:
        raise root.value[EXTENDS_KEY].error(NO_BASE.format(target=target, path=path))
    base = load(text, file=f"{target}:{path}")
    if base.value is None:
        return root
    if isinstance(base.value, dict) and EXTENDS_KEY in base.value:
        raise base.value[EXTENDS_KEY].error(ONE_LEVEL)
    return merge(base, root)


def no_base_here(root: Node) -> Node:
    """`extend` for a local review (CLI, Action, pre-commit): `_extends` always names another
    repository (never this one), which a local checkout does not hold at a trusted ref. Dropping
    the base would review with other settings than the App's, so the file is refused instead."""
    if not isinstance(root.value, dict) or EXTENDS_KEY not in root.value:
        return root
    node = root.value[EXTENDS_KEY]
    split_target(node)  # a malformed value gets the usual message
    raise node.error(NOT_LOCAL.format(target=node.string().strip()))


def merge(base: Node, top: Node) -> Node:
    """Mappings merge key by key (top wins); anything else in `top` replaces the base's value."""
    if not (isinstance(base.value, dict) and isinstance(top.value, dict)):
        return top
    merged = dict(base.value)
    for key, child in top.value.items():
        merged[key] = merge(base.value[key], child) if key in base.value else child
    return Node(top.key, top.line, merged, top.file)


__all__ = ["ConfigError", "EXTENDS_KEY", "extends_target", "merge", "no_base_here", "split_target",
           "with_base"]
