"""Renderings of an outcome for machines and CI: GitHub workflow commands, JUnit XML, SARIF."""
from __future__ import annotations

import enum
import importlib

__all__ = ["Output", "render"]


class Output(str, enum.Enum):
    """`--output`: how `check` and `review` print their result."""

    TEXT = "text"
    JSON = "json"
    GITHUB = "github"
    JUNIT = "junit"
    SARIF = "sarif"


# Imported on use (the outcome's model too): `check` prints text by default, and its start-up
# time is measured.
MODULES = {Output.GITHUB: "github", Output.JUNIT: "junit", Output.SARIF: "sarif"}


def render(output: Output, outcome) -> str:
    """The outcome (a .model.Outcome) in a CI format; text and JSON belong to each command."""
    return importlib.import_module(f"{__name__}.{MODULES[output]}").render(outcome)
