"""Imports: supplied texts and proto_path roots resolve; imported types the file uses are compared."""
import pytest

import rules
from rules.model import Severity, Side
from tests.rules.protobuf.support import WIRE, check, rules_of, source

MAIN = ('syntax = "proto3";\n\npackage shop;\n\nimport "common/money.proto";\n\n'
        'message Order {\n  string id = 1;\n  common.Money total = 2;\n}\n')
MONEY = 'syntax = "proto3";\n\npackage common;\n\nmessage Money {\n  {units} units = 1;\n}\n'


def _money(kind: str) -> dict:
    return {"common/money.proto": MONEY.replace("{units}", kind)}


def test_change_inside_an_imported_type_is_reported_at_the_using_field():
    report = check(source(MAIN, path="order.proto", imports=_money("int64")),
                   source(MAIN, path="order.proto", imports=_money("string")))
    [finding] = report.findings
    assert (finding.rule, finding.path, finding.line, finding.side) == (
        "PROTO_FIELD_TYPE_INCOMPATIBLE", "Money.units", 9, Side.NEW)
    assert finding.suggestion is None  # the fix belongs in the imported file


def test_identical_imports_report_nothing():
    report = check(source(MAIN, imports=_money("int64")), source(MAIN, imports=_money("int64")))
    assert report.findings == ()


def test_imported_type_moving_package_keeps_its_identity():
    moved = MAIN.replace("common/money.proto", "billing/money.proto").replace("common.Money", "billing.Money")
    imports = {"billing/money.proto": MONEY.replace("package common", "package billing")
               .replace("{units}", "int64")}
    report = check(source(MAIN, imports=_money("int64")), source(moved, imports=imports))
    assert report.findings == ()


def test_a_file_under_a_proto_path_root_imports_its_siblings(tmp_path):
    root = tmp_path / "protos"
    (root / "shop").mkdir(parents=True)
    (root / "shop" / "money.proto").write_text(
        'syntax = "proto3";\npackage shop;\nmessage Money {\n  int64 units = 1;\n}\n')
    order = root / "shop" / "order.proto"
    text = ('syntax = "proto3";\npackage shop;\nimport "shop/money.proto";\n'
            'message Order {\n  Money total = 1;\n  string note = 2;\n}\n')
    order.write_text(text)
    roots = (str(root),)
    report = check(source(text, path=str(order), proto_paths=roots),
                   source(text.replace("  string note = 2;\n", ""), path=str(order),
                          proto_paths=roots))
    assert rules_of(report) == {"PROTO_FIELD_DELETED_NOT_RESERVED",
                                "PROTO_FIELD_DELETED_NOT_DEPRECATED"}


def test_supplied_imports_take_precedence_over_well_known_and_roots():
    timestamp = ('syntax = "proto3";\nimport "google/protobuf/timestamp.proto";\n'
                 'message Event {\n  google.protobuf.Timestamp at = 1;\n}\n')
    report = check(source(timestamp), source(timestamp))
    assert report.findings == ()


def test_wire_only_adds_a_note_and_skips_json_rules():
    old = 'syntax = "proto3";\nmessage M {\n  int32 count = 1;\n  string gone = 2;\n}\n'
    new = 'syntax = "proto3";\nmessage M {\n  int64 count = 1;\n  reserved 2;\n}\n'
    wire = check(old, new, categories=WIRE)
    assert rules_of(wire) == {"PROTO_FIELD_DELETED_NOT_DEPRECATED"}
    assert wire.compatible and len(wire.notes) == 1
    both = check(old, new)
    assert rules_of(both, at_least=Severity.ERROR) == {"PROTO_FIELD_JSON_TYPE_CHANGED",
                                                        "PROTO_FIELD_DELETED_NOT_RESERVED"}
    assert both.notes == ()


def test_recursive_message_types_terminate():
    tree = ('syntax = "proto3";\nimport "node.proto";\nmessage Tree {\n  Node root = 1;\n}\n')
    node = ('syntax = "proto3";\nmessage Node {\n  repeated Node children = 1;\n  {kind} value = 2;\n}\n')
    report = check(source(tree, imports={"node.proto": node.replace("{kind}", "int32")}),
                   source(tree, imports={"node.proto": node.replace("{kind}", "double")}))
    assert [(f.rule, f.path) for f in report.findings] == [("PROTO_FIELD_TYPE_INCOMPATIBLE",
                                                            "Node.value")]


COMMON = 'syntax = "proto3";\npackage acme;\nmessage Money {{ int64 units = 1; }}\n{extra}'
ORDER = 'syntax = "proto3";\npackage acme;\nimport "acme/common.proto";\nmessage Order {{ Money total = 1;{extra} }}\n'


def _tree(root, *, common_extra: str, order_extra: str) -> str:
    (root / "acme").mkdir(parents=True)
    (root / "acme" / "common.proto").write_text(COMMON.format(extra=common_extra))
    (root / "acme" / "order.proto").write_text(ORDER.format(extra=order_extra))
    return str(root / "acme" / "order.proto")


@pytest.mark.parametrize("roots_order", ["old-first", "new-first"])
def test_each_side_resolves_imports_from_its_own_root_first(tmp_path, roots_order):
    """A commit that adds a type in one file and uses it in another compiles on its own side,
    whatever order the roots are given in (buf breaking --against does the same)."""
    old = _tree(tmp_path / "old", common_extra="", order_extra="")
    new = _tree(tmp_path / "new", common_extra="message Currency { string code = 1; }\n",
                order_extra=" Currency currency = 2;")
    roots = [str(tmp_path / "old"), str(tmp_path / "new")]
    if roots_order == "new-first":
        roots.reverse()
    report = rules.check(rules.read(old, proto_paths=tuple(roots)),
                         rules.read(new, proto_paths=tuple(roots)))
    assert report.compatible and report.findings == ()


def test_a_sibling_import_resolves_from_the_files_own_directory(tmp_path):
    # As the not-found message says: `check o/order.proto n/order.proto` with types.proto beside
    # each; the sibling's change shows (old bytes of an int64 read as a string fail).
    order = 'syntax = "proto3";\npackage shop;\nimport "types.proto";\nmessage Order { Money total = 1; }\n'
    money = 'syntax = "proto3";\npackage shop;\nmessage Money { int64 cents = 1; }\n'
    for side, text in (("o", money), ("n", money.replace("int64", "string"))):
        (tmp_path / side).mkdir()
        (tmp_path / side / "order.proto").write_text(order)
        (tmp_path / side / "types.proto").write_text(text)
    report = rules.check(rules.read(str(tmp_path / "o" / "order.proto")),
                         rules.read(str(tmp_path / "n" / "order.proto")))
    assert [f.rule for f in report.findings] == ["PROTO_FIELD_TYPE_INCOMPATIBLE"]
