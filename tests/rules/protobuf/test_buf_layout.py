"""A buf module under proto/, reviewed by the CLI with no configuration: imports resolve from the
module roots buf's layout files declare, and buf.yaml's `breaking:` section is honoured."""
from __future__ import annotations

import json
import shutil

import pytest

from rules.cli import main
from tests.bufmodule import MONEY, ORDER, trees, write

LAYOUTS = {
    "buf.yaml v1 in proto/": {"proto/buf.yaml": "version: v1\n"},
    "buf.yaml v2 at the top": {"buf.yaml": "version: v2\nmodules:\n  - path: proto\n"},
    "buf.work.yaml": {"buf.work.yaml": "version: v1\ndirectories:\n  - proto\n",
                      "proto/buf.yaml": "version: v1\n"},
    "buf.gen.yaml v2": {"buf.gen.yaml": "version: v2\ninputs:\n  - directory: proto\n"},
}


def _review(old: Path, new: Path, path: str, *extra: str, capsys) -> tuple[int, dict]:
    code = main(["check", str(old / path), str(new / path), "--json", *extra])
    out = capsys.readouterr().out
    return code, json.loads(out) if out else {}


@pytest.fixture
def checkouts(tmp_path):
    """OLD and NEW as two checkouts, each with the layout files."""
    def make(layout: dict[str, str]):
        base, head = trees(layout)
        for folder in ("old", "new"):
            shutil.rmtree(tmp_path / folder, ignore_errors=True)
        return write(tmp_path / "old", base), write(tmp_path / "new", head)
    return make


@pytest.mark.parametrize("layout", LAYOUTS.values(), ids=list(LAYOUTS))
def test_every_layout_resolves_imports_with_no_configuration(checkouts, layout, capsys):
    old, new = checkouts(layout)
    for path in (ORDER, MONEY):
        code, report = _review(old, new, path, capsys=capsys)
        assert code != 2, capsys.readouterr().err
    code, report = _review(old, new, ORDER, capsys=capsys)
    # The default, WIRE_JSON: the rename breaks JSON; the deleted message is silent (as in buf).
    assert [(f["rule"], f["severity"]) for f in report["findings"]] == [("PROTO_FIELD_RENAMED", "error")]
    assert code == 1


def test_without_a_layout_file_the_missing_import_says_how_to_fix_it(checkouts, capsys):
    old, new = checkouts({})
    assert main(["check", str(old / ORDER), str(new / ORDER)]) == 2
    error = capsys.readouterr().err
    assert 'import "acme/common/money.proto" was not found' in error and "--proto-path" in error


def test_buf_yaml_breaking_use_selects_the_categories(checkouts, capsys):
    old, new = checkouts({"proto/buf.yaml": "version: v1\nbreaking:\n  use: [FILE]\n"})
    _code, report = _review(old, new, ORDER, capsys=capsys)
    assert {f["rule"] for f in report["findings"]} == {"PROTO_FIELD_RENAMED", "PROTO_MESSAGE_DELETED"}
    # schema-review's own categories win over buf.yaml's.
    _code, report = _review(old, new, ORDER, "--categories", "WIRE", capsys=capsys)
    assert [(f["rule"], f["severity"]) for f in report["findings"]] == [("PROTO_FIELD_RENAMED", "warning")]


def test_buf_yaml_except_ignore_only_and_ignore(checkouts, capsys):
    layout = {"buf.yaml": "version: v2\nmodules:\n  - path: proto\nbreaking:\n  use: [PACKAGE]\n"
                          "  except: [FIELD_SAME_NAME, FIELD_SAME_JSON_NAME]\n"
                          "  ignore_only:\n    PACKAGE_MESSAGE_NO_DELETE: [proto/acme/order]\n"}
    old, new = checkouts(layout)
    code, report = _review(old, new, ORDER, capsys=capsys)
    assert (code, report["findings"]) == (0, [])
    # A rename also changes the JSON name: with FIELD_SAME_JSON_NAME in use buf reports it
    # (`buf breaking` 1.75 on these trees: "changed option json_name"), and so do we.
    layout["buf.yaml"] = layout["buf.yaml"].replace(", FIELD_SAME_JSON_NAME", "")
    old, new = checkouts(layout)
    code, report = _review(old, new, ORDER, capsys=capsys)
    assert [f["rule"] for f in report["findings"]] == ["PROTO_FIELD_RENAMED"]
    ignored = {"buf.yaml": "version: v2\nmodules:\n  - path: proto\nbreaking:\n"
                           "  ignore: [proto/acme/order/order.proto]\n"}
    old, new = checkouts(ignored)
    code, report = _review(old, new, ORDER, capsys=capsys)
    assert (code, report["findings"]) == (0, [])
    assert any("breaking.ignore" in note for note in report["notes"])


