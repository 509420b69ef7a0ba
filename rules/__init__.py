"""schema-review's rule engine: compare two versions of a schema, return findings with fixes."""
from . import budget
from .budget import OverBudget
from .engine import check, detect_format
from .model import (Direction, Example, Finding, Format, Mode, Options, Outcome, Policy, Report,
                    SchemaError, Severity, Side, Source, Suggestion)
from .registry import RuleSpec, all_specs
from .sources import decode, read

__all__ = ["budget", "OverBudget", "check", "detect_format", "Direction", "Example", "Outcome",
           "Finding", "Format", "Mode", "Options",
           "Policy", "Report", "SchemaError", "Severity", "Side", "Source", "Suggestion",
           "RuleSpec", "all_specs", "decode", "read"]
