"""Flags a dependency that was removed (`dependentRequired`, `dependentSchemas`, `dependencies`).

Why it breaks: new data may have the trigger property without what the old schema demanded
with it, and consumers still on the old schema reject it (FORWARD). Backward compatible.

Example: `"dependentRequired": {"creditCard": ["billingAddress"]}` was removed.

Fix: none for backward compatibility; for forward or full, keep producing the dependent data.
"""
from ..model import FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from . import dependencies
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_DEPENDENCY_REMOVED", format=Format.JSONSCHEMA, breaks=FORWARD_ONLY,
                severity=Severity.ERROR, summary="a property dependency was removed")
PAIR = SchemaPair
MESSAGE = 'Dependency of "{path}" was removed: {what}.'


def check(pair: SchemaPair, ctx):
    for kind, path, what, line in dependencies.changes(pair.old, pair.new, pair.path):
        if kind == dependencies.REMOVED:
            yield SPEC.finding(path=path, line=line, message=MESSAGE.format(path=pair.path, what=what))
