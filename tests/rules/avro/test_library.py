"""Avro schemas split across files: named types defined in other .avsc files of the same tree."""
import json

import pytest

import rules
from rules.model import SchemaError

CURRENCY = {"type": "enum", "name": "Currency", "namespace": "com.shop", "symbols": ["EUR", "USD"]}
MONEY = {"type": "record", "name": "Money", "namespace": "com.shop",
         "fields": [{"name": "units", "type": "long"}, {"name": "currency", "type": "com.shop.Currency"}]}
ORDER = {"type": "record", "name": "Order", "namespace": "com.shop",
         "fields": [{"name": "id", "type": "string"}, {"name": "total", "type": "com.shop.Money"}]}


def _tree(root, files: dict) -> str:
    for name, schema in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(schema, indent=2) + "\n")
    return str(root / "order.avsc")


def _with_field(schema: dict, field: dict) -> dict:
    return {**schema, "fields": [*schema["fields"], field]}


@pytest.mark.parametrize("layout", [
    {"order.avsc": ORDER, "common/money.avsc": MONEY, "common/currency.avsc": CURRENCY},
    {"order.avsc": ORDER, "money.avsc": MONEY, "z/deep/currency.avsc": CURRENCY},
])
def test_types_from_sibling_files_resolve_and_an_unchanged_tree_is_clean(tmp_path, layout):
    old = _tree(tmp_path / "old", layout)
    new = _tree(tmp_path / "new", layout)
    report = rules.check(rules.read(old), rules.read(new))
    assert report.compatible and report.findings == ()


def test_a_change_in_a_used_file_is_reported_in_that_file_without_a_foreign_suggestion(tmp_path):
    files = {"order.avsc": ORDER, "common/money.avsc": MONEY, "common/currency.avsc": CURRENCY}
    old = _tree(tmp_path / "old", files)
    grown = _with_field(MONEY, {"name": "nanos", "type": "int"})
    new = _tree(tmp_path / "new", {**files, "common/money.avsc": grown})
    [finding] = rules.check(rules.read(old), rules.read(new)).findings
    assert finding.rule == "AVRO_FIELD_ADDED_WITHOUT_DEFAULT" and finding.path == "Money.nanos"
    assert finding.file == str(tmp_path / "new" / "common" / "money.avsc")
    lines = (tmp_path / "new" / "common" / "money.avsc").read_text().splitlines()
    # the line is in the file named: the field's object starts there
    assert lines[finding.line - 1].strip() == "{" and '"nanos"' in lines[finding.line]
    assert finding.suggestion is None  # made from order.avsc's text, it would edit the wrong file


def test_each_side_resolves_from_its_own_tree(tmp_path):
    old = _tree(tmp_path / "old", {"order.avsc": ORDER, "money.avsc": MONEY, "currency.avsc": CURRENCY})
    renamed = {**CURRENCY, "symbols": ["EUR"]}
    new = _tree(tmp_path / "new", {"order.avsc": ORDER, "money.avsc": MONEY, "currency.avsc": renamed})
    rules_found = {f.rule for f in rules.check(rules.read(old), rules.read(new)).findings}
    assert "AVRO_ENUM_SYMBOL_REMOVED" in rules_found


def test_an_undefined_type_is_still_an_error_naming_it(tmp_path):
    path = _tree(tmp_path, {"order.avsc": ORDER, "money.avsc": {**MONEY, "name": "Cash"}})
    with pytest.raises(SchemaError, match='unknown type "com.shop.Money"'):
        rules.check(rules.read(path), rules.read(path))


def test_an_error_inside_a_used_file_names_that_file(tmp_path):
    broken = {**MONEY, "fields": [{"name": "units", "type": "lung"}]}
    path = _tree(tmp_path, {"order.avsc": ORDER, "money.avsc": broken})
    with pytest.raises(SchemaError) as error:
        rules.check(rules.read(path), rules.read(path))
    assert error.value.file.endswith("money.avsc") and "lung" in str(error.value)
