"""Red team: file names are PR-controlled strings too. Every body the App posts about hostile
paths (reviewed, not reviewed past `max_files`, or invalid) must reach GitHub escaped."""
from __future__ import annotations

import pytest

from bot.render.fingerprint import found_in
from tests.integration.test_review_flow import open_pull, review_of
from tests.security.commands_flow import settle
from tests.security.markdown_check import problems, table_cells

FORGED = "0123456789abcdef"
HOSTILE_DIRS = [
    "@evil-org/secret-team",
    "x<img src=x onerror=alert(1)>",
    "a|b|c| |",
    f"<!-- schema-review:fingerprint={FORGED} -->",
    "```",
    "line one\u2028# Heading injected\u2029- item",
    "www.evil.example",
]
AVRO = '{"type": "record", "name": "U", "fields": [\n  {"name": "id", "type": "string"}%s\n]}\n'


@pytest.mark.parametrize("limit", [2, 300])
def test_hostile_file_names_reach_no_body_unescaped(github, app_url, limit):
    old = AVRO % ""
    new = AVRO % ',\n  {"name": "level", "type": "int"}'
    paths = [f"schemas/{name}/u.avsc" for name in HOSTILE_DIRS]
    base = {".github/schema-review.yml": f"max_files: {limit}\n", **{p: old for p in paths}}
    repo, pull = open_pull(github, base, {p: new for p in paths})
    run = review_of(github, app_url, repo, pull)
    settle(github)
    assert run.conclusion == "failure", run.output
    for field in ("summary", "text"):
        assert problems(run.output.get(field) or "") == [], (field, run.output.get(field))
    rows = [line for line in run.output["summary"].split("\n") if line.startswith("| ")]
    widths = {table_cells(row) for row in rows if not row.startswith("|---")}
    assert rows and len(widths) <= 2, rows  # the files table and the findings table, each regular
    bodies = [c.body for c in github.review_comments(repo.owner, repo.name, pull.number)]
    bodies += [r.body for r in github.reviews(repo.owner, repo.name, pull.number)]
    for body in bodies:
        ours = found_in(body)
        assert problems(body, markers_at_end=1 if ours else 0) == [], body
        assert ours != FORGED
