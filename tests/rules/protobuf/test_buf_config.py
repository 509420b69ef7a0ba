"""buf's layout files as untrusted input, and buf's rule ids mapped to ours (checked against the
buf CLI in the venv: the ids and categories are buf's own)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rules.model import Options
from rules.protobuf import RULES, bufrules, bufyaml
from rules.protobuf.bufyaml import Breaking, Unusable

BUF = shutil.which("buf") or str(Path(sys.executable).parent / "buf")
SPECS = {rule.SPEC.id: rule.SPEC for rule in RULES}
# Ours is narrower than buf's on purpose (the rule's docstring says why).
NARROWER = {"PROTO_ONEOF_RENAMED": "oneof names reach neither the wire nor JSON: a warning there",
            "PROTO_FIELD_ONEOF_ALONE_CHANGED": "a oneof of one field changes no payload: a warning "
                                               "under WIRE and WIRE_JSON"}
# Ours is wider than buf's: a break the runtime shows in payloads (bufrules.WIDER).
WIDER = {"PROTO_FIELD_UTF8_VALIDATION_CHANGED": "a reader verifying UTF-8 refuses the record",
         "PROTO_EXTENSION_DELETED": "a JSON parser refuses the deleted extension's key"}


@pytest.mark.parametrize("path, text, roots", [
    ("proto/buf.yaml", "version: v1\n", ("proto",)),
    ("buf.yaml", "", ("",)),
    ("buf.yaml", "version: v1beta1\nbuild:\n  roots: [proto, vendor/x]\n", ("proto", "vendor/x")),
    ("a/buf.yaml", "version: v2\nmodules:\n  - path: proto\n  - path: ./third_party/\n",
     ("a/proto", "a/third_party")),
    ("buf.work.yaml", "version: v1\ndirectories: [proto]\n", ("proto",)),
    ("buf.gen.yaml", "version: v2\ninputs:\n  - directory: proto\n  - module: buf.build/x/y\n",
     ("proto",)),
    ("buf.gen.yaml", "version: v1\nplugins: []\n", ()),
])
def test_layout_files_declare_module_roots(path, text, roots):
    assert tuple(m.root for m in bufyaml.modules(path, text)) == roots


@pytest.mark.parametrize("path, text, problem", [
    ("buf.yaml", "version: v2\nmodules:\n  - path: ../etc\n", "not a relative path"),
    ("x/buf.work.yaml", "directories: [/etc]\n", "not a relative path"),
    ("x/buf.work.yaml", "directories: [../y]\n", "not a relative path"),
    ("buf.yaml", "- a list\n", "expected a mapping"),
    ("buf.yaml", "a: [\n", "not valid YAML"),
    ("buf.yaml", "x: !!python/object:os.system {}\n", "not valid YAML"),
    ("buf.work.yaml", "directories: [1, 2]\n", "not a list of text"),
    ("buf.yaml", "breaking:\n  use: " + "[" * 2000 + "\n", "not valid YAML"),
    ("buf.yaml", "a: " + "x" * (bufyaml.MAX_BYTES + 1), "over"),
])
def test_an_unusable_layout_file_says_why(path, text, problem):
    with pytest.raises(Unusable, match=problem):
        bufyaml.modules(path, text)


def test_a_layout_collects_notes_and_finds_the_module_of_a_file():
    layout = bufyaml.layout({
        "buf.work.yaml": "version: v1\ndirectories: [proto, vendor]\n",
        "proto/buf.yaml": "version: v1\nbreaking:\n  use: [FILE]\n  ignore: [acme/legacy]\n",
        "vendor/buf.yaml": "version: v1\nmodules: {\n"})
    assert layout.roots == ("proto", "vendor")
    assert [note[:46] for note in layout.notes] == ["vendor/buf.yaml was not used: not valid YAML ("]
    module = layout.module_of("proto/acme/a.proto")
    assert module.breaking == Breaking(use=("FILE",), ignore=("proto/acme/legacy",))
    assert module.file == "proto/buf.yaml"
    assert layout.module_of("elsewhere/a.proto") is None


def test_candidates_are_each_parent_directory():
    assert bufyaml.candidates("a/b/c.proto")[::3] == ["a/b/buf.work.yaml", "a/buf.work.yaml",
                                                       "buf.work.yaml"]


def _apply(breaking: Breaking, path="proto/a.proto", **kwargs):
    return bufrules.options(breaking, kwargs.pop("base", Options()), path=path, file="buf.yaml",
                            categories_given=kwargs.pop("given", False), **kwargs)


def test_use_except_and_ignore_only_become_categories_rule_ids_and_severities():
    options, notes = _apply(Breaking(use=("WIRE_JSON", "MESSAGE_NO_DELETE", "FILE_SAME_GO_PACKAGE",
                                          "EXTENSION_MESSAGE_NO_DELETE"),
                                     except_=("FIELD_SAME_NAME",),
                                     ignore_only={"FIELD_SAME_JSON_NAME": ("proto",)}))
    assert options.proto_categories == {"WIRE_JSON"}
    assert options.proto_rules == {"PROTO_MESSAGE_DELETED", "PROTO_FILE_OPTION_CHANGED"}
    # A rename is both FIELD_SAME_NAME and FIELD_SAME_JSON_NAME: off only with both gone.
    assert dict(options.severities) == {"PROTO_FIELD_RENAMED": None,
                                        "PROTO_FIELD_JSON_NAME_CHANGED": None}
    assert notes == ("buf.yaml: buf rule EXTENSION_MESSAGE_NO_DELETE has no schema-review equivalent "
                     "and is not checked.",)


def test_a_rename_stays_reported_while_either_of_its_buf_ids_is_in_use():
    options, _ = _apply(Breaking(use=("WIRE_JSON",), except_=("FIELD_SAME_NAME",)))
    assert "PROTO_FIELD_RENAMED" not in options.severities
    options, _ = _apply(Breaking(use=("WIRE_JSON",), except_=("FIELD_SAME_JSON_NAME",)))
    assert "PROTO_FIELD_RENAMED" not in options.severities
    options, _ = _apply(Breaking(use=("WIRE_JSON",),
                                 except_=("FIELD_SAME_NAME", "FIELD_SAME_JSON_NAME")))
    assert options.severities["PROTO_FIELD_RENAMED"] is None


def test_a_deprecated_buf_id_named_in_use_runs_its_replacements_rules():
    options, notes = _apply(Breaking(use=("WIRE", "FIELD_SAME_CTYPE")))
    assert options.proto_rules == {"PROTO_FIELD_LANGUAGE_TYPE_CHANGED"} and not notes


def test_a_section_without_use_is_bufs_default_and_an_excepted_category_drops_its_rules():
    options, _ = _apply(Breaking())
    assert options.proto_categories == {"FILE"}
    options, _ = _apply(Breaking(use=("WIRE_JSON",), except_=("WIRE",)))
    # FILE_SAME_PACKAGE is in WIRE; FIELD_WIRE_JSON_COMPATIBLE_TYPE and FIELD_SAME_NAME are not.
    assert options.severities["PROTO_PACKAGE_CHANGED"] is None
    assert not {"PROTO_FIELD_TYPE_INCOMPATIBLE", "PROTO_FIELD_RENAMED"} & set(options.severities)


def test_schema_reviews_own_settings_win():
    base = Options(proto_categories=frozenset({"WIRE"}), severities={"PROTO_FIELD_RENAMED": None})
    options, notes = _apply(Breaking(use=("FILE",), except_=("FIELD_SAME_DEFAULT",)), base=base,
                            given=True, configured=frozenset({"PROTO_FIELD_RENAMED"}))
    assert options.proto_categories == {"WIRE"}
    assert dict(options.severities) == {"PROTO_FIELD_RENAMED": None}
    options, notes = _apply(Breaking(use=("WIRE_JSON",), except_=("FIELD_SAME_NAME",)),
                            base=Options(severities={"PROTO_FIELD_RENAMED": "warning"}))
    assert options.severities["PROTO_FIELD_RENAMED"] == "warning"


def test_an_unknown_rule_is_a_note():
    _, notes = _apply(Breaking(use=("WIRE_JSON", "FIELD_SAME_NAMES")))
    assert notes == ("buf.yaml: 'FIELD_SAME_NAMES' is not a buf breaking rule or category; ignored.",)


@pytest.fixture(scope="module")
def buf_rules(tmp_path_factory) -> dict[str, frozenset[str]]:
    folder = tmp_path_factory.mktemp("bufrules")
    (folder / "buf.yaml").write_text("version: v2\n")
    rules = []
    # v2's rules, and v1's deprecated ones (no category: they run when a buf.yaml names them).
    for version in ("v2", "v1"):
        done = subprocess.run([BUF, "config", "ls-breaking-rules", "--version", version,
                               "--include-deprecated", "--format", "json"], cwd=folder,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        rules += [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    # CSR (Confluent Schema Registry) is a category buf added for its registry, not one of the four.
    return {r["id"]: frozenset(r["categories"]) - {"CSR"} for r in rules}


def test_every_buf_rule_is_mapped_or_named_as_not_checked(buf_rules):
    assert set(bufrules.BUF_RULES) | set(bufrules.UNMAPPED) == set(buf_rules)
    assert not set(bufrules.BUF_RULES) & set(bufrules.UNMAPPED)
    assert all(reason.strip() for reason in bufrules.UNMAPPED.values())


def test_the_mapped_categories_are_bufs(buf_rules):
    assert {r: cats for r, (cats, _ours) in bufrules.BUF_RULES.items()} == \
        {r: buf_rules[r] for r in bufrules.BUF_RULES}


@pytest.mark.parametrize("rule", sorted(bufrules.OURS))
def test_each_rule_sits_in_the_categories_of_the_buf_rules_it_stands_for(rule):
    held = frozenset().union(*(cats for cats, ours in bufrules.BUF_RULES.values() if rule in ours))
    if rule in NARROWER:
        assert SPECS[rule].categories < held and SPECS[rule].outside is not None
    elif rule in WIDER:
        assert SPECS[rule].categories > held
    else:
        assert SPECS[rule].categories == held


@pytest.mark.parametrize("breaking, reported", [
    (Breaking(use=("FILE",)), {"option go_package", "option java_package", "Order.note"}),
    (Breaking(use=("FILE",), except_=("FILE_SAME_GO_PACKAGE",)), {"option java_package", "Order.note"}),
    (Breaking(use=("PACKAGE",), except_=("FIELD_SAME_CPP_STRING_TYPE",)),
     {"option go_package", "option java_package"}),
    (Breaking(use=("WIRE", "FIELD_SAME_CTYPE", "FILE_SAME_JAVA_PACKAGE")),
     {"option java_package", "Order.note"}),
    (Breaking(use=("FILE",), ignore_only={"FILE_SAME_JAVA_PACKAGE": ("proto",)}),
     {"option go_package", "Order.note"}),
])
def test_one_buf_id_per_option_is_honoured_on_its_own(breaking, reported):
    """buf has an id per file option (and per field option): excepting FILE_SAME_GO_PACKAGE
    leaves java_package checked, as `buf breaking` does."""
    from rules.model import Mode
    from tests.rules.protobuf.support import source

    import rules
    old = ('syntax = "proto3";\npackage shop.v1;\noption go_package = "a";\noption java_package = "a";\n'
           "message Order {\n  bytes note = 1;\n}\n")
    new = old.replace('"a"', '"b"').replace("note = 1;", "note = 1 [ctype = CORD];")
    options, _notes = _apply(breaking)
    report = rules.check(source(old, path="proto/a.proto"), source(new, path="proto/a.proto"),
                         mode=Mode.FULL, options=options)
    assert {f.path for f in report.findings} == reported


@pytest.mark.parametrize("output", ["json", "sarif"])
def test_json_and_sarif_name_every_buf_id_of_a_finding(tmp_path, output, capsys):
    """A rename is FIELD_SAME_NAME and FIELD_SAME_JSON_NAME to buf: both ids are named."""
    from rules.cli import main

    old = 'syntax = "proto3";\npackage shop.v1;\nmessage Order {\n  string user_name = 1;\n}\n'
    (tmp_path / "old.proto").write_text(old)
    (tmp_path / "new.proto").write_text(old.replace("user_name", "username"))
    from tests.rules.test_output import validate_sarif

    main(["check", str(tmp_path / "old.proto"), str(tmp_path / "new.proto"), "--output", output])
    text = capsys.readouterr().out
    data = validate_sarif(text) if output == "sarif" else json.loads(text)
    if output == "json":
        named = [finding["buf"] for finding in data["findings"]]
    else:
        named = [rule["properties"]["buf"] for rule in data["runs"][0]["tool"]["driver"]["rules"]]
    assert named == [["FIELD_SAME_JSON_NAME", "FIELD_SAME_NAME"]]


UTF8_OLD = 'syntax = "proto2";\npackage shop.v1;\nmessage Order {\n  optional string note = 1;\n}\n'
UTF8_NEW = 'syntax = "proto3";\npackage shop.v1;\nmessage Order {\n  string note = 1;\n}\n'


@pytest.mark.parametrize("breaking, reported", [
    (Breaking(use=("WIRE_JSON",)), True),
    (Breaking(use=("WIRE",)), True),
    (Breaking(), True),  # buf's default, FILE
    (Breaking(use=("WIRE_JSON",), except_=("FIELD_SAME_UTF8_VALIDATION",)), False),
    (Breaking(use=("FILE",), except_=("FILE",)), False),
    (Breaking(use=("WIRE_JSON",), ignore_only={"FIELD_SAME_UTF8_VALIDATION": ("proto",)}), False),
])
def test_utf8_validation_runs_in_every_category_until_its_buf_id_is_excepted(breaking, reported):
    """buf files FIELD_SAME_UTF8_VALIDATION under FILE and PACKAGE only; its change breaks
    payloads, so a buf.yaml choosing WIRE_JSON keeps it and only naming the id turns it off."""
    import rules
    from tests.rules.protobuf.support import source

    options, _notes = _apply(breaking)
    report = rules.check(source(UTF8_OLD, path="proto/a.proto"), source(UTF8_NEW, path="proto/a.proto"),
                         options=options)
    found = {f.rule for f in report.findings if f.severity.value == "error"}
    assert ("PROTO_FIELD_UTF8_VALIDATION_CHANGED" in found) is reported
