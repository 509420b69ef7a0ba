"""docs/rules.md is generated from the rule modules and must match them."""
from rules.docs import DOCS_PATH, render
from rules.registry import all_specs, documentation, rule_modules


def test_rules_page_is_current():
    assert DOCS_PATH.read_text() == render(), "run: python -m rules docs"


def test_every_rule_documents_why_and_fix():
    for module in rule_modules():
        text = documentation(module)
        assert len(text.splitlines()) >= 3, f"{module.SPEC.id} needs what/why/example/fix docs"


def test_rule_ids_are_format_prefixed_and_unique():
    prefixes = {"avro": "AVRO_", "protobuf": "PROTO_", "jsonschema": "JSONSCHEMA_"}
    ids = [m.SPEC.id for m in rule_modules()]
    assert len(ids) == len(set(ids)) == len(all_specs())
    for module in rule_modules():
        assert module.SPEC.id.startswith(prefixes[module.SPEC.format.value])
