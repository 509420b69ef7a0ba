"""Where the read-only reference data in ../shared lives, and what its absence means.

The data (GitHub's OpenAPI subset and webhook examples, the Avro, Protobuf and JSON Schema
conformance cases) is never copied into the repository. A fresh clone has no ../shared: the tests
that read it are skipped with one reason (tests/conftest.py turns `SharedDataMissing` into that
skip). CI always lays ../shared beside its clone; with `CI` set, its absence is an error.
A ../shared that exists but lacks a file is always an error: the data is incomplete.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
ABSENT = ("reference data ../shared is absent (a fresh clone has none; CI lays it beside the "
          "clone): the tests that read it are skipped, see README 'Tests'")
ABSENT_IN_CI = "reference data missing: {path} (CI must lay ../shared beside the clone)"
INCOMPLETE = "reference data missing: {path} (../shared exists but lacks it)"


class SharedDataMissing(FileNotFoundError):
    """../shared as a whole is absent: outside CI the test is skipped, in CI it fails."""


def in_ci(environ=os.environ) -> bool:
    return environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def shared_path(*parts: str) -> Path:
    """<repo>/../shared/<parts>; SharedDataMissing when ../shared is absent, else it must exist."""
    path = SHARED.joinpath(*parts)
    if path.exists():
        return path
    if not SHARED.is_dir():
        raise SharedDataMissing(ABSENT_IN_CI.format(path=path) if in_ci() else ABSENT)
    raise FileNotFoundError(INCOMPLETE.format(path=path))


def module_data(*parts: str) -> Path:
    """shared_path for data read while a test module is imported (its parameters).

    Without ../shared (outside CI) the whole module is skipped, with the same reason and location
    as every other skip for that cause.
    """
    try:
        return shared_path(*parts)
    except SharedDataMissing:
        if in_ci():
            raise
        skip_absent()


def skip_absent():
    import pytest
    # Every skip for a missing ../shared is reported from this line (see SKIP_LOCATION).
    pytest.skip(ABSENT, allow_module_level=True)


SKIP_LOCATION = (str(Path(__file__)), skip_absent.__code__.co_firstlineno + 3)


def webhook_example(name: str) -> dict:
    return json.loads(shared_path("github", "webhook-examples", f"{name}.json").read_text())
