"""schema-review's rule engine: compare two versions of a schema, return findings with fixes."""
import importlib

from .engine import check, detect_format
from .model import (Direction, Example, Finding, Format, Mode, Options, Outcome, Policy, Report,
                    SchemaError, Severity, Side, Source, Suggestion)
from .registry import RuleSpec, all_specs
from .sources import decode, read

__all__ = ["budget", "OverBudget", "check", "detect_format", "Direction", "Example", "Outcome",
           "Finding", "Format", "Mode", "Options",
           "Policy", "Report", "SchemaError", "Severity", "Side", "Source", "Suggestion",
           "RuleSpec", "all_specs", "decode", "read"]


def __getattr__(name: str):
    # The budgeted worker pool (sandbox, wire, threads) is the App's; the CLI check never uses
    # it, so it is imported on first use (`rules.budget`, `rules.OverBudget`), not at start-up.
    if name == "budget":
        return importlib.import_module(".budget", __name__)
    if name == "OverBudget":
        return importlib.import_module(".budget", __name__).OverBudget
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
