"""Rule specs (id, format, where a rule breaks, default severity, purpose) and their lookup."""
from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from types import ModuleType
from collections.abc import Iterator

from .model import Direction, Finding, Format, Severity, Side, Suggestion


@dataclass(frozen=True)
class RuleSpec:
    """A rule's policy. The check body only says what happened; this says what it means."""

    id: str
    format: Format
    # Directions in which the flagged change breaks compatibility. Empty: advisory (the rule
    # reports at `severity` whatever the mode). Otherwise `severity` applies when the mode
    # includes one of these directions and the finding drops to info when it does not.
    breaks: frozenset[Direction]
    severity: Severity
    summary: str  # one line for the rules table
    # Who is hurt and how, when that is not "a reader cannot read the other side's data"
    # (the generic sentence for `breaks`): shown instead of it in the App's comments.
    impact: str = ""
    # protobuf: buf's breaking categories that hold the rule (rules/protobuf/categories.py). When
    # none of them is selected the rule is silent, or, with `outside` set, reported at that
    # severity as advisory (a rename is still worth a warning where it breaks nothing checked).
    categories: frozenset[str] = frozenset()
    outside: Severity | None = None

    def finding(self, *, path: str, line: int, message: str, side: Side = Side.NEW,
                suggestion: Suggestion | None = None,
                breaks: frozenset[Direction] | None = None,
                severity: Severity | None = None) -> Finding:
        """A finding of this rule; `breaks` and `severity` override the spec for this one case."""
        return Finding(rule=self.id, severity=severity or self.severity, line=line, path=path,
                       message=message, side=side, suggestion=suggestion, breaks=breaks)


# The format packages list their rule modules explicitly in RULES; this is their address book.
FORMAT_PACKAGES = {
    Format.AVRO: "rules.avro",
    Format.PROTOBUF: "rules.protobuf",
    Format.JSONSCHEMA: "rules.jsonschema",
}


def format_package(fmt: Format) -> ModuleType:
    return importlib.import_module(FORMAT_PACKAGES[fmt])


def rule_modules(fmt: Format | None = None) -> Iterator[ModuleType]:
    for each in ([fmt] if fmt else list(Format)):
        yield from format_package(each).RULES


def specs_for(fmt: Format | None = None) -> dict[str, RuleSpec]:
    return {module.SPEC.id: module.SPEC for module in rule_modules(fmt)}


def all_specs() -> dict[str, RuleSpec]:
    return specs_for(None)


def spec(rule_id: str) -> RuleSpec:
    try:
        return all_specs()[rule_id]
    except KeyError:
        raise KeyError(f"unknown rule {rule_id!r}") from None


def documentation(module: ModuleType) -> str:
    """The rule module's docstring: what it flags, why it breaks, an example, the fix."""
    return inspect.cleandoc(module.__doc__ or "")
