"""buf's categories select protobuf rules as buf does: by the categories each rule's spec names."""
from __future__ import annotations

import pytest

from rules.protobuf import RULES, categories
from tests.rules.protobuf.support import check, rules_of

DELETED = ('syntax = "proto3";\npackage shop.v1;\nmessage Order { string id = 1; }\n'
           'message Legacy { string id = 1; }\nenum Old { OLD_UNSPECIFIED = 0; }\n')
KEPT = 'syntax = "proto3";\npackage shop.v1;\nmessage Order { string id = 1; }\n'
RENAMED = KEPT.replace("string id = 1", "string key = 1")


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.SPEC.id)
def test_every_rule_names_its_categories_and_sits_in_every_stricter_one(rule):
    held = rule.SPEC.categories
    assert held, "a protobuf rule must say which of buf's categories hold it"
    assert held == categories.from_(min(held, key=categories.ORDER.index))


@pytest.mark.parametrize("selected, reported", [
    ({"WIRE"}, set()), ({"WIRE_JSON"}, set()),
    ({"PACKAGE"}, {"PROTO_MESSAGE_DELETED", "PROTO_ENUM_DELETED"}),
    ({"FILE"}, {"PROTO_MESSAGE_DELETED", "PROTO_ENUM_DELETED"}),
])
def test_deleted_types_are_silent_in_the_wire_categories_and_errors_for_generated_code(selected, reported):
    report = check(DELETED, KEPT, categories=selected)
    assert rules_of(report) == reported
    assert report.compatible is not reported


@pytest.mark.parametrize("selected, severity", [
    ({"WIRE"}, "warning"), ({"WIRE_JSON"}, "error"), ({"PACKAGE"}, "error"), ({"FILE"}, "error")])
def test_a_rename_is_an_error_wherever_json_or_generated_code_is_protected(selected, severity):
    report = check(KEPT, RENAMED, categories=selected)
    assert [(f.rule, f.severity.value) for f in report.findings] == [("PROTO_FIELD_RENAMED", severity)]


def test_a_rule_named_outside_the_categories_runs_at_its_own_policy():
    """buf.yaml may `use:` a rule id beside a category (rules/protobuf/buf.py maps it)."""
    import rules
    from rules.model import Options
    from tests.rules.protobuf.support import source

    options = Options(proto_categories=frozenset({"WIRE"}),
                      proto_rules=frozenset({"PROTO_MESSAGE_DELETED"}))
    report = rules.check(source(DELETED), source(KEPT), format=rules.Format.PROTOBUF,
                         options=options)
    assert rules_of(report) == {"PROTO_MESSAGE_DELETED"}
