"""Flags a new dependency: `dependentRequired`/`dependentSchemas` (draft-07 `dependencies`).

Why it breaks: objects that have the trigger property must now also satisfy the dependency;
old data written without it fails the new schema (BACKWARD).

Example: `"dependentRequired": {"creditCard": ["billingAddress"]}` was added; an old
`{"creditCard": "..."}` without a billing address no longer validates.

Fix: add the dependency only once old data satisfies it, or enforce it in producers.
"""
from ..model import BACKWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import dependencies
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_DEPENDENCY_ADDED", format=Format.JSONSCHEMA, breaks=BACKWARD_ONLY,
                severity=Severity.ERROR, summary="a property dependency was added")
PAIR = SchemaPair
MESSAGE = 'Dependency of "{path}" was added: {what}.'


def check(pair: SchemaPair, ctx):
    for kind, path, what, line in dependencies.changes(pair.old, pair.new, pair.path, ctx):
        if kind == dependencies.ADDED:
            yield SPEC.finding(path=path, line=line, message=MESSAGE.format(path=pair.path, what=what))
