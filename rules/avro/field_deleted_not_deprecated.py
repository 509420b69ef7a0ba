"""Flags a record field that NEW deletes without OLD having marked it deprecated.

Why it matters: deleting a field, even one with a default, silently takes data away from its
consumers. The deprecation lifecycle gives them a release to stop relying on it: first mark the
field deprecated, then delete it. This rule is advisory (a warning in every mode); whether the
deletion also breaks reading is the separate `AVRO_FIELD_REMOVED_WITHOUT_DEFAULT`.

Convention: a field is deprecated when it has the attribute `"deprecated": true`, or when its
`doc` starts with "Deprecated" or "@deprecated" (case-insensitive). Avro ignores both.

Example: OLD has `{"name": "fax", "type": ["null", "string"], "default": null}`, NEW drops it ->
`Field "Contact.fax" was deleted without being deprecated first.`

Fix: restore the field with `"deprecated": true` (or a "Deprecated: ..." doc), ship that, and
delete it in a later change.
"""
from ..model import ADVISORY, Format, Severity, Side
from ..registry import RuleSpec
from .pairs import FieldPair

SPEC = RuleSpec(id="AVRO_FIELD_DELETED_NOT_DEPRECATED", format=Format.AVRO, breaks=ADVISORY,
                severity=Severity.WARNING,
                summary="A field was deleted without being deprecated first.")
PAIR = FieldPair
MESSAGE = 'Field "{path}" was deleted without being deprecated first.'


def check(pair: FieldPair, ctx):
    if pair.new is not None or pair.old is None or pair.old.deprecated:
        return
    yield SPEC.finding(path=pair.path, line=pair.old.line, side=Side.OLD,
                       message=MESSAGE.format(path=pair.path))
