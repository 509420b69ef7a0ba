"""Renderings of an outcome for machines and CI: GitHub workflow commands, JUnit XML, SARIF."""
from __future__ import annotations

import importlib

from .model import FileResult, Located, Outcome, Output, RuleHelp, from_report

__all__ = ["FileResult", "Located", "Outcome", "Output", "RuleHelp", "from_report", "render"]

# Imported on use: `check` prints text by default and its start-up time is measured.
MODULES = {Output.GITHUB: "github", Output.JUNIT: "junit", Output.SARIF: "sarif"}


def render(output: Output, outcome: Outcome) -> str:
    """The outcome in a CI format (text and JSON belong to each command: they differ)."""
    return importlib.import_module(f"{__name__}.{MODULES[output]}").render(outcome)
