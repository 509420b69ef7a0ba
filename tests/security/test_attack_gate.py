"""Red-team reproductions against the gate after issue 8 (a474a52): each test is an attack that
ended with the required check `success` or `neutral` for a pull request carrying a breaking
change that nobody overrode (or with a body GitHub refuses). They drive the real App under
gunicorn against the emulator; each assertion states what a fail-closed gate must do.
"""
from __future__ import annotations

import itertools
import json

import pytest

from rules.limits import MAX_SCHEMA_BYTES
from tests.harness.flow import wait_for
from tests.security.commands_flow import (FORMATS, check, deliver_comment, review_of, send,
                                          settle)

REASON = "the consumers were migrated together, see INC-9001"
_names = itertools.count()


def _repo(github, files):
    return github.create_repo("acme", f"redteam-{next(_names)}", files)


def _deliver_and_wait(github, app_url, repo, pull, action="opened"):
    """Send a pull_request event and wait until the App has listed that PR's files and gone quiet."""
    listed = len(github.calls_to("GET", rf"/pulls/{pull.number}/files"))
    send(github, app_url, "pull_request", github.pull_request_event(action, pull))
    wait_for(lambda: len(github.calls_to("GET", rf"/pulls/{pull.number}/files")) > listed,
             timeout=90, what=f"the App to list #{pull.number}'s files")
    settle(github)


# --- 1. a second pull request with the same head, to a branch where nothing breaks -------------

@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_second_pull_request_with_the_same_head_cannot_turn_the_check_green(github, app_url, fmt):
    """The check run is keyed by the head commit alone, but the verdict depends on the base.

    The author opens PR A (feature -> main, breaking: `failure`) and PR B from the *same* head
    to another branch sharing history (an old release branch where the schema does not exist
    yet, so every schema file is "added"). B's review completes the one `schema-review` run on
    the head commit with `success`, and branch protection on main reads that run for PR A.
    From a fork this needs no write access at all: any existing branch of the upstream will do.
    """
    path, base_text, head_text = FORMATS[fmt]
    repo = _repo(github, {"README.md": "contracts\n"})
    repo.commit("release-0", {"docs/release.md": "0.x line\n"}, "Release line", base="main")
    repo.commit("main", {path: base_text}, "Add the schema")
    repo.commit("feature", {path: head_text(["a"])}, "Break the schema", base="main")
    to_main = github.open_pull(repo.owner, repo.name, "feature", "main", "Change contracts")
    assert review_of(github, app_url, repo, to_main).conclusion == "failure"

    decoy = github.open_pull(repo.owner, repo.name, "feature", "release-0", "Backport")
    assert decoy.head_sha == to_main.head_sha
    _deliver_and_wait(github, app_url, repo, decoy)

    (run,) = github.check_runs(repo.owner, repo.name, to_main.head_sha)
    assert run.conclusion == "failure", (
        f"PR #{to_main.number} into main breaks {path} and shows {run.conclusion!r}: {run.output['title']}")


# --- 2. a breaking change moved to a new file: a removal (warning) plus an addition (clean) ----

MOVED = {
    # (old path, old text, new path, new text): the same named type, incompatibly changed, in a
    # new file that shares no line with the old one (so GitHub lists no rename).
    "avro": ("s/user.avsc",
             '{"type": "record", "name": "U", "namespace": "acme",\n "fields": [\n'
             '  {"name": "id", "type": "string"}\n ]\n}\n',
             "s/user_v2.avsc",
             '{"type":"record","name":"U","namespace":"acme","fields":[{"name":"id","type":"long"},'
             '{"name":"level","type":"int"}]}\n'),
    "protobuf": ("proto/order.proto",
                 'syntax = "proto3";\n\npackage acme.v1;\n\nmessage Order {\n  string id = 1;\n'
                 '  string note = 2;\n  int64 total = 3;\n}\n',
                 "proto/orders.proto",
                 'syntax="proto3"; package acme.v1; message Order { int64 id=1; '
                 'bytes total=3; }\n'),
    "jsonschema": ("schemas/customer.schema.json",
                   json.dumps({"$id": "https://acme.example/customer", "type": "object",
                               "properties": {"id": {"type": "string"}}, "required": ["id"]}, indent=4) + "\n",
                   "schemas/customer-2.schema.json",
                   json.dumps({"$id": "https://acme.example/customer", "type": "object",
                               "properties": {"id": {"type": "integer"}, "tier": {"type": "string"}},
                               "required": ["id", "tier"], "additionalProperties": False}) + "\n"),
}