def test_an_unusable_buf_yaml_is_a_note_never_a_crash(checkouts, capsys):
    layout = {"buf.work.yaml": "version: v1\ndirectories:\n  - proto\n",
              "proto/buf.yaml": "version: v1\nbreaking: [unclosed\n"}
    old, new = checkouts(layout)
    code, report = _review(old, new, ORDER, capsys=capsys)
    assert code == 1  # the roots came from buf.work.yaml; the default categories apply
    assert any("buf.yaml was not used: not valid YAML" in note for note in report["notes"])


@pytest.mark.parametrize("buf_yaml", [
    "version: v1\ndeps:\n  - buf.build/googleapis/googleapis\n",
    "version: v2\nmodules:\n  - path: .\ndeps:\n  - buf.build/googleapis/googleapis\n",
])
def test_an_import_from_a_buf_dependency_names_it_and_the_tree_is_never_called_compatible(
        tmp_path, buf_yaml, capsys):
    # BSR dependencies are never downloaded (no network): the error says where the import
    # likely comes from and how to vendor it, and the directory check does not pass the file.
    proto = ('syntax = "proto3";\npackage acme.v1;\nimport "google/api/annotations.proto";\n'
             "message A {\n  string id = 1;\n}\n")
    for side, text in (("old", proto), ("new", proto.replace("id = 1;\n", "id = 1;\n  string note = 2;\n"))):
        write(tmp_path / side, {"proto/buf.yaml": buf_yaml, "proto/a.proto": text})
    assert main(["check", str(tmp_path / "old"), str(tmp_path / "new")]) == 2
    out, error = capsys.readouterr()
    assert 'import "google/api/annotations.proto" was not found' in error
    assert "buf dependencies (buf.build/googleapis/googleapis)" in error and "buf export" in error
    assert out.strip().endswith("1 file(s) could not be checked (backward): 0 error(s), 0 warning(s), 0 info")
    assert "compatible" not in out
    assert main(["check", str(tmp_path / "old"), str(tmp_path / "new"), "--json"]) == 2
    report = json.loads(capsys.readouterr().out)
    assert report["compatible"] is False
    assert [(u["file"], u["line"]) for u in report["unchecked"]] == [("proto/a.proto", 3)]


# Directory mode (`check OLD_DIR NEW_DIR`) honours NEW's buf modules exactly as file mode does:
# layout files -> the findings of order.proto (rule, severity), and whether a note names
# `breaking.ignore`.
SECTIONS = {
    "buf.yaml v1 use FILE": ({"proto/buf.yaml": "version: v1\nbreaking:\n  use: [FILE]\n"}, (),
                             {("PROTO_FIELD_RENAMED", "error"), ("PROTO_MESSAGE_DELETED", "error")}),
    "v2 except and ignore_only": (
        {"buf.yaml": "version: v2\nmodules:\n  - path: proto\nbreaking:\n  use: [PACKAGE]\n"
                     "  except: [FIELD_SAME_NAME, FIELD_SAME_JSON_NAME]\n"
                     "  ignore_only:\n    PACKAGE_MESSAGE_NO_DELETE: [proto/acme/order]\n"}, (), set()),
    "v2 ignore": ({"buf.yaml": "version: v2\nmodules:\n  - path: proto\nbreaking:\n"
                               "  ignore: [proto/acme/order/order.proto]\n"}, (), set()),
    "v2 per-module section": (
        {"buf.yaml": "version: v2\nmodules:\n  - path: proto\n    breaking:\n      use: [FILE]\n"}, (),
        {("PROTO_FIELD_RENAMED", "error"), ("PROTO_MESSAGE_DELETED", "error")}),
    "buf.work.yaml": ({"buf.work.yaml": "version: v1\ndirectories:\n  - proto\n",
                       "proto/buf.yaml": "version: v1\nbreaking:\n  use: [PACKAGE]\n"}, (),
                      {("PROTO_FIELD_RENAMED", "error"), ("PROTO_MESSAGE_DELETED", "error")}),
    "--categories wins": ({"proto/buf.yaml": "version: v1\nbreaking:\n  use: [FILE]\n"},
                          ("--categories", "WIRE"), {("PROTO_FIELD_RENAMED", "warning")}),
}


@pytest.mark.parametrize("layout, extra, expected", SECTIONS.values(), ids=list(SECTIONS))
def test_directory_mode_applies_the_breaking_section_as_file_mode_does(
        checkouts, layout, extra, expected, capsys):
    old, new = checkouts(layout)
    _code, by_file = _review(old, new, ORDER, *extra, capsys=capsys)
    main(["check", str(old), str(new), "--json", *extra])
    by_tree = json.loads(capsys.readouterr().out)
    for report in (by_file, by_tree):  # a deletion names OLD's file in file mode
        assert {(f["rule"], f["severity"]) for f in report["findings"]
                if f["file"].endswith(ORDER)} == expected
        ignored = "ignore" in layout.get("buf.yaml", "") and "ignore_only" not in layout["buf.yaml"]
        assert any("breaking.ignore" in note for note in report["notes"]) == ignored
