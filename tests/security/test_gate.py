"""Attacks 3 and 5: the required check cannot be made neutral or green without a review.

Each test drives the real App under gunicorn against the emulator. Branch protection accepts
`neutral` as a pass, so "could not review" must conclude `failure` (an override can lift it),
a real `failure` must never be replaced by a later error, and the places GitHub's payloads are
thin (fork re-runs, merge queues) must still be reviewed.
"""
from __future__ import annotations

import json

import pytest

from rules.limits import MAX_SCHEMA_BYTES
from tests.harness.flow import wait_for
from tests.security.commands_flow import (check, deliver_comment, failing_pull, open_pull, review_of,
                                          send, settle)

CONFIG = ".github/schema-review.yml"
AVRO = '{"type": "record", "name": "U", "fields": [\n  {"name": "id", "type": "string"}%s\n]}\n'
FILES = r"/pulls/\d+/files$"
REASON = "every consumer reads the queue in lockstep, INC-77"


def avro(*required: str) -> str:
    return AVRO % "".join(f',\n  {{"name": "{name}", "type": "int"}}' for name in required)


def no_rejected_writes(github) -> None:
    """GitHub would have answered 422 to a body over its limits: the App never sends one."""
    rejected = [(c.method, c.path) for c in github.calls if c.status == 422]
    assert rejected == [], rejected


# --- unreviewed files fail closed -------------------------------------------------------------

@pytest.mark.parametrize("padding", [3, 11])
def test_padding_a_pull_request_past_max_files_fails_the_check(github, app_url, padding):
    """Harmless schemas sorted before the breaking one push it past `max_files`."""
    base = {CONFIG: "max_files: 2\n", "schemas/zz.avsc": avro()}
    # Each padding file defines a type of its own (the same name twice would be an error itself).
    changes = {f"schemas/a{index:02}.avsc": avro().replace('"name": "U"', f'"name": "A{index}"')
               for index in range(padding)}
    changes["schemas/zz.avsc"] = avro("level")
    repo, pull = open_pull(github, base, changes)
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output
    assert run.output["title"] == f"{padding - 1} of {padding + 1} schema files not reviewed"
    assert "`schemas/zz.avsc`" in run.output["summary"] and "max_files" in run.output["summary"]
    no_rejected_writes(github)


@pytest.mark.parametrize("side", ["head", "base"])
@pytest.mark.parametrize("over", [1, 300_000])
def test_a_schema_past_the_size_limit_fails_the_check(github, app_url, side, over):
    padded = avro("level") + " " * (MAX_SCHEMA_BYTES + over)  # still valid JSON
    base, head = (avro(), padded) if side == "head" else (padded, avro("level"))
    repo, pull = open_pull(github, {"schemas/u.avsc": base}, {"schemas/u.avsc": head})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output
    assert run.output["title"] == "1 of 1 schema file not reviewed"
    assert f"the {side} version is" in run.output["summary"]


def test_an_unreviewed_file_can_be_overridden_like_a_breaking_change(github, app_url):
    padded = avro() + " " * (MAX_SCHEMA_BYTES + 10)
    repo, pull = open_pull(github, {"schemas/u.avsc": avro()}, {"schemas/u.avsc": padded})
    assert review_of(github, app_url, repo, pull).conclusion == "failure"
    github.set_permission(repo.owner, repo.name, "maintainer", "admin")
    deliver_comment(github, app_url,
                    github.issue_comment_event(pull, f"/schema-override {REASON}", "maintainer"))
    run = check(github, repo, pull.head_sha)
    assert run.conclusion == "success", run.output
    assert "SCHEMA_NOT_REVIEWED" in run.output["summary"]


# --- what the App posts always fits ------------------------------------------------------------

@pytest.mark.parametrize("length,char", [(40_000, "p"), (70_000, "q"), (33_000, "é")])
def test_a_huge_property_name_cannot_break_publishing(github, app_url, length, char):
    name = char * length
    old = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
    new = {**old, "properties": {**old["properties"], name: {"type": "string"}}, "required": ["id", name]}
    path = "schemas/c.schema.json"
    repo, pull = open_pull(github, {path: json.dumps(old, indent=2) + "\n"},
                           {path: json.dumps(new, indent=2) + "\n"})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output
    assert "could not finish" not in run.output["title"]
    wait_for(lambda: github.reviews(repo.owner, repo.name, pull.number), timeout=60, what="the review")
    settle(github)
    no_rejected_writes(github)
    bodies = [c.body for c in github.review_comments(repo.owner, repo.name, pull.number)]
    assert bodies and all(len(b) <= 65_536 and "schema-review:fingerprint=" in b for b in bodies)


# --- a real failure stands --------------------------------------------------------------------

