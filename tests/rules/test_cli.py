"""The `python -m rules` contract: exit codes, one stderr line for bad input, the JSON shape."""
import json
import subprocess
import sys

import pytest

from tests.shared import REPO

AVRO_OLD = '{"type": "record", "name": "E", "fields": [{"name": "id", "type": "string"}]}\n'
AVRO_ADDED = ('{"type": "record", "name": "E", "fields": [{"name": "id", "type": "string"},\n'
              '  {"name": "level", "type": "string"}]}\n')
AVRO_OPTIONAL = ('{"type": "record", "name": "E", "fields": [{"name": "id", "type": "string"},\n'
                 '  {"name": "level", "type": ["null", "string"], "default": null}]}\n')


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "rules", *args], capture_output=True, text=True,
                          cwd=cwd or REPO, timeout=60)


@pytest.fixture
def files(tmp_path):
    def write(name, text):
        path = tmp_path / name
        path.write_text(text) if isinstance(text, str) else path.write_bytes(text)
        return str(path)
    return write


def test_compatible_change_exits_0(files):
    result = run("check", files("old.avsc", AVRO_OLD), files("new.avsc", AVRO_OPTIONAL), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["compatible"] is True and report["mode"] == "backward"


def test_breaking_change_exits_1_with_a_located_finding(files):
    result = run("check", files("old.avsc", AVRO_OLD), files("new.avsc", AVRO_ADDED), "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["compatible"] is False
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert errors and errors[0]["line"] == 2 and errors[0]["file"].endswith("new.avsc")
    assert set(errors[0]) >= {"rule", "severity", "file", "line", "path", "message", "suggestion"}


def test_compatible_always_agrees_with_exit_code_in_forward_mode(files):
    # Adding a field without a default only breaks backward: forward mode passes.
    result = run("check", files("old.avsc", AVRO_OLD), files("new.avsc", AVRO_ADDED), "--json", "--mode", "forward")
    assert result.returncode == 0 and json.loads(result.stdout)["compatible"] is True


@pytest.mark.parametrize("name, content, problem", [
    ("new.avsc", "", "empty"),
    ("new.avsc", b"\x00\x01\x02binary", "binary"),
    ("new.avsc", b"\xff\xfe not utf8", "UTF-8"),
    ("new.avsc", '{"type": "record",\n "name": }', "invalid JSON"),
    ("new.avsc", "[" * 1000 + "]" * 1000, "deeper"),
    ("new.avsc", " " * (3 * 1024 * 1024), "limit"),
    ("new.txt", "{}", "extension"),
])
def test_unusable_input_exits_2_with_one_line(files, name, content, problem):
    result = run("check", files("old.avsc", AVRO_OLD), files(name, content))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and problem in lines[0] and name in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_missing_file_exits_2(files):
    result = run("check", files("old.avsc", AVRO_OLD), "/nonexistent/new.avsc")
    assert result.returncode == 2 and "cannot read" in result.stderr


def test_text_output_names_file_line_and_rule(files):
    result = run("check", files("old.avsc", AVRO_OLD), files("new.avsc", AVRO_ADDED))
    assert result.returncode == 1
    assert "new.avsc:2:" in result.stdout and "error" in result.stdout
    assert "incompatible (backward)" in result.stdout.splitlines()[-1]


def test_main_run_in_process_leaves_no_cpu_limit_behind(files):
    """The CLI caps its own CPU while it checks; a caller running `main()` in-process (a test
    worker, a script checking many pairs) must get its own limit back, or the kernel ends it
    later with SIGXCPU in the middle of unrelated work."""
    import resource

    from rules.cli import main

    before = resource.getrlimit(resource.RLIMIT_CPU)
    assert main(["check", files("old.avsc", AVRO_OLD), files("new.avsc", AVRO_OPTIONAL)]) == 0
    assert resource.getrlimit(resource.RLIMIT_CPU) == before


@pytest.mark.parametrize("suffix, old, new", [
    (".avsc", AVRO_OLD, AVRO_ADDED),
    (".json", '{"type": "object"}\n', '{"type": "object", "required": ["id"]}\n'),
])
def test_a_file_check_imports_no_format_package_before_its_checking_child(files, suffix, old, new):
    # Directory mode (rules.tree) needs every format's rules; a file check forks a child that
    # imports its own format only. Importing the others cost each check ~80 ms (issue 24).
    code = ("import sys; from rules.cli import main; code = main(sys.argv[1:]); "
            "print(code, sorted(m for m in sys.modules if m.split('.')[:2] in "
            "(['rules', 'avro'], ['rules', 'jsonschema'], ['rules', 'protobuf'], ['rules', 'tree'])))")
    out = subprocess.run([sys.executable, "-c", code, "check", files("old" + suffix, old),
                          files("new" + suffix, new), "--json"],
                         cwd=REPO, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "1 []", out.stdout + out.stderr
