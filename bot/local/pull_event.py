"""The pull request's base and head commits, as the GitHub Actions runner describes them."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Mapping

from bot.local.git import LocalError

SHA = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")  # SHA-1 or SHA-256 object names
UNREADABLE = "cannot read the event file {path}: {problem}"
NO_PULL_REQUEST = ("the event in {path} is not about a pull request and GITHUB_BASE_REF is not "
                   "set: run on pull_request events, or pass --base and --head")


def refs(path: Path, *, environ: Mapping[str, str] = os.environ) -> tuple[str, str]:
    """(base, head): the event's pull_request base and head SHAs; else, on a pull request's
    run that carries no such payload, origin/$GITHUB_BASE_REF and the checked-out HEAD."""
    try:
        event = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        problem = getattr(error, "strerror", None) or str(error)
        raise LocalError(UNREADABLE.format(path=path, problem=problem)) from None
    pull = event.get("pull_request") if isinstance(event, dict) else None
    if isinstance(pull, dict):
        shas = [_sha(pull.get(side)) for side in ("base", "head")]
        if all(shas):
            return shas[0], shas[1]
    base_ref = environ.get("GITHUB_BASE_REF", "")
    if base_ref:
        return f"origin/{base_ref}", "HEAD"
    raise LocalError(NO_PULL_REQUEST.format(path=path))


def _sha(side: object) -> str | None:
    sha = side.get("sha") if isinstance(side, dict) else None
    return sha if isinstance(sha, str) and SHA.fullmatch(sha) else None
