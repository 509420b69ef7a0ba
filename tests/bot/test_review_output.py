"""`review --output ...` on a real git repository: terminal text, JSON, and the CI formats."""
import io
import json
import logging
import re
import xml.etree.ElementTree as ET
from datetime import datetime, timezone

import pytest

from bot.local.main import main
from bot.ambient.logs import JsonFormatter
from bot.render.terminal import use_colour
from rules.output import Output
from rules.visible import visible
from tests.localgit import git, make_repo, write
from tests.rules.test_output import (BIDI_AND_LEGACY, PROTO, RAW, TITLE_AND_MASK, assert_shown_not_sent,
                                     unescape, validate_sarif)

NOW = datetime(2030, 1, 1, tzinfo=timezone.utc)
USER = '{"type": "record", "name": "User", "fields": [\n  {"name": "id", "type": "string"},\n  {"name": "old", "type": "string"}\n]}\n'
USER_HEAD = '{"type": "record", "name": "User", "fields": [\n  {"name": "id", "type": "string"},\n  {"name": "level", "type": "int"}\n]}\n'
ORDER = '{"type": "object", "properties": {"id": {"type": "string"}}}\n'
ORDER_HEAD = '{"type": "object", "properties": {"id": {"type": "string"}},\n "required": ["id", "total"]}\n'
GONE = '{"type": "record", "name": "Gone", "fields": []}\n'
# A file name is untrusted text: escape sequences, and the pieces of a workflow command.
EVIL = "schemas/e\x1b[2J,v:l\n::set-env name=EVIL::1.schema.json"
LOCATION = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+): (?P<severity>error|warning|info) "
                      r"(?P<rule>[A-Z][A-Z0-9_]+) (?P<message>.+)$")


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("review") / "repo"
    # The commits are dated today and NOW is years later: staging would make the promotion of
    # "id" a warning. These tests are about the output's shape, so it stays an error.
    return make_repo(root, {"events/user.avsc": USER, "schemas/order.schema.json": ORDER,
                            "events/gone.avsc": GONE, EVIL: ORDER,
                            ".github/schema-review.yml": "promotion_window_days: 0\n"},
                     {"events/user.avsc": USER_HEAD, "schemas/order.schema.json": ORDER_HEAD,
                      "events/gone.avsc": None, EVIL: ORDER_HEAD})


def review(capsys, repo, *args):
    code = main(["review", "--repo", str(repo), "--base", "main", "--head", "feature", *args],
                now=NOW)
    return code, capsys.readouterr().out


def test_text_is_grouped_by_file_with_locations_editors_read(capsys, repo):
    code, out = review(capsys, repo, "--output", "text")
    assert code == 1
    lines = out.splitlines()
    headers = [line for line in lines if line and not line.startswith(" ") and not LOCATION.match(line)
               and not line.startswith("schemas/e\\x1b") or line.endswith("breaking changes, 1 warning")]
    assert headers[:4] == [
        "events/gone.avsc (Avro, backward): 1 warning",
        "events/user.avsc (Avro, backward): 1 breaking change, 1 warning, 1 note",
        "schemas/e\\x1b[2J,v:l\\x0a::set-env name=EVIL::1.schema.json (JSON Schema, backward): "
        "2 breaking changes, 1 warning",
        "schemas/order.schema.json (JSON Schema, backward): 2 breaking changes, 1 warning"]
    assert lines[-1] == "schema-review: failure: 5 breaking changes, 4 warnings, 1 note in 4 schema files"
    located = [LOCATION.match(line) for line in lines if line.startswith(("events/", "schemas/o"))]
    located = [m for m in located if m]
    assert [(m["file"], m["line"], m["severity"], m["rule"]) for m in located] == [
        ("events/gone.avsc", "1", "warning", "SCHEMA_FILE_REMOVED"),
        ("events/user.avsc", "3", "error", "AVRO_FIELD_ADDED_WITHOUT_DEFAULT"),
        ("events/user.avsc", "3", "warning", "AVRO_FIELD_DELETED_NOT_DEPRECATED"),
        ("events/user.avsc", "3", "info", "AVRO_FIELD_REMOVED_WITHOUT_DEFAULT"),
        ("schemas/order.schema.json", "2", "error", "JSONSCHEMA_PROPERTY_MADE_REQUIRED"),
        ("schemas/order.schema.json", "2", "error", "JSONSCHEMA_REQUIRED_PROPERTY_ADDED"),
        ("schemas/order.schema.json", "2", "warning", "JSONSCHEMA_REQUIRED_UNDECLARED")]
    removed = [m for m in located if m["rule"] in ("AVRO_FIELD_DELETED_NOT_DEPRECATED",
                                                   "AVRO_FIELD_REMOVED_WITHOUT_DEFAULT",
                                                   "SCHEMA_FILE_REMOVED")]
    assert len(removed) == 3 and all(m["message"].endswith(" (base)") for m in removed)
    assert not any(m["message"].endswith("(base)") for m in located if m not in removed)
    assert all("(base)" not in m["file"] for m in located)
    for raw in ("\x1b", "<!--", "```", "| ", "**"):
        assert raw not in out, raw
    diff = out[out.index("    fix: Make \"level\" optional"):].splitlines()[1:4]
    assert diff == ["    @@ lines 3-3 @@", '    -  {"name": "level", "type": "int"}',
                    '    +  {"name": "level", "type": ["null", "int"], "default": null}']


