"""Attack: an override stretched past what its author accepted (SECURITY.md, issue 18).

A maintainer overrides "`U.a` int -> string". Two ways the check used to stay "Overridden":
the author force-pushes a *different* change at the same element (int -> array<bytes>), which
the maintainer never saw, since a record's fingerprints named (rule, file, element) only; or the
maintainer themselves pushes (or commits) in the pull request afterwards, since a recompute
re-checked the overrider's permission but not that they were still uninvolved. The control row:
an unrelated later push by someone else, with the same breaking change re-reported on another
line, stays covered (README, "The audit trail").
"""
from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from rules import Finding, Severity
from bot.render.fingerprint import covered_by_override
from tests.security.commands_flow import (check, clock_ahead, deliver_comment, open_pull, review_of,
                                          reviewed, send)

REASON = "consumers migrated in lockstep, see INC-4711"
STRING, BOOLEAN = '"string"', '"boolean"'
OPTIONAL_B = '{"name": "b", "type": ["null", "string"], "default": null}'


def avro(a_type: str, *, before_a: str = "") -> str:
    """Record U, one field a line: a field inserted before `a` moves its finding's line."""
    fields = ['{"name": "id", "type": "string"}'] + ([before_a] if before_a else []) + \
        ['{"name": "a", "type": %s}' % a_type]
    return '{"type": "record", "name": "U", "fields": [\n  ' + ",\n  ".join(fields) + "\n]}\n"


# (what happens after the override, the new head, who commits it, who pushes it, conclusion)
CASES = [
    ("a different change at the overridden element", avro('{"type": "array", "items": "bytes"}'),
     "other", "other", "failure"),
    ("the overrider pushes an unrelated change", avro(STRING, before_a=OPTIONAL_B),
     "other", "maintainer", "failure"),
    ("the overrider commits an unrelated change", avro(STRING, before_a=OPTIONAL_B),
     "maintainer", "other", "failure"),
    ("someone else pushes an unrelated change", avro(STRING, before_a=OPTIONAL_B),
     "other", "other", "success"),
]


@pytest.mark.parametrize("head, committer, pusher, conclusion",
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_an_override_covers_the_change_its_uninvolved_author_saw(github, app_url, head, committer,
                                                                 pusher, conclusion):
    repo, pull = open_pull(github, {"s/u.avsc": avro('"int"')}, {"s/u.avsc": avro(STRING)})
    assert review_of(github, app_url, repo, pull).conclusion == "failure"
    reviewed(github, repo, pull)
    for user in ("maintainer", "other"):
        github.set_permission(repo.owner, repo.name, user, "write")
    command = github.issue_comment_event(pull, f"/schema-override {REASON}", "maintainer")
    deliver_comment(github, app_url, command)
    assert check(github, repo, pull.head_sha).output["title"] == "Overridden by @maintainer"

    with clock_ahead(github, 30):
        repo.commit("feature", {"s/u.avsc": head}, "Later change", by=committer)
        send(github, app_url, "pull_request", github.pull_request_event("synchronize", pull, sender=pusher))
    run = check(github, repo, pull.head_sha)

    assert run.conclusion == conclusion, run.output["title"]
    if conclusion == "failure":
        assert "1 not covered by the override" in run.output["title"]
        assert "did not write or push them" in run.output["summary"]


def _finding(message: str) -> Finding:
    return Finding(rule="AVRO_TYPE_CHANGED", severity=Severity.ERROR, line=3, path="U.a", message=message,
                   file="s/u.avsc")


FILE = SimpleNamespace(path="s/u.avsc", version="")


def test_the_fingerprint_names_the_change_not_the_context_added_to_its_message():
    seen = _finding('Type of "U.a" was changed from int to string.')
    # Context the App adds (a promotion window's day count, blame) keeps the rule's words.
    dated = replace(seen, message=seen.message + " Optional since 2026-11-01, 32 days.", reported=seen.change)
    moved = replace(seen, line=9)
    other = _finding('Type of "U.a" was changed from int to array<bytes>.')
    assert {covered_by_override(f, FILE) for f in (seen, dated, moved)} == {covered_by_override(seen, FILE)}
    assert covered_by_override(other, FILE) != covered_by_override(seen, FILE)
