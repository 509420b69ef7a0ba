"""Schemas split across files: the CLI checks a file with its tree's other files, and two
directory trees pair by relative path (tests/rules/trees/shop: Avro named types shared across
`.avsc` files, JSON Schemas `$ref`-ing each other by path and by `$id`, a buf module under
`proto/`)."""
import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.shared import REPO

SHOP = Path(__file__).parent / "trees" / "shop"
CURRENCY = ("avro/common/currency.avsc", "AVRO_ENUM_SYMBOL_REMOVED", "Currency.JPY", "error")
ADDRESS = "schemas/common/address.schema.json"
DEFS = "schemas/common/defs.schema.json"
ORDER_PROTO = "proto/acme/shop/v1/order.proto"  # imports resolve from proto/ (its buf.yaml)
PROTO = {(ORDER_PROTO, "PROTO_FIELD_DELETED_NOT_RESERVED", "Order.coupon", "error"),
         (ORDER_PROTO, "PROTO_FIELD_DELETED_NOT_DEPRECATED", "Order.coupon", "warning")}
# What the whole tree's change breaks, where each break is visible, and through which file.
TREE_FINDINGS = {
    CURRENCY,
    (ADDRESS, "JSONSCHEMA_PROPERTY_MADE_REQUIRED", "$.zip", "error"),  # once, users named
    (DEFS, "JSONSCHEMA_CONSTRAINT_LOOSENED", "Order.lines[].sku/maxLength", "info"),
    *PROTO,
}


def run(*args, module="rules", cwd=SHOP):
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True,
                          cwd=cwd, timeout=120, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})


def shaped(stdout: str) -> set:
    return {(f["file"], f["rule"], f["path"], f["severity"]) for f in json.loads(stdout)["findings"]}


def test_directories_pair_files_and_report_each_break_where_it_is_with_relative_paths():
    result = run("check", "old", "new", "--json")
    assert result.returncode == 1, result.stderr
    assert result.stderr == ""
    assert shaped(result.stdout) == TREE_FINDINGS


@pytest.mark.parametrize("file, expected", [
    ("avro/shop/order.avsc", {CURRENCY}),  # Order -> Money -> Currency, three files
    (ORDER_PROTO, PROTO),  # importing money.proto from the module root buf.yaml names
    ("avro/shop/refund.avsc", {CURRENCY}),
    ("avro/common/money.avsc", {CURRENCY}),  # Money gained `nanos` with a default: fine
    ("schemas/orders/order.schema.json", {  # by relative path, and into another file's $defs
        (ADDRESS, "JSONSCHEMA_PROPERTY_MADE_REQUIRED", "Order.shipTo.zip", "error"),
        (DEFS, "JSONSCHEMA_CONSTRAINT_LOOSENED", "Order.lines[].sku/maxLength", "info")}),
    ("schemas/orders/customer.schema.json", {  # by `$id`, and a file referencing itself
        (ADDRESS, "JSONSCHEMA_PROPERTY_MADE_REQUIRED", "Customer.home.zip", "error")}),
])
def test_one_file_is_checked_with_the_other_files_of_its_tree(file, expected):
    result = run("check", f"old/{file}", f"new/{file}", "--json")
    assert result.returncode == 1, result.stderr
    assert {(f.removeprefix("new/").removeprefix("old/"), *rest)
            for f, *rest in shaped(result.stdout)} == expected


# Issue 21: a change to a shared file is one finding, at its definition, naming its users.
USED_BY = {
    "Currency.JPY": " Used by avro/common/money.avsc, avro/shop/order.avsc, avro/shop/refund.avsc.",
    "$.zip": " Used by schemas/orders/customer.schema.json (Customer.home.zip), "
             "schemas/orders/order.schema.json (Order.shipTo.zip).",
}


