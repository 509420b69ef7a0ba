"""Flags a `$ref` of the base that does not resolve: what the head has there was not checked.

Advisory (a warning in every mode): the base's reference names a file, `$id` or pointer its
schema set does not have, so no validator could use the base there and nothing can be compared
with the head. A head whose own reference does not resolve is an error instead (the file is
invalid), so this is the warning a pull request that repairs such a reference gets.

Example: the base has `{"$ref": "address-v1.json"}` and no file `address-v1.json`; the head
points it at `address-v2.json`, which exists.

Fix: check that the head's schema there accepts the data producers actually wrote.
"""
from ..model import ADVISORY, Format, Severity
from ..registry import RuleSpec
from .pairs import UncheckedPair

SPEC = RuleSpec(id="JSONSCHEMA_EXTERNAL_REF_CHANGED", format=Format.JSONSCHEMA, breaks=ADVISORY,
                severity=Severity.WARNING, summary="a base `$ref` that does not resolve: the head is not checked there")
PAIR = UncheckedPair
MESSAGE = ('The base\'s $ref {old} of "{path}" does not resolve, so what the head has there was '
           'not checked.')


def check(pair: UncheckedPair, ctx):
    refs = ", ".join(f'"{r}"' for r in sorted(pair.old.externals))
    yield SPEC.finding(path=pair.path, line=pair.line,
                       message=MESSAGE.format(path=pair.path, old=refs))
