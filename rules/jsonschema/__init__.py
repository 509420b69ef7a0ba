"""jsonschema support: parse, pair old/new elements, run the jsonschema rules (listed in RULES)."""
from __future__ import annotations

import dataclasses
from typing import Iterator

from ..model import Finding, Options, SchemaError, Side
from . import (branch_added, branch_removed, condition_changed, constraint_changed, constraint_loosened,
               constraint_tightened, content_model_narrowed, content_model_widened,
               dependency_added, dependency_removed, enum_changed, enum_narrowed, enum_widened,
               external_ref_changed, oneof_branch_overlaps, outside, property_added,
               property_made_optional, property_made_required, property_removed,
               property_removed_without_deprecation, property_renamed,
               required_default_not_applied, required_property_added, required_undeclared,
               type_changed, type_narrowed, type_widened)
from .context import Context
from .parse import Parsed, as_latest, parse

RULES = (
    type_narrowed, type_widened, type_changed,
    enum_narrowed, enum_widened, enum_changed,
    constraint_tightened, constraint_loosened, constraint_changed,
    required_property_added, property_made_required, property_made_optional,
    required_default_not_applied, required_undeclared,
    property_added, property_removed, property_renamed, property_removed_without_deprecation,
    content_model_narrowed, content_model_widened,
    dependency_added, dependency_removed, condition_changed,
    branch_removed, branch_added, oneof_branch_overlaps,
    external_ref_changed,
)
LENIENT_NOTE = ("Policy lenient decided part of this comparison: producers are assumed never to "
                "write properties a schema does not declare, so adding an optional property to "
                "an open content model is compatible. The strict policy follows Confluent's "
                "classification instead (CLI: --policy strict; App: jsonschema.policy: strict).")

AS_LATEST = ' (Read as 2020-12, as Python\'s jsonschema reads a schema that names no "$schema".)'
UNNAMED_NOTE = ('A schema that names no "$schema" is read as draft-07 (Confluent\'s and ajv\'s default) '
                'and as 2020-12 (Python jsonschema\'s): a change that breaks under either is reported. '
                'Declare "$schema" to be judged by one draft.')

__all__ = ["RULES", "parse", "compare"]


class Comparison:
    """One comparison's findings (iterate once) and, after that, its notes: the lenient policy
    is named only where its assumption decided a case, never on every run (a closed model,
    or an open one whose undeclared names changed nothing, leaves it unsaid). A second reading
    (a file naming no draft, read as 2020-12 too) adds the findings only it makes, saying so."""

    def __init__(self, contexts: list[Context]):
        self._contexts = contexts
        self._latest_added = False

    def __iter__(self) -> Iterator[Finding]:
        seen = set()
        for index, context in enumerate(self._contexts):
            for finding in map(_attributed, context.findings()):
                key = (finding.rule, finding.path, finding.side)
                if key in seen:
                    continue
                seen.add(key)
                if index:
                    self._latest_added = True
                    finding = dataclasses.replace(finding, message=finding.message + AS_LATEST)
                yield finding

    @property
    def notes(self) -> tuple[str, ...]:
        lenient = (LENIENT_NOTE,) if any(c.lenient_decided for c in self._contexts) else ()
        return lenient + ((UNNAMED_NOTE,) if self._latest_added else ())


def compare(old: Parsed, new: Parsed, options: Options) -> Comparison:
    """Raises the head's first reference that does not resolve (the base's stand for External,
    where nothing is compared: pairs.flat_pairs); references outside the repository do not
    count (outside.opaque), unless the base's set declared their target."""
    if new.refs.unresolved:
        error = new.refs.unresolved[0]
        error.side = Side.NEW
        raise error
    if old.refs.not_fetched:  # not a broken base, only an unread one: it cannot be excused
        first = old.refs.not_fetched[0]
        error = SchemaError(first.file, first.line, first.problem)
        error.side = Side.OLD
        raise error
    unread = outside.opaque(old, new)
    contexts = [Context(old, new, options, RULES, outside=unread)]
    latest = (as_latest(old), as_latest(new))
    if None not in latest and latest != (old, new):
        # A file naming no draft is read as draft-07 and as 2020-12: validators differ on it.
        contexts.append(Context(*latest, options, RULES, outside=outside.opaque(*latest)))
    return Comparison(contexts)


def _attributed(finding: Finding) -> Finding:
    """A finding whose line is in a referenced file names that file (where the change is).
    Suggestions are made from the checked file's own text, so one for another file is dropped."""
    file = getattr(finding.line, "file", None)
    if file is None:
        return finding
    return dataclasses.replace(finding, file=file, line=int(finding.line), suggestion=None)