def test_a_shared_change_is_counted_once_at_its_definition_with_its_users():
    result = run("check", "old", "new", "--json")
    findings = json.loads(result.stdout)["findings"]
    assert len(findings) == len({(f["rule"], f["file"], f["line"]) for f in findings}) == 5
    for finding in findings:
        assert finding["message"].endswith(USED_BY.get(finding["path"], ".")), finding
        assert "Used by" in finding["message"] or finding["path"] not in USED_BY
    text = run("check", "old", "new").stdout.splitlines()[-1]
    assert text.startswith("incompatible (backward): 3 error(s), 1 warning(s), 1 info")


PROTO_MONEY = 'syntax = "proto3";\npackage shop;\n\nmessage Money {{\n  {units} units = 1;\n}}\n'
PROTO_USER = ('syntax = "proto3";\npackage shop;\nimport "money.proto";\n\n'
              'message {name} {{\n  string id = 1;\n  Money total = 2;\n}}\n')


def test_an_imported_protobuf_type_is_reported_once_where_it_is_defined(tmp_path):
    for side, units in (("old", "int64"), ("new", "string")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "money.proto").write_text(PROTO_MONEY.format(units=units))
        for name in ("Order", "Invoice"):
            (tmp_path / side / f"{name.lower()}.proto").write_text(PROTO_USER.format(name=name))
    trees = json.loads(run("check", "old", "new", "--json", cwd=tmp_path).stdout)["findings"]
    assert [(f["file"], f["line"], f["rule"], f["path"]) for f in trees] == [
        ("money.proto", 5, "PROTO_FIELD_TYPE_INCOMPATIBLE", "Money.units")]
    assert trees[0]["message"].endswith(" Used by invoice.proto, order.proto.")
    # File mode: the user checked alone names the file and line that define Money.units.
    files = json.loads(run("check", "old/order.proto", "new/order.proto", "--proto-path", "old",
                           "--proto-path", "new", "--json", cwd=tmp_path).stdout)["findings"]
    assert [(f["file"], f["line"], f["side"] if "side" in f else "new") for f in files] == [
        ("new/money.proto", 5, "new")]
    junit = run("check", "old/order.proto", "new/order.proto", "--proto-path", "old",
                "--proto-path", "new", "--output", "junit", cwd=tmp_path).stdout
    cases = {case.get("name"): case.find("failure") for case in ET.fromstring(junit).iter("testcase")}
    assert list(cases) == ["new/money.proto", "new/order.proto"] and cases["new/order.proto"] is None
    assert cases["new/money.proto"].get("type") == "PROTO_FIELD_TYPE_INCOMPATIBLE"


def test_an_unchanged_tree_is_clean_and_an_unresolvable_url_stays_external():
    # order.schema.json's tracking $ref names a URL no file declares: compared by its text.
    result = run("check", "old", "old", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["findings"] == []


def test_a_removed_shared_type_is_reported_once_where_it_is_used_with_exit_2(tmp_path):
    new = tmp_path / "new"
    shutil.copytree(SHOP / "new", new)
    (new / "avro/common/currency.avsc").unlink()
    result = run("check", str(SHOP / "old"), str(new), "--json")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        'error: avro/common/money.avsc:7: unknown type "com.shop.Currency" (named types must be '
        'defined before they are used)']
    assert "the schema file was removed" in result.stdout


