"""schema-review's version, from one place: pyproject.toml's `version`, which is what the
installed package's metadata holds; a source checkout (not installed) reads the file itself."""
from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "schema-review"
CHECKOUT_PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
UNKNOWN = "unknown"


def version() -> str:
    if CHECKOUT_PYPROJECT.is_file():  # a source checkout: its own file, not another install's
        with CHECKOUT_PYPROJECT.open("rb") as handle:
            project = tomllib.load(handle).get("project", {})
        if project.get("name") == DISTRIBUTION:  # not some other project's file beside the package
            return project["version"]
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return UNKNOWN
