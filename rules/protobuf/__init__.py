"""protobuf support: compile with protoc, pair old/new elements, run the rules listed in RULES."""
from __future__ import annotations

import dataclasses
from typing import Iterable

from ..model import ADVISORY, Finding, Options, Side
from . import (enum_deleted, extension_deleted, enum_value_deleted, enum_value_deleted_not_reserved,
               enum_value_number_changed, enum_value_renamed, field_cardinality_changed,
               field_default_changed, field_deleted, field_deleted_not_deprecated,
               field_deleted_not_reserved, field_json_cardinality_changed,
               field_json_name_changed, field_json_type_changed, field_language_type_changed,
               field_number_changed, field_oneof_alone_changed, field_oneof_changed, field_presence_changed,
               field_renamed, field_type_changed, field_type_incompatible,
               field_type_reference_changed, field_utf8_validation_changed, file_option_changed,
               message_deleted, oneof_renamed, package_changed, required_field_changed,
               reserved_deleted, rpc_deleted, rpc_idempotency_changed, rpc_signature_changed,
               service_deleted, syntax_changed)
from .categories import checks_json
from .context import Context
from .pairs import walk
from .parse import parse

RULES = (
    package_changed,
    syntax_changed,
    file_option_changed,
    message_deleted,
    enum_deleted,
    extension_deleted,
    field_deleted_not_reserved,
    field_deleted,
    field_deleted_not_deprecated,
    field_number_changed,
    field_renamed,
    field_json_name_changed,
    field_type_incompatible,
    field_type_reference_changed,
    field_json_type_changed,
    field_type_changed,
    field_language_type_changed,
    field_cardinality_changed,
    field_json_cardinality_changed,
    field_presence_changed,
    field_oneof_changed,
    field_oneof_alone_changed,
    oneof_renamed,
    required_field_changed,
    field_default_changed,
    field_utf8_validation_changed,
    reserved_deleted,
    enum_value_deleted_not_reserved,
    enum_value_deleted,
    enum_value_number_changed,
    enum_value_renamed,
    service_deleted,
    rpc_deleted,
    rpc_signature_changed,
    rpc_idempotency_changed,
)
WIRE_ONLY_NOTE = ("Protobuf checks use buf's WIRE category only: JSON names and JSON-only type "
                  "changes are not checked.")
_BY_KIND: dict = {}
for _rule in RULES:
    for _kind in _rule.KINDS:
        _BY_KIND.setdefault(_kind, []).append(_rule)
_SILENT = object()

__all__ = ["RULES", "parse", "compare", "notes"]


def compare(old, new, options: Options) -> Iterable[Finding]:
    """Every selected rule's findings for each old/new pair, in one walk."""
    new_schema, old_schema = new.schema(Side.NEW), old.schema(Side.OLD)
    ctx = Context(old=old_schema, new=new_schema, categories=options.proto_categories,
                  buf_off=options.proto_buf_off)
    policy = {rule: _policy(rule.SPEC, options) for rule in RULES}
    for pair in walk(old_schema, new_schema):
        for rule in _BY_KIND.get(pair.kind, ()):
            outside = policy[rule]
            if outside is _SILENT:
                continue
            for finding in rule.check(pair, ctx):
                finding = _at_definition(finding, pair)
                yield finding if outside is None else dataclasses.replace(
                    finding, severity=outside, breaks=ADVISORY)


def _at_definition(finding: Finding, pair) -> Finding:
    """A finding about an imported type is shown where that type is defined, in the imported
    file (once, however many files use it), when the file's path is known; else it stays on
    the field of this file that uses the type (pairs.Pair.anchor)."""
    if not pair.imported:
        return finding
    element, side = (pair.new, Side.NEW) if pair.new is not None else (pair.old, Side.OLD)
    file = getattr(getattr(element, "index", None), "file", "")
    if not file or not element.line:
        return finding
    return dataclasses.replace(finding, file=file, line=element.line, side=side, suggestion=None)


def _policy(spec, options: Options):
    """None: the spec's own policy applies; a Severity: advisory at it; _SILENT: not run."""
    if spec.categories & options.proto_categories or spec.id in options.proto_rules:
        return None
    return spec.outside or _SILENT


def notes(options: Options) -> tuple[str, ...]:
    return () if checks_json(options.proto_categories) else (WIRE_ONLY_NOTE,)