def test_a_failure_is_not_downgraded_by_a_rerun_that_cannot_finish(github, app_url):
    repo, pull = failing_pull(github, app_url, "avro", ["a"])
    (run,) = [r for r in github.check_runs(repo.owner, repo.name, pull.head_sha)]
    title = run.output["title"]
    github.inject("GET", FILES, status=502, times=None)
    try:
        send(github, app_url, "check_run", github.check_run_event("rerequested", run))
        # 1 attempt + 3 job retries, each retrying the request itself 5 times.
        wait_for(lambda: len(github.calls_to("GET", FILES)) >= 1 + 4 * 6, timeout=120,
                 what="the re-run to give up")
        settle(github)
    finally:
        github.clear_faults()
    run = check(github, repo, pull.head_sha)
    assert run.conclusion == "failure", run.output
    assert run.output["title"].startswith(title) and "could not finish" in run.output["title"]
    assert "U.a" in run.output["summary"]  # the last real verdict, kept


# --- fork pull requests -----------------------------------------------------------------------

@pytest.mark.parametrize("event", ["check_run", "check_suite"])
def test_a_fork_rerun_is_reviewed_not_waved_through(github, app_url, event):
    """For forks GitHub sends `pull_requests: []`; the App asks which open pull request has the
    head instead of concluding there is none."""
    repo, pull = failing_pull(github, app_url, "jsonschema", ["a", "b"])
    (run,) = github.check_runs(repo.owner, repo.name, pull.head_sha)
    payload = github.check_run_event("rerequested", run)
    payload["check_run"]["pull_requests"] = []
    payload["check_run"]["check_suite"]["pull_requests"] = []
    if event == "check_suite":
        payload = {**payload, "check_suite": payload["check_run"]["check_suite"]}
        payload["check_suite"].update(head_sha=pull.head_sha, pull_requests=[])
        del payload["check_run"]
    listed = len(github.calls_to("GET", r"/pulls$"))
    send(github, app_url, event, payload)
    wait_for(lambda: len(github.calls_to("GET", r"/pulls$")) > listed, timeout=60,
             what="the open pull requests to be listed")
    settle(github)
    run = check(github, repo, pull.head_sha)
    assert run.conclusion == "failure", run.output
    assert "No open pull request" not in run.output["title"]


# --- config by exact ref ----------------------------------------------------------------------

@pytest.mark.parametrize("relaxed", ["paths:\n  avro: []\n", "rules:\n  AVRO_FIELD_ADDED_WITHOUT_DEFAULT: off\n"])
def test_a_tag_named_like_the_default_branch_does_not_swap_the_config(github, app_url, relaxed):
    repo, pull = open_pull(github, {"schemas/u.avsc": avro()}, {"schemas/u.avsc": avro("level")})
    relaxing = repo.commit("relax", {CONFIG: relaxed}, "Relax the gate", base="main")
    repo.git.run("tag", repo.default_branch, relaxing)  # git prefers refs/tags/main to refs/heads/main
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output
    assert "AVRO_FIELD_ADDED_WITHOUT_DEFAULT" in run.output["summary"]


# --- merge queues -----------------------------------------------------------------------------

def queue(github, app_url, repo, pull, files: dict[str, str]):
    """GitHub's merge queue: a group commit (the base plus the pull request) and its event."""
    base_sha = repo.git.branch_sha(pull.base)
    branch = f"gh-readonly-queue/{pull.base}/pr-{pull.number}-{pull.head_sha}"
    head_sha = repo.commit(branch, files, "Merge group", base=pull.base, merged=(pull.head_sha,))
    send(github, app_url, "merge_group", github.merge_group_event(repo, pull, base_sha=base_sha,
                                                                  head_sha=head_sha))
    run = check(github, repo, head_sha)
    settle(github)
    return run


def test_a_merge_group_is_reviewed_and_an_override_carries_over(github, app_url):
    repo, pull = failing_pull(github, app_url, "avro", ["a"])
    reviews = len(github.reviews(repo.owner, repo.name, pull.number))
    path = "s/user.avsc"
    grouped = {path: repo.read(pull.head_sha, path).decode()}
    run = queue(github, app_url, repo, pull, grouped)
    assert run.conclusion == "failure", run.output
    assert "U.a" in run.output["summary"] and run.output["title"] == "1 breaking change in 1 schema file"
    assert len(github.reviews(repo.owner, repo.name, pull.number)) == reviews  # no conversation posts
    github.set_permission(repo.owner, repo.name, "maintainer", "write")
    deliver_comment(github, app_url, github.issue_comment_event(pull, f"/schema-override {REASON}",
                                                                "maintainer"))
    assert check(github, repo, pull.head_sha).conclusion == "success"
    run = queue(github, app_url, repo, pull, grouped)
    assert run.conclusion == "success" and "Overridden by @maintainer" in run.output["title"]


def test_a_merge_group_with_a_compatible_change_passes(github, app_url):
    repo, pull = open_pull(github, {"s/u.avsc": avro()}, {"s/u.avsc": avro().replace(
        '"string"}', '"string"},\n  {"name": "note", "type": ["null", "string"], "default": null}')})
    assert review_of(github, app_url, repo, pull).conclusion == "success"
    run = queue(github, app_url, repo, pull, {"s/u.avsc": repo.read(pull.head_sha, "s/u.avsc").decode()})
    assert run.conclusion == "success", run.output