def test_cycles_across_files_end(tmp_path):
    for side in ("old", "new"):
        (tmp_path / side).mkdir()
        kind = "string" if side == "old" else "integer"  # the trees differ: they are compared
        (tmp_path / side / "a.schema.json").write_text(
            '{"properties": {"b": {"$ref": "b.schema.json"}, "n": {"type": "%s"}}}' % kind)
        (tmp_path / side / "b.schema.json").write_text(
            '{"properties": {"a": {"$ref": "a.schema.json"}, "loop": {"$ref": "c.schema.json#/x"}}}')
        (tmp_path / side / "c.schema.json").write_text('{"x": {"$ref": "b.schema.json#/properties/loop"}}')
    result = run("check", str(tmp_path / "old"), str(tmp_path / "new"), "--json")
    assert result.returncode == 2  # the purely circular chain is reported, not followed forever
    assert "circular" in result.stderr
    for side in ("old", "new"):  # mutual recursion alone (a -> b -> a) is a fine schema
        (tmp_path / side / "b.schema.json").write_text('{"properties": {"a": {"$ref": "a.schema.json"}}}')
    result = run("check", str(tmp_path / "old"), str(tmp_path / "new"), "--json")
    assert result.returncode == 1, result.stderr
    # Reported where the type is, by the first route the walk took to it (through b or not).
    assert {(f["file"], f["line"], f["rule"]) for f in json.loads(result.stdout)["findings"]} == {
        ("a.schema.json", 1, "JSONSCHEMA_TYPE_CHANGED")}


def test_config_selects_files_and_modes_and_explicit_flags_win(tmp_path):
    config = tmp_path / "schema-review.yml"
    config.write_text("compatibility: forward\npaths:\n  avro: []\n")

    def severities(*flags):
        result = run("check", "old", "new", "--json", "--config", str(config), *flags,
                     module="bot.local.cli")
        assert result.returncode == 1, result.stderr
        report = json.loads(result.stdout)
        return report["mode"], {(f["rule"], f["severity"]) for f in report["findings"]}

    # Avro is turned off; forward readers reject the longer SKUs, required zip breaks backward.
    # A deleted, unreserved proto field is an error in every mode.
    proto = {(rule, severity) for _file, rule, _path, severity in PROTO}
    assert severities() == ("forward", {("JSONSCHEMA_PROPERTY_MADE_REQUIRED", "info"),
                                        ("JSONSCHEMA_CONSTRAINT_LOOSENED", "error"), *proto})
    assert severities("--mode", "backward") == ("backward", {
        ("JSONSCHEMA_PROPERTY_MADE_REQUIRED", "error"), ("JSONSCHEMA_CONSTRAINT_LOOSENED", "info"), *proto})


@pytest.mark.parametrize("text, problem", [
    ("compatibility: sideways\n", "compatibility"),
    # a base in another repository cannot be read here: refused, never reviewed without it
    ("_extends: .github\ncompatibility: forward\n", "_extends: .github's config cannot be read here"),
])
def test_config_errors_and_the_engine_without_a_config_reader_exit_2(tmp_path, text, problem):
    config = tmp_path / "schema-review.yml"
    config.write_text(text)
    bad = run("check", "old", "new", "--config", str(config), module="bot.local.cli")
    assert bad.returncode == 2 and problem in bad.stderr, bad.stderr
    plain = run("check", "old", "new", "--config", str(config))
    assert plain.returncode == 2 and "schema-review" in plain.stderr


def test_a_ref_retargeted_into_another_files_required_is_reported_there(tmp_path):
    # The finding's holder sits in defs.schema.json: its suggestion is not looked for in the
    # lines of order.schema.json (that was an IndexError, exit 1 with a traceback).
    defs = json.dumps({"$defs": {
        "line": {"type": "object", "properties": {"sku": {"type": "string"}}},
        "line2": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}}},
        indent=2)
    order = '{"type": "object", "properties": {"line": {"$ref": "../common/defs.schema.json#/$defs/line"}}}\n'
    for side, text in (("old", order), ("new", order.replace("/line\"", "/line2\""))):
        (tmp_path / side / "common").mkdir(parents=True)
        (tmp_path / side / "orders").mkdir()
        (tmp_path / side / "common" / "defs.schema.json").write_text(defs)
        (tmp_path / side / "orders" / "order.schema.json").write_text(text)
    for old, new in ((tmp_path / "old", tmp_path / "new"),
                     (tmp_path / "old/orders/order.schema.json", tmp_path / "new/orders/order.schema.json")):
        result = run("check", str(old), str(new), "--json")
        assert result.returncode == 1 and result.stderr == "", result.stderr
        assert [(f["file"].rsplit("/", 2)[-2:], f["line"], f["rule"], f["suggestion"])
                for f in json.loads(result.stdout)["findings"]] == [
            (["common", "defs.schema.json"], 18, "JSONSCHEMA_PROPERTY_MADE_REQUIRED", None)]  # "required"


