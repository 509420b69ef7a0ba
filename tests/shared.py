"""Where the read-only reference data in ../shared lives; its absence fails tests, never skips."""
from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
WEBHOOK_EXAMPLES = SHARED / "github" / "webhook-examples"


def shared_path(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"reference data missing: {path} (CI lays ../shared beside the clone)")
    return path


def webhook_example(name: str) -> dict:
    return json.loads(shared_path("github", "webhook-examples", f"{name}.json").read_text())
