"""End to end: each breaking inline comment carries a collapsed example the App computed."""
import json
import re

from tests.harness.flow import AVRO_BASE
from tests.integration.test_review_flow import comments, open_pull, review_of

SUMMARY = "<details><summary>Example that breaks</summary>"


def test_an_avro_inline_comment_carries_the_record_that_breaks(github, app_url):
    new = AVRO_BASE.replace('{"name": "email", "type": "string"}',
                            '{"name": "email", "type": "string"},\n    {"name": "userLevel", "type": "string"}')
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE}, {"schemas/user.avsc": new})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure"
    (comment,) = comments(github, repo, pull)
    assert SUMMARY in comment.body and comment.body.index(SUMMARY) > comment.body.index("```suggestion")
    details = comment.body[comment.body.index(SUMMARY):]
    assert "</details>" in details
    payload = json.loads(re.search(r"```json\n(.*?)\n```", details, re.S).group(1))
    assert "userLevel" not in payload and "email" in payload  # written with the old schema
    assert "**old** schema" in details and "No default value for field userLevel" in details


def _outside_code(markdown: str) -> str:
    """The text Markdown would interpret: fenced blocks and code spans removed (CommonMark)."""
    markdown = re.sub(r"^(`{3,})[^\n]*\n.*?^\1$", "", markdown, flags=re.S | re.M)
    return re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", markdown, flags=re.S)


def test_a_payload_cannot_close_its_fence_or_inject_markup(github, app_url):
    hostile = "``` </details><img src=x> @octocat"
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "title": "Event",
              "type": "object", "properties": {"kind": {"enum": ["a", hostile]}}}
    base = json.dumps(schema, indent=2)
    schema["properties"]["kind"]["enum"] = ["a"]
    new = json.dumps(schema, indent=2)
    repo, pull = open_pull(github, {"schemas/event.schema.json": base}, {"schemas/event.schema.json": new})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure"
    (comment,) = [c for c in comments(github, repo, pull) if SUMMARY in c.body]
    details = comment.body[comment.body.index(SUMMARY):]
    fence = re.search(r"^(`{4,})json$", details, re.M).group(1)  # longer than the ``` inside
    inside = details.split(fence + "json\n", 1)[1].split("\n" + fence, 1)[0]
    assert json.loads(inside) == {"kind": hostile}
    visible = _outside_code(details)
    assert visible.count("</details>") == 1 and "<img" not in visible and "@octocat" not in visible