@pytest.mark.parametrize("fmt", sorted(MOVED))
def test_moving_a_type_to_a_new_file_does_not_hide_its_breaking_change(github, app_url, fmt):
    """The type's identity (Avro full name, protobuf package.message, JSON Schema $id) is what
    readers depend on, not the file name. Delete the file and add a reformatted one with the
    type incompatibly changed: GitHub lists a removal and an addition (no rename), the removal
    is only a warning by default and an added file has nothing to compare against."""
    old_path, old_text, new_path, new_text = MOVED[fmt]
    repo = _repo(github, {old_path: old_text})
    repo.commit("feature", {old_path: None, new_path: new_text}, "Reorganise schemas", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Reorganise")
    statuses = {f.filename: f.status for f in pull.files()}
    assert statuses == {old_path: "removed", new_path: "added"}, statuses  # no rename to follow
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", (
        f"{fmt}: the type changed incompatibly and the gate says {run.conclusion!r}: {run.output['title']}")


# --- 3. an override of an unreviewed file is a blank cheque for later pushes -----------------

def _avro(*required: str, padding: int = 0) -> str:
    fields = "".join(f',\n  {{"name": "{name}", "type": "int"}}' for name in required)
    return ('{"type": "record", "name": "U", "fields": [\n  {"name": "id", "type": "string"}'
            + fields + "\n]}\n" + " " * padding)