@pytest.mark.parametrize("how", ["relative", "absolute"])
def test_a_ref_never_reads_a_file_outside_the_checkout(tmp_path, how):
    # A hostile schema naming a file elsewhere on the CI runner must not get its text into the
    # output (it would reach logs and annotations): the reference does not resolve (exit 2).
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "creds.json").write_text('{"enum": ["SECRET-TOKEN-123"]}')
    target = "../../secret/creds.json" if how == "relative" else str(tmp_path / "secret" / "creds.json")
    for side, schema in (("old", {"type": "string"}), ("new", {"$ref": target})):
        (tmp_path / side / "schemas").mkdir(parents=True)
        (tmp_path / side / "schemas" / "x.json").write_text(
            json.dumps({"type": "object", "properties": {"a": schema}}))
    for old, new in ((tmp_path / "old", tmp_path / "new"),
                     (tmp_path / "old/schemas/x.json", tmp_path / "new/schemas/x.json")):
        result = run("check", str(old), str(new), "--examples")
        assert "SECRET-TOKEN-123" not in result.stdout + result.stderr
        assert result.returncode == 2 and "does not resolve" in result.stderr, result.stderr


def test_junk_files_hide_nothing_and_a_tree_over_the_bound_is_never_compatible(tmp_path, monkeypatch):
    from rules import tree
    from rules.model import Mode, Options

    user = '{"type":"record","name":"User","fields":[{"name":"age","type":"%s"}]}'
    for side, kind in (("old", "int"), ("new", "string")):
        (tmp_path / side / "schemas").mkdir(parents=True)
        (tmp_path / side / "schemas" / "user.avsc").write_text(user % kind)
    (tmp_path / "new" / "00junk").mkdir()
    for i in range(6):
        (tmp_path / "new" / "00junk" / f"f{i}").write_text("")
    monkeypatch.setattr(tree, "MAX_TREE_FILES", 3)

    def checked():
        return tree.check_trees(str(tmp_path / "old"), str(tmp_path / "new"), mode=Mode.BACKWARD,
                                classify=tree.by_extension(Mode.BACKWARD), options=Options())
    # Files that are not schemas are not counted: the break is still found.
    result = checked()
    assert result.exit_code == 1 and [f.rule for f in result.report.findings] == ["AVRO_TYPE_CHANGED"]
    for i in range(3):  # more schema files than the bound: nothing compared, exit 2
        (tmp_path / "new" / "schemas" / f"other{i}.avsc").write_text(user % "int")
    result = checked()
    assert result.exit_code == 2
    assert ["not compared" in p.problem for p in result.problems] == [True]


def test_a_copy_declaring_a_shared_files_id_cannot_stand_in_for_it(tmp_path):
    # An added file with the changed file's `$id` and its old text would otherwise hide the
    # change from every file that references that `$id`.
    ident = "https://acme.example/schemas/defs.schema.json"

    def defs(*required):
        return json.dumps({"$id": ident, "$defs": {"line": {"type": "object", "required": list(required),
                                                           "properties": {"sku": {}, "qty": {}}}}})
    order = json.dumps({"$id": "https://acme.example/schemas/order.schema.json", "type": "object",
                        "properties": {"line": {"$ref": ident + "#/$defs/line"}}})
    for side, shared in (("old", defs("sku")), ("new", defs("sku", "qty"))):
        (tmp_path / side / "common").mkdir(parents=True)
        (tmp_path / side / "orders").mkdir()
        (tmp_path / side / "common" / "defs.schema.json").write_text(shared)
        (tmp_path / side / "orders" / "order.schema.json").write_text(order)
    result = run("check", str(tmp_path / "old"), str(tmp_path / "new"), "--json")
    assert result.returncode == 1  # the control: the new required property breaks Order
    (tmp_path / "new" / "zz").mkdir()
    (tmp_path / "new" / "zz" / "decoy.schema.json").write_text(defs("sku"))
    result = run("check", str(tmp_path / "old"), str(tmp_path / "new"), "--json")
    assert result.returncode == 2 and json.loads(result.stdout)["compatible"] is False
    assert "is ambiguous" in result.stderr and "decoy.schema.json" in result.stderr