def test_text_prints_each_finding_once(capsys, repo):
    _code, out = review(capsys, repo)
    data = json.loads(review(capsys, repo, "--output", "json")[1])
    finding_line = re.compile(r"^\S.*:\d+: (error|warning|info) [A-Z][A-Z0-9_]+ ")
    assert sum(bool(finding_line.match(line)) for line in out.splitlines()) == len(data["findings"])
    assert len({f["fingerprint"] for f in data["findings"]}) == len(data["findings"])


def test_colour_only_when_asked_or_on_a_terminal(capsys, repo):
    _code, out = review(capsys, repo, "--color", "always")
    assert "\x1b[1;31merror\x1b[0m" in out and "\x1b[32m    +" in out
    assert "e\x1b[2J" not in out  # the file name's own escape never reaches the terminal


class Tty(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("choice, environ, tty, expected", [
    ("auto", {}, True, True),
    ("auto", {}, False, False),
    ("auto", {"NO_COLOR": "1"}, True, False),
    ("auto", {"NO_COLOR": ""}, True, True),  # no-color.org: set and not empty
    ("auto", {"FORCE_COLOR": "1"}, False, True),
    ("auto", {"FORCE_COLOR": "0"}, False, False),
    ("auto", {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, False),
    ("auto", {"TERM": "dumb"}, True, False),
    ("always", {"NO_COLOR": "1"}, False, True),
    ("never", {"FORCE_COLOR": "1"}, True, False),
])
def test_colour_choice(choice, environ, tty, expected):
    stream = Tty() if tty else io.StringIO()
    assert use_colour(choice, stream=stream, environ=environ) is expected


@pytest.mark.parametrize("raw, shown", [
    ("plain \"text\"\t", "plain \"text\"\t"),
    ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),
    ("a\nb\rc", "a\\x0ab\\x0dc"),
    ("\x9b31m\u2028", "\\x9b31m\\u2028"),
    ("\udcff", "\\udcff"),
    ("\x7f\x85\u202e\u2066\u2069\u2029", "\\x7f\\x85\\u202e\\u2066\\u2069\\u2029"),
    ("a ##[add-mask]b", "a ##\\x5badd-mask]b"),  # the runner's legacy command, anywhere in a line
])
def test_visible(raw, shown):
    assert visible(raw) == shown


def test_json_has_files_findings_and_conclusion(capsys, repo):
    code, out = review(capsys, repo, "--output", "json")
    data = json.loads(out)
    assert code == 1 and data["conclusion"] == "failure"
    assert [f["path"] for f in data["files"]] == ["events/gone.avsc", "events/user.avsc", EVIL,
                                                  "schemas/order.schema.json"]
    assert data["files"][0]["removed"] is True
    keys = {"rule", "severity", "file", "line", "path", "message", "suggestion", "fingerprint"}
    assert all(keys <= set(f) for f in data["findings"])
    removed = [f for f in data["findings"] if f["rule"] == "AVRO_FIELD_DELETED_NOT_DEPRECATED"]
    assert removed[0]["side"] == "old" and removed[0]["line"] == 3


def test_github_commands_one_per_finding_none_injected(capsys, repo):
    code, out = review(capsys, repo, "--output", "github")
    assert code == 1
    lines = out.split("\n")[:-1]
    assert lines[-1].startswith("schema-review: failure:")
    commands = lines[:-1]
    assert all(line.startswith(("::error file=", "::warning file=", "::notice "))
               for line in commands)
    files = [unescape(line.split("file=", 1)[1].split(",")[0]) for line in commands
             if "file=" in line]
    assert files.count(EVIL.replace("\x1b", "\\x1b")) == 3  # its escape shown, not sent
    assert "::warning file=events/gone.avsc,title=SCHEMA_FILE_REMOVED::" in out  # no line: gone
    assert ("::warning file=events/user.avsc,line=3,title=AVRO_FIELD_DELETED_NOT_DEPRECATED::"
            "Removed from line 3 of the base version.") in out


def test_junit_and_sarif(capsys, repo):
    _code, out = review(capsys, repo, "--output", "junit")
    root = ET.fromstring(out)
    assert root.get("tests") == "4" and root.get("failures") == "3"
    _code, out = review(capsys, repo, "--output", "sarif")
    run = validate_sarif(out)["runs"][0]
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert "SCHEMA_FILE_REMOVED" in rules and rules["SCHEMA_FILE_REMOVED"]["help"]["markdown"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
    assert "schemas/e%1B%5B2J%2Cv%3Al%0A%3A%3Aset-env%20name%3DEVIL%3A%3A1.schema.json" in uris
    assert all(len(r["partialFingerprints"]["schemaReview/v1"]) == 16 for r in run["results"])


@pytest.mark.parametrize("fail_on, expected", [("error", 1), ("warning", 1), ("never", 0)])
def test_fail_on(capsys, repo, fail_on, expected):
    assert review(capsys, repo, "--fail-on", fail_on)[0] == expected


def test_fail_on_warning_fails_a_change_with_warnings_only(capsys, tmp_path):
    repo = make_repo(tmp_path / "r", {"a.avsc": GONE}, {"a.avsc": None})
    assert review(capsys, repo)[0] == 0
    assert review(capsys, repo, "--fail-on", "warning")[0] == 1


def test_summary_file_gets_the_apps_markdown_appended(capsys, repo, tmp_path):
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    review(capsys, repo, "--output", "github", "--summary-file", str(summary))
    text = summary.read_text()
    assert text.startswith("earlier step\n## schema-review: failure\n")
    assert "| Severity | File | Rule | Element | Finding | Fix |" in text
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(rows) == 1 + 10 + 1 + 4  # two tables; the file name's newline broke no row


def test_staged_reviews_the_index(capsys, tmp_path):
    repo = make_repo(tmp_path / "r", {"a.avsc": USER}, {})
    write(repo, {"a.avsc": USER_HEAD})  # staged, not committed
    (repo / "b.avsc").write_text(USER)  # untracked: not part of the change
    code = main(["review", "--repo", str(repo), "--base", "main", "--staged"], now=NOW)
    out = capsys.readouterr().out
    assert code == 1 and "a.avsc:3: error AVRO_FIELD_ADDED_WITHOUT_DEFAULT" in out
    assert "b.avsc" not in out
    assert git(repo, "status", "--porcelain") == "M  a.avsc\n?? b.avsc".strip()
    assert git(repo, "rev-parse", "HEAD") == git(repo, "rev-parse", "feature")


def test_staged_cannot_go_with_head(capsys, tmp_path):
    with pytest.raises(SystemExit) as exited:
        main(["review", "--repo", str(tmp_path), "--staged", "--head", "x"])
    assert exited.value.code == 2


@pytest.mark.parametrize("command", ["check", "review"])
def test_the_schema_review_command_passes_output_through(capsys, repo, command):
    from bot.local.cli import main as schema_review

    if command == "check":
        argv = ["check", str(repo / "events" / "user.avsc"), str(repo / "events" / "user.avsc")]
    else:
        argv = ["review", "--repo", str(repo), "--base", "main", "--head", "feature"]
    code = schema_review([*argv, "--output", "junit"])
    root = ET.fromstring(capsys.readouterr().out)
    assert root.tag == "testsuites" and code == (0 if command == "check" else 1)


@pytest.fixture(scope="module")
def hostile_repo(tmp_path_factory):
    """Schema files named with the hostile strings, and a protobuf JSON name holding one."""
    root = tmp_path_factory.mktemp("hostile") / "repo"
    base, head = {}, {}
    for index, hostile in enumerate((TITLE_AND_MASK, BIDI_AND_LEGACY)):
        name = f"schemas/{hostile}{index}.schema.json"
        base[name], head[name] = ORDER, ORDER_HEAD
        proto = f"protos/p{index}.proto"
        base[proto] = PROTO.format(name=json.dumps(hostile)).replace("package p;", f"package p{index};")
        head[proto] = PROTO.format(name='"plain"').replace("package p;", f"package p{index};")
    # A deleted field: the fix (reserve it) quotes the line before it, comment and all.
    kept = 'syntax = "proto3";\npackage d;\nmessage M {\n  string id = 1; // \x1b[31mred \u202eevil\n'
    base["protos/deleted.proto"], head["protos/deleted.proto"] = kept + "  string x = 2;\n}\n", kept + "}\n"
    return make_repo(root, base, head)


@pytest.mark.parametrize("output", list(Output))
def test_no_schema_string_reaches_a_review_output_raw(capsys, hostile_repo, tmp_path, output):
    summary = tmp_path / "summary.md"
    code = main(["review", "--repo", str(hostile_repo), "--base", "main", "--head", "feature",
                 "--output", output.value, "--summary-file", str(summary), "--color", "always"],
                now=NOW)
    captured = capsys.readouterr()
    assert code == 1, captured.err
    printed = captured.out + captured.err
    if output is Output.TEXT:  # the tool's own colours are the only escape sequences sent
        printed = re.sub(r"\x1b\[[0-9;]*m", "", printed)
    assert_shown_not_sent(printed, commands=output is Output.GITHUB)
    assert "PROTO_FIELD_JSON_NAME_CHANGED" in printed
    markdown = summary.read_text(encoding="utf-8")  # the Action's job summary
    assert "JSON name" in markdown and not RAW.findall(markdown), RAW.findall(markdown)
    assert "// \\x1b[31mred \\u202eevil\n  reserved 2;" in markdown  # the fix, shown


@pytest.mark.parametrize("hostile", [TITLE_AND_MASK, BIDI_AND_LEGACY])
def test_log_records_carry_no_raw_schema_text(hostile):
    record = logging.LogRecord("schema_review", logging.WARNING, __file__, 1, "no example for %s",
                               (hostile,), None)
    record.repository = hostile
    line = JsonFormatter().format(record)
    assert_shown_not_sent(line, commands=False)
    assert json.loads(line)["message"] == f"no example for {hostile}"


# Issue 21: one line per change, at its definition (an imported message's field, in the file
# that defines it, under an import root), naming the files that use it; files in path order.
MONEY = 'syntax = "proto3";\npackage shop;\n\nmessage Money {{\n  {units} units = 1;\n}}\n'
USER_PROTO = ('syntax = "proto3";\npackage shop;\nimport "shop/money.proto";\n\n'
              'message {name} {{\n  Money total = 1;\n}}\n')


def test_a_change_to_an_imported_type_is_one_finding_where_it_is_defined(capsys, tmp_path):
    users = {f"proto/shop/{name.lower()}.proto": USER_PROTO.format(name=name)
             for name in ("Order", "Invoice")}
    config = {".github/schema-review.yml": "protobuf:\n  import_roots: [proto]\n"}
    repo = make_repo(tmp_path / "repo", {**config, **users, "proto/shop/money.proto": MONEY.format(units="int64")},
                     {"proto/shop/money.proto": MONEY.format(units="string")})
    _code, out = review(capsys, repo, "--output", "github")
    errors = [line for line in out.splitlines() if line.startswith("::error")]
    assert errors == ["::error file=proto/shop/money.proto,line=5,title=PROTO_FIELD_TYPE_INCOMPATIBLE::"
                      'Field "Money.units" changed type from int64 to string, which is not '
                      "wire-compatible. Used by proto/shop/invoice.proto, proto/shop/order.proto."]


def _where_github(out: str) -> list[tuple[str, int]]:
    found = [re.match(r"::\w+ file=([^,]+)(?:,line=(\d+))?,title=", line) for line in out.splitlines()]
    return [(m.group(1), int(m.group(2) or 0)) for m in found if m]


def test_every_output_lists_files_by_path_and_findings_by_line(capsys, tmp_path):
    # A user of the removed type, unchanged, stays with its own finding; the changed file has a
    # field removed (annotated where it stood) above one added. Issue 21: sorted everywhere.
    money = '{"type": "record", "name": "Money", "fields": [{"name": "units", "type": "long"}]}\n'
    base = {"a/user.avsc": '{"type": "record", "name": "User", "fields": [\n  {"name": "m", "type": "Money"}\n]}\n',
            "b/money.avsc": money,
            "c/order.avsc": '{"type": "record", "name": "Order", "fields": [\n  {"name": "gone", "type": "int"},\n'
                            '  {"name": "id", "type": "string"}\n]}\n'}
    head = {"b/money.avsc": None,
            "c/order.avsc": '{"type": "record", "name": "Order", "fields": [\n  {"name": "id", "type": "string"},\n'
                            '  {"name": "level", "type": "int"}\n]}\n'}
    repo = make_repo(tmp_path / "repo", base, head)
    _code, out = review(capsys, repo, "--output", "github")
    where = _where_github(out)
    assert where == sorted(where) and {file for file, _ in where} >= {"a/user.avsc", "c/order.avsc"}
    _code, out = review(capsys, repo, "--output", "sarif")
    results = validate_sarif(out)["runs"][0]["results"]
    located = [(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                r["locations"][0]["physicalLocation"].get("region", {}).get("startLine", 0)) for r in results]
    assert located == sorted(located)
    _code, out = review(capsys, repo, "--output", "junit")
    names = [case.get("name") for case in ET.fromstring(out).iter("testcase")]
    assert names == sorted(names)
    _code, out = review(capsys, repo, "--color", "never")
    headers = [line.split(" (")[0] for line in out.splitlines() if line.endswith(")") or " (Avro" in line]
    assert headers == sorted(headers) and "a/user.avsc" in headers