@pytest.mark.parametrize("how", ["oversized", "past-max-files"])
def test_an_override_of_an_unreviewed_file_does_not_cover_a_later_breaking_push(github, app_url, how):
    """SCHEMA_NOT_REVIEWED's fingerprint is (rule, file, ""): the same for any content. A
    maintainer accepts a harmless file the App could not read; the author then pushes a breaking
    change into that same file, keeping it unreviewable, and the old override covers it."""
    target = "schemas/zz.avsc"
    if how == "oversized":
        base = {target: _avro()}
        first = {target: _avro(padding=MAX_SCHEMA_BYTES + 7)}
        second = {target: _avro("level", "tier", padding=MAX_SCHEMA_BYTES + 7)}
    else:
        base = {".github/schema-review.yml": "max_files: 1\n", "schemas/aa.avsc": _avro(), target: _avro()}
        first = {"schemas/aa.avsc": _avro() + "\n", target: _avro() + "\n"}
        second = {target: _avro("level", "tier")}
    repo = _repo(github, base)
    repo.commit("feature", first, "Harmless change", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Harmless")
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure" and "not reviewed" in run.output["title"], run.output
    github.set_permission(repo.owner, repo.name, "maintainer", "admin")
    deliver_comment(github, app_url, github.issue_comment_event(pull, f"/schema-override {REASON}",
                                                                "maintainer"))
    assert check(github, repo, pull.head_sha).conclusion == "success"

    repo.commit("feature", second, "Now break it")  # two required fields without defaults
    run = review_of(github, app_url, repo, pull, action="synchronize")
    assert run.conclusion == "failure", (
        f"a push after the override made {target} breaking and the check says {run.conclusion!r}: "
        f"{run.output['title']}")


# --- 4. a late delivery of an older push makes the real head `neutral` ("superseded") --------

@pytest.mark.parametrize("fmt", ["avro", "protobuf"])
def test_an_older_push_delivered_late_cannot_make_the_current_head_neutral(github, app_url, fmt):
    """GitHub does not promise delivery order, and `updated_at` has one-second resolution. Two
    pushes in the same second (H1, then H2) whose deliveries arrive H2 first, H1 second: the
    ledger takes the later arrival as the newer push (bot/queue/ledger.py Ledger.admit), the
    running review of H2 is cancelled as Superseded, and review_head completes H2, the pull
    request's real head, `neutral`: a pass for branch protection, with nothing reviewed."""
    path, base_text, head_text = FORMATS[fmt]
    repo = _repo(github, {path: base_text})
    repo.commit("feature", {path: head_text(["a"])}, "First push", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Change contracts")
    first = github.pull_request_event("synchronize", pull)  # H1, generated at its push
    repo.commit("feature", {path: head_text(["a", "b"])}, "Second push, the same second")
    second = github.pull_request_event("synchronize", pull)
    second["pull_request"]["updated_at"] = first["pull_request"]["updated_at"]
    head = pull.head_sha
    assert second["pull_request"]["head"]["sha"] == head != first["pull_request"]["head"]["sha"]

    slow = github.inject("GET", rf"/pulls/{pull.number}/files", delay=8.0)  # H2's review is under way ...
    send(github, app_url, "pull_request", second)
    # (it is listing the files, a GitHub read that takes 8 s here) ...
    wait_for(lambda: slow.hits > 0, timeout=60, what="H2's review to start listing files")
    send(github, app_url, "pull_request", first)  # ... when H1's delivery arrives late
    settle(github, timeout=120)
    run = check(github, repo, head)
    assert pull.head_sha == head
    assert run.conclusion == "failure", (
        f"the pull request's head {head[:7]} carries breaking changes and its check is "
        f"{run.conclusion!r}: {run.output['title']}")


# --- 5. bodies GitHub rejects: the override record outgrows the comment limit ----------------

@pytest.mark.parametrize("files,fields", [(2, 800)])
def test_an_override_reply_fits_githubs_limit_however_many_findings(github, app_url, files, fields):
    """The sealed record goes on the reply's last line, which clip() keeps whole; it carries one
    fingerprint per breaking change (base64 JSON, ~25 characters each). The engine caps a file
    at 2,000 findings (rules/limits.py), not a pull request: an override of a few thousand
    would be a reply GitHub refuses (422). The App refuses such an override itself, saying why."""
    paths = [f"schemas/u{index}.avsc" for index in range(files)]
    repo = _repo(github, {path: _avro() for path in paths})
    repo.commit("feature", {path: _avro(*[f"f{i:05}" for i in range(fields)]) for path in paths},
                "Many required fields", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Wide records")
    assert review_of(github, app_url, repo, pull).conclusion == "failure"
    settle(github, timeout=240)
    github.set_permission(repo.owner, repo.name, "maintainer", "admin")
    command = github.issue_comment_event(pull, f"/schema-override {REASON}", "maintainer")
    send(github, app_url, "issue_comment", command)
    wait_for(lambda: github.reactions(command["comment"]["id"]), timeout=240, what="the App's reaction")
    settle(github, timeout=240)
    rejected = [(c.method, c.path) for c in github.calls if c.status == 422]
    assert rejected == [], rejected
    (reply,) = [c.body for c in github.issue_comments(repo.owner, repo.name, pull.number) if c.user_type == "Bot"]
    assert f"override {files * fields:,} breaking changes at once" in reply
    assert check(github, repo, pull.head_sha).conclusion == "failure"


# --- 6. a rename into a path with a weaker compatibility mode -----------------------------------

@pytest.mark.parametrize("weaker", ["forward", "forward_transitive"])
def test_renaming_a_schema_into_a_laxer_path_keeps_the_stricter_mode(github, app_url, weaker):
    """classify() takes the mode from the head path alone (bot/review/review.py review, bot/config/config.py
    classify). The repository reviews `schemas/**` as `full` and lets `schemas/sandbox/**` be
    `forward`; moving a production schema into the sandbox while adding a required field (which
    old data cannot satisfy: backward-incompatible) is reviewed as forward only and passes. The
    next pull request moves it back unchanged."""
    config = (f"compatibility: full\noverrides:\n  - paths: [\"schemas/sandbox/**\"]\n"
              f"    compatibility: {weaker}\n")
    fields = "".join(f'  {{"name": "f{index}", "type": "string"}},\n' for index in range(8))
    before = '{"type": "record", "name": "U", "fields": [\n' + fields + '  {"name": "id", "type": "string"}\n]}\n'
    after = before.replace('"id", "type": "string"}', '"id", "type": "string"},\n  {"name": "level", "type": "int"}')
    repo = _repo(github, {".github/schema-review.yml": config, "schemas/u.avsc": before})
    repo.commit("feature", {"schemas/u.avsc": None, "schemas/sandbox/u.avsc": after},
                "Move to the sandbox", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Tidy up")
    (listed,) = pull.files()
    assert (listed.status, listed.previous_filename) == ("renamed", "schemas/u.avsc")
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", (
        f"U gained a required field (backward-incompatible under `full`) and the gate says "
        f"{run.conclusion!r}: {run.output['title']}")


# --- 7. a merge group of two overridden pull requests ------------------------------------------

def test_a_merge_group_of_two_overridden_pull_requests_can_merge(github, app_url):
    """GitHub names one pull request in a group's head_ref (the last queued), but the group's
    commit holds every pull request queued before it too (bot/handlers/target.py QUEUED_PULL):
    the earlier ones' overrides are not read, so a queue with two accepted breaking changes
    rejects the second forever. Fail closed, but the queue cannot merge what maintainers accepted."""
    repo = _repo(github, {"s/a.avsc": _avro(), "s/b.avsc": _avro()})
    repo.commit("one", {"s/a.avsc": _avro("level")}, "Break a", base="main")
    repo.commit("two", {"s/b.avsc": _avro("tier")}, "Break b", base="main")
    github.set_permission(repo.owner, repo.name, "maintainer", "write")
    pulls = [github.open_pull(repo.owner, repo.name, branch, "main", branch) for branch in ("one", "two")]
    for pull in pulls:
        assert review_of(github, app_url, repo, pull).conclusion == "failure"
        deliver_comment(github, app_url, github.issue_comment_event(pull, f"/schema-override {REASON}",
                                                                    "maintainer"))
        assert check(github, repo, pull.head_sha).conclusion == "success"
    base_sha = repo.sha("main")
    last = pulls[-1]
    # GitHub's group commit merges every queued pull request's head onto the base.
    group = repo.commit(f"gh-readonly-queue/main/pr-{last.number}-{last.head_sha}",
                        {"s/a.avsc": _avro("level"), "s/b.avsc": _avro("tier")}, "Merge group", base="main",
                        merged=tuple(p.head_sha for p in pulls))
    send(github, app_url, "merge_group", github.merge_group_event(repo, last, base_sha=base_sha, head_sha=group))
    run = check(github, repo, group)
    settle(github)
    assert run.conclusion == "success", (
        f"both breaking changes were overridden on their pull requests; the group says "
        f"{run.conclusion!r}: {run.output['title']}")
