"""Flags a `$ref` to another document that changed: it could not be checked.

Advisory (a warning in every mode): only references inside the file are resolved; a
reference to another file or URL is compared by its text. A different target may or may not
be compatible.

Example: `{"$ref": "address-v1.json"}` became `{"$ref": "address-v2.json"}`.

Fix: check the referenced schemas' compatibility separately (or inline them).
"""
from ..model import ADVISORY, Format, Severity
from ..registry import RuleSpec
from .pairs import SchemaPair

SPEC = RuleSpec(id="JSONSCHEMA_EXTERNAL_REF_CHANGED", format=Format.JSONSCHEMA, breaks=ADVISORY,
                severity=Severity.WARNING, summary="a reference to another document changed")
PAIR = SchemaPair
MESSAGE = 'External $ref of "{path}" was changed from {old} to {new}; it was not checked.'


def check(pair: SchemaPair, ctx):
    if pair.old.externals != pair.new.externals:
        show = lambda refs: ", ".join(f'"{r}"' for r in sorted(refs)) or "none"
        yield SPEC.finding(path=pair.path, line=pair.new.key_line("$ref"),
                           message=MESSAGE.format(path=pair.path, old=show(pair.old.externals),
                                                  new=show(pair.new.externals)))
