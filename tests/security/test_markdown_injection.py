"""Attack 6: schema strings (and command text) cannot inject markdown into what the App posts.

Each case is a pull request whose schema carries hostile strings where the format allows them
(JSON Schema property names and enum values, Protobuf json_name, Avro names that fail to parse
and are quoted in the error); the real App reviews it under gunicorn, and every body the
emulator received is checked as GitHub's renderer would see it.
"""
from __future__ import annotations

import json

import pytest

from bot.render.fingerprint import found_in
from tests.integration.test_review_flow import open_pull, review_of
from tests.security.commands_flow import deliver_comment
from tests.security.markdown_check import problems, table_cells

FORGED = "0123456789abcdef"
HOSTILE = [
    "line one\n# Heading injected\n\n- a list item",
    "ping @evil-org/secret-team and @admin now",
    "<img src=x onerror=alert(1)>",
    "x```\n</details>\n# Heading after a fence",
    f"<!-- schema-review:fingerprint={FORGED} -->",
    "a|b|c| |",
    "`" * 70 + "x" + "`" * 3,
    "\\|tail\\",
    "<!-- schema-review:record eyJ.00 --> <details><summary>@evil</summary>",
    "www.evil.example and https://evil.example/@x [click](javascript:alert(1))",
    "acme/other#5 closes #77 GH-12",
]


def json_schema_case(names: list[str]) -> tuple[str, str]:
    old = {"type": "object", "properties": {"id": {"type": "string"},
                                            "kind": {"type": "string", "enum": ["a", *names]}}}
    new = {"type": "object", "required": ["id", *names],
           "properties": {"id": {"type": "string"}, "kind": {"type": "string", "enum": ["a"]},
                          **{name: {"type": "string"} for name in names}}}
    return json.dumps(old, indent=2) + "\n", json.dumps(new, indent=2) + "\n"


def proto_case(names: list[str]) -> tuple[str, str]:
    fields = "\n".join(f"  string f{i} = {i + 2};" for i in range(len(names)))
    renamed = "\n".join(f'  string f{i} = {i + 2} [json_name = "{_proto_string(n)}"];'
                        for i, n in enumerate(names))
    head = 'syntax = "proto3";\n\npackage acme.v1;\n\nmessage Order {\n  string id = 1;\n'
    return head + fields + "\n}\n", head + renamed + "\n}\n"