ORDER = {"type": "record", "name": "Order", "namespace": "shop",
         "fields": [{"name": "id", "type": "long"}, {"name": "total", "type": "long"}]}
BROKEN = {**ORDER, "fields": [{"name": "id", "type": "long"}, {"name": "total", "type": "string"}]}
EVENT = {"type": "object", "properties": {"id": {"type": "integer"}, "note": {"type": "string"},
                                         "kind": {"enum": ["a", "b", "c"]}}}


def _trees(tmp_path, old: dict, new: dict) -> tuple[Path, Path]:
    for side, files in (("old", old), ("new", new)):
        for rel, schema in files.items():
            (tmp_path / side / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / side / rel).write_text(json.dumps(schema))
    return tmp_path / "old", tmp_path / "new"


@pytest.mark.parametrize("old, new, code, said", [
    # the same Avro full name at another path, a field's type changed: compared, a break
    ({"avro/shop/order.avsc": ORDER}, {"avro/orders/order.avsc": BROKEN}, 1, "AVRO_TYPE_CHANGED"),
    ({"avro/shop/order.avsc": ORDER}, {"avro/orders/order.avsc": ORDER}, 0, "its types are in"),
    # no $id: followed by content when alike, and a property's type changed shows
    ({"s/event.json": EVENT},
     {"t/event.json": {**EVENT, "properties": {**EVENT["properties"], "id": {"type": "string"}}}},
     1, "JSONSCHEMA_TYPE_CHANGED"),
    # no $id and nothing alike beside it: whether it moved is not known, so not a pass
    ({"s/event.json": EVENT}, {"t/other.json": {"type": "array", "items": {"type": "number"}}}, 2,
     "not found alike enough"),
], ids=["moved-and-broken", "moved-unchanged", "moved-by-content-and-broken", "unsure"])
def test_a_schema_moved_to_another_path_is_followed(tmp_path, old, new, code, said):
    old_dir, new_dir = _trees(tmp_path, old, new)
    result = run("check", str(old_dir), str(new_dir))
    assert result.returncode == code, result.stdout + result.stderr
    assert said in result.stdout + result.stderr


ORDER_INC = 'syntax = "proto3";\npackage shop;\nimport "types.inc";\nmessage Order { Money total = 1; }\n'
MONEY_INC = 'syntax = "proto3";\npackage shop;\nmessage Money { int64 cents = 1; }\n'


@pytest.mark.parametrize("changed, code", [
    ({"types.inc": MONEY_INC.replace("int64", "string")}, 1),  # old bytes: cents read as ""
    ({"notes.txt": "b\n"}, 0),
], ids=["imported-file-changed", "unimported-file-changed"])
def test_a_proto_import_of_another_suffix_is_part_of_the_schema(tmp_path, changed, code):
    for side, files in (("old", {}), ("new", changed)):
        tree = {"order.proto": ORDER_INC, "types.inc": MONEY_INC, "notes.txt": "a\n", **files}
        for rel, text in tree.items():
            (tmp_path / side / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / side / rel).write_text(text)
    result = run("check", str(tmp_path / "old"), str(tmp_path / "new"))
    assert result.returncode == code, result.stdout + result.stderr
    assert ("PROTO_FIELD_TYPE_INCOMPATIBLE" in result.stdout) is (code == 1)
