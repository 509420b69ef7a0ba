"""Unusable .proto input gives one clear SchemaError (CLI: exit 2, one line naming file:line)."""
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rules
from rules import limits
from rules.model import SchemaError, Side
from tests.rules.protobuf.support import check, source

REPO = Path(__file__).resolve().parents[3]
GOOD = 'syntax = "proto3";\nmessage M {\n  int32 a = 1;\n}\n'


def _cli(tmp_path, old_text, new_text, *extra):
    old, new = tmp_path / "old.proto", tmp_path / "new.proto"
    old.write_bytes(old_text if isinstance(old_text, bytes) else old_text.encode())
    new.write_bytes(new_text if isinstance(new_text, bytes) else new_text.encode())
    return subprocess.run([sys.executable, "-m", "rules", "check", str(old), str(new), *extra],
                          cwd=REPO, capture_output=True, text=True, timeout=60)


def test_syntax_error_exits_2_with_one_line_naming_file_and_line(tmp_path):
    done = _cli(tmp_path, GOOD, 'syntax = "proto3";\nmessage M {\n  int32 a = 1\n}\n')
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error: {tmp_path / 'new.proto'}:4: protoc: Expected \";\"")


def test_empty_file_exits_2(tmp_path):
    done = _cli(tmp_path, "", GOOD)
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: {tmp_path / 'old.proto'}: file is empty"


def test_binary_junk_exits_2(tmp_path):
    done = _cli(tmp_path, GOOD, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: {tmp_path / 'new.proto'}: file is binary, not schema text"


def test_text_junk_is_a_protoc_error_with_a_line():
    with pytest.raises(SchemaError) as caught:
        check(GOOD, "}}}} this is not protobuf {{{{\n")
    assert caught.value.side is Side.NEW
    assert caught.value.line == 1
    assert caught.value.problem.startswith("protoc: ")


def test_empty_source_object_is_refused():
    with pytest.raises(SchemaError, match="file is empty"):
        check("  \n", GOOD)


def test_missing_import_names_the_import_line():
    text = 'syntax = "proto3";\n\nimport "nowhere/missing.proto";\n\nmessage M {\n  int32 a = 1;\n}\n'
    with pytest.raises(SchemaError) as caught:
        check(GOOD, text)
    assert caught.value.line == 3
    assert caught.value.problem.startswith('import "nowhere/missing.proto" was not found.')
    # The message says how to make it found, in the App's and the CLI's words.
    assert "protobuf.import_roots" in caught.value.problem and "--proto-path" in caught.value.problem


def test_import_cycle_is_reported():
    a = 'syntax = "proto3";\nimport "b.proto";\nmessage A { int32 x = 1; }\n'
    b = 'syntax = "proto3";\nimport "a.proto";\nmessage B { int32 y = 1; }\n'
    with pytest.raises(SchemaError) as caught:
        check(GOOD, source(a, path="a.proto", imports={"b.proto": b}))
    assert "recursively imports itself" in caught.value.problem
    assert caught.value.file == "a.proto"


@pytest.mark.parametrize("name", ["../escape.proto", "/etc/passwd.proto", "a/../../b.proto",
                                  "dir\\evil.proto", ""])
def test_import_paths_outside_the_scratch_dir_are_refused(name):
    text = 'syntax = "proto3";\nmessage M { int32 a = 1; }\n'
    with pytest.raises(SchemaError, match="is not a relative path inside the repository"):
        check(GOOD, source(text, imports={name: text}))


def test_conflicting_import_paths_are_refused():
    text = 'syntax = "proto3";\n'
    with pytest.raises(SchemaError, match="cannot lay out import"):
        check(GOOD, source(GOOD, imports={"a.proto": text, "a.proto/b.proto": text}))


def test_binary_import_is_refused_naming_the_import():
    with pytest.raises(SchemaError) as caught:
        check(GOOD, source(GOOD, imports={"dep.proto": "\0\1junk"}))
    assert (caught.value.file, caught.value.problem) == ("dep.proto", "file is binary, not schema text")


def test_lone_surrogates_are_refused():
    with pytest.raises(SchemaError, match="not UTF-8"):
        check(GOOD, GOOD + "// \udc80\n")


def test_too_many_imports_are_refused(monkeypatch):
    monkeypatch.setattr(limits, "MAX_PROTO_FILES", 3)
    imports = {f"dep{i}.proto": 'syntax = "proto3";\n' for i in range(5)}
    with pytest.raises(SchemaError, match="over the limit of 3"):
        check(GOOD, source(GOOD, imports=imports))


def _slow_proto() -> str:
    """~1 MB of fields in one message: protoc needs well over the patched limit for it."""
    body = "".join(f"  int32 f{i} = {i};\n" for i in range(1, 40000))
    return 'syntax = "proto3";\nmessage Big {\n' + body + "}\n"


def test_slow_protoc_is_killed_at_the_time_limit(monkeypatch):
    monkeypatch.setattr(limits, "PROTOC_TIMEOUT_SECONDS", 0.05)
    started = time.monotonic()
    with pytest.raises(SchemaError, match="did not finish within 0.05 seconds"):
        check(GOOD, _slow_proto())
    assert time.monotonic() - started < 5


def test_protoc_error_count_is_capped(monkeypatch):
    monkeypatch.setattr(limits, "MAX_PROTOC_ERRORS", 3)
    body = "".join(f"  int32 dup = {i};\n" for i in range(1, 30))
    with pytest.raises(SchemaError) as caught:
        check(GOOD, 'syntax = "proto3";\nmessage M {\n' + body + "}\n")
    assert caught.value.problem.endswith("(and 3+ more protoc error(s))")
    assert caught.value.line == 4


def test_a_good_pair_still_works_after_failures():
    report = check(GOOD, GOOD.replace("int32 a", "sint32 a"))
    assert [f.rule for f in report.findings] == ["PROTO_FIELD_TYPE_INCOMPATIBLE"]


def test_no_scratch_files_are_left_behind(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)
    check(GOOD, GOOD)
    with pytest.raises(SchemaError):
        check(GOOD, "message {")
    assert list(tmp_path.iterdir()) == []


def test_the_cli_reports_old_side_errors_too(tmp_path):
    done = _cli(tmp_path, "message M { int32 a = 1 }\n", GOOD)
    assert done.returncode == 2
    assert str(tmp_path / "old.proto") + ":1:" in done.stderr


def test_rules_check_is_importable_without_protobuf_imported():
    code = ("import sys, rules; rules.check; "
            "print('google.protobuf.descriptor_pb2' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_public_api_type_is_unchanged():
    assert rules.Format.PROTOBUF.value == "protobuf"