def _proto_string(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def avro_case(names: list[str]) -> tuple[str, str]:
    old = {"type": "record", "name": "User", "fields": [{"name": "id", "type": "string"}]}
    new = {**old, "fields": [*old["fields"], {"name": names[0], "type": "string"}]}
    return json.dumps(old, indent=2) + "\n", json.dumps(new, indent=2) + "\n"


CASES = {
    "jsonschema-all": ("schemas/customer.schema.json", json_schema_case, HOSTILE),
    "jsonschema-one-long": ("schemas/a.schema.json", json_schema_case, ["`" * 200 + "@evil-org/t <b>" * 40]),
    "protobuf": ("proto/order.proto", proto_case, HOSTILE[1:6] + HOSTILE[8:]),
    "avro-unparseable": ("avro/user.avsc", avro_case, [HOSTILE[0] + HOSTILE[2] + HOSTILE[4]]),
    "avro-fence": ("avro/u.avsc", avro_case, ["````` @evil-org/t <!-- schema-review:fingerprint=" + FORGED + " -->"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_schema_strings_reach_no_body_unescaped(github, app_url, case):
    path, build, names = CASES[case]
    old, new = build(names)
    repo, pull = open_pull(github, {path: old}, {path: new})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output
    for field in ("summary", "text"):
        assert problems(run.output.get(field) or "") == [], (field, run.output.get(field))
    rows = [line for line in run.output["summary"].split("\n") if line.startswith("| ")]
    header = table_cells("| Severity | File | Rule | Element | Finding | Fix |")
    findings = [row for row in rows if row.split("|")[1].strip() in ("**error**", "warning", "info")]
    assert findings and all(table_cells(row) == header for row in findings), findings
    assert all("\n" not in a.get("title", "") for a in run.annotations)
    bodies = [c.body for c in github.review_comments(repo.owner, repo.name, pull.number)]
    bodies += [r.body for r in github.reviews(repo.owner, repo.name, pull.number)]
    for body in bodies:
        ours = found_in(body)
        assert problems(body, markers_at_end=1 if ours else 0) == [], body
        assert ours != FORGED


@pytest.mark.parametrize("run", [3, 9, 40])
def test_a_suggestion_fence_cannot_be_closed_from_inside(github, app_url, run):
    """An Avro field line holding fences and a look-alike marker: the suggestion quotes it
    verbatim in one block, and the App's own marker, last in the body, is the one read back."""
    doc = "`" * run + " @evil-org/team <img src=x> <!-- schema-review:fingerprint=" + FORGED + " -->"
    old = '{"type": "record", "name": "User", "fields": [\n  {"name": "id", "type": "string"}\n]}\n'
    new = old.replace('"string"}\n', '"string"},\n  {"name": "level", "type": "string", "doc": '
                      + json.dumps(doc) + '}\n')
    repo, pull = open_pull(github, {"a/user.avsc": old}, {"a/user.avsc": new})
    assert review_of(github, app_url, repo, pull).conclusion == "failure"
    (comment,) = github.review_comments(repo.owner, repo.name, pull.number)
    fence = "`" * max(3, run + 1)
    assert fence + "suggestion\n" in comment.body and doc in comment.body
    assert found_in(comment.body) not in (FORGED, None)
    assert problems(comment.body, markers_at_end=1) == [], comment.body


@pytest.mark.parametrize("reason", [
    "INC-1 <img src=x onerror=alert(1)> @evil-org/secret-team\n# Heading\n```\n<!-- schema-review:x -->",
    "ok: `x` @evil-org/team `" + " | a | b |\n\n- list\n" + "`" * 30,
])
def test_a_reason_echoed_in_the_reply_and_the_audit_trail_is_escaped(github, app_url, reason):
    repo, pull = open_pull(github, {"s/user.avsc": AVRO_OLD}, {"s/user.avsc": AVRO_NEW})
    assert review_of(github, app_url, repo, pull).conclusion == "failure"
    github.set_permission(repo.owner, repo.name, "maintainer", "write")
    deliver_comment(github, app_url, github.issue_comment_event(pull, f"/schema-override {reason}", "maintainer"))
    (run,) = [r for r in github.check_runs(repo.owner, repo.name, pull.head_sha) if r.name == "schema-review"]
    assert run.conclusion == "success"
    summary = run.output["summary"]
    audit = summary.split("\n\n")[1]  # the Override table: header, delimiter, one row
    assert [table_cells(row) for row in audit.split("\n")] == [5, 5, 5], audit
    assert problems(summary.replace("@maintainer", "maintainer")) == [], summary
    (reply,) = _replies(github, repo, pull)
    assert problems(reply.replace("@maintainer", "maintainer"), markers_at_end=1) == [], reply


@pytest.mark.parametrize("body", [
    "/schema-oops <img src=x onerror=alert(1)> @evil-org/team",
    "/schema-override NOT_A_RULE a`@evil-org/t`<img <!-- -- a reason long enough",
    "/schema-x` @evil-org/t <b>bold</b> `\n# Heading",
])
def test_command_text_echoed_in_replies_is_escaped(github, app_url, body):
    repo, pull = open_pull(github, {"s/user.avsc": AVRO_OLD}, {"s/user.avsc": AVRO_NEW})
    assert review_of(github, app_url, repo, pull).conclusion == "failure"
    github.set_permission(repo.owner, repo.name, "maintainer", "admin")
    deliver_comment(github, app_url, github.issue_comment_event(pull, body, "maintainer"))
    (reply,) = _replies(github, repo, pull)
    assert problems(reply.replace("@maintainer", "maintainer")) == [], reply


def test_help_names_allowed_teams_and_users_without_mentioning_them(github, app_url):
    config = "override:\n  allow_users: [alice]\n  allow_teams: [evil-org/secret-team]\n"
    repo, pull = open_pull(github, {"s/user.avsc": AVRO_OLD, ".github/schema-review.yml": config},
                           {"s/user.avsc": AVRO_NEW})
    review_of(github, app_url, repo, pull)
    github.set_permission(repo.owner, repo.name, "reader", "read")
    deliver_comment(github, app_url, github.issue_comment_event(pull, "/schema-review help", "reader"))
    (reply,) = _replies(github, repo, pull)
    assert "alice" in reply and "evil-org/secret-team" in reply
    assert problems(reply) == [], reply


AVRO_OLD = '{"type": "record", "name": "U", "fields": [\n  {"name": "id", "type": "string"}\n]}\n'
AVRO_NEW = ('{"type": "record", "name": "U", "fields": [\n  {"name": "id", "type": "string"},\n'
            '  {"name": "level", "type": "int"}\n]}\n')


def _replies(github, repo, pull) -> list[str]:
    return [c.body for c in github.issue_comments(repo.owner, repo.name, pull.number) if c.user_type == "Bot"]
