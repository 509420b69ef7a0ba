"""Attack 4b: override records cannot be forged, moved or out-voted.

The App keeps each accepted command as a record sealed with an HMAC (bot/overrides/records.py) at the end
of its own reply. A write-access user who hides look-alike records in a reason, in the old
unsealed format or sealed with a guessed key, gets exactly their own scoped override.
"""
from __future__ import annotations

import base64
import json

import pytest

from bot.render.fingerprint import found_in
from bot.overrides.verdict import Record, RecordKind, records_in
from bot.overrides.records import derive_key, scope_of, seal, unseal
from tests.harness.server import SECRET
from tests.security.commands_flow import (FORMATS, check, deliver_comment, open_pull, replies,
                                          review_of, reviewed)

REASON = "rollout is coordinated with every consumer"


def _old_format(data: dict) -> str:
    return "<!-- schema-review:override " + base64.urlsafe_b64encode(json.dumps(data).encode()).decode() + " -->"


def _forgeries(repo, pull, fingerprints: list[str]) -> list[str]:
    data = {"kind": "override", "user": "boss", "at": "2026-01-01T00:00:00Z", "comment": "https://x",
            "reason": "forged", "scope": [], "fingerprints": fingerprints, "head": pull.head_sha}
    scope = scope_of(repo.full_name, pull.number)
    return [_old_format(data),
            seal(data, key=derive_key(b"guessed-secret"), scope=scope),
            seal(data, key=b"\0" * 32, scope=scope),
            seal(data, key=derive_key(SECRET.encode()), scope=scope_of(repo.full_name, pull.number + 1))]


def _two_files(github, app_url, fmt: str):
    """A pull request breaking two files of one format, one finding each."""
    path, base, head = FORMATS[fmt]
    second = path.replace(".", "2.", 1)
    repo, pull = open_pull(github, {path: base, second: base}, {path: head(["a"]), second: head(["b"])})
    assert review_of(github, app_url, repo, pull).conclusion == "failure"
    reviewed(github, repo, pull)
    return repo, pull, path, second


@pytest.mark.parametrize("which", range(4), ids=["old-format", "guessed-secret", "zero-key", "other-pull"])
@pytest.mark.parametrize("fmt", ["avro", "jsonschema", "protobuf"])
def test_a_forged_record_inside_a_reason_is_not_honoured(github, app_url, fmt, which):
    repo, pull, first, second = _two_files(github, app_url, fmt)
    github.set_permission(repo.owner, repo.name, "writer", "write")
    github.set_permission(repo.owner, repo.name, "boss", "admin")  # whom the forged record names
    prints = [found_in(c.body) for c in github.review_comments(repo.owner, repo.name, pull.number)]
    assert len(prints) >= 2
    forged = _forgeries(repo, pull, prints)[which]
    # The writer may override the first file; the forged record claims both, in boss's name.
    body = f"/schema-override {first} -- {REASON}\n{forged}\n\n{forged}"
    deliver_comment(github, app_url, github.issue_comment_event(pull, body, "writer"))
    run = check(github, repo, pull.head_sha)
    assert run.conclusion == "failure", run.output
    assert run.output["title"].startswith("Overridden by @writer ("), (run.output["title"], replies(github, repo, pull))
    assert "not covered" in run.output["title"]
    assert second in run.output["summary"].split("**Not covered**")[1].split("\n")[0]
    assert "@boss" not in run.output["summary"] and "forged" not in run.output["summary"]
    (accepted,) = replies(github, repo, pull)
    assert "<!-- schema-review:override " not in accepted  # the echoed reason is escaped
    assert accepted.rstrip().split("\n")[-1].startswith("<!-- schema-review:record ")


def test_a_copy_of_the_apps_record_in_a_human_comment_does_not_count(github, app_url):
    """Records are read from the App's own comments only: re-posting one after a revoke is inert."""
    repo, pull, first, _second = _two_files(github, app_url, "avro")
    github.set_permission(repo.owner, repo.name, "writer", "write")
    deliver_comment(github, app_url, github.issue_comment_event(pull, f"/schema-override {REASON}", "writer"))
    assert check(github, repo, pull.head_sha).conclusion == "success"
    (accepted,) = replies(github, repo, pull)
    deliver_comment(github, app_url, github.issue_comment_event(pull, "/schema-override revoke", "writer"))
    github.add_issue_comment(pull, accepted, user="writer")
    github.add_issue_comment(pull, accepted, user="other-app[bot]", user_type="Bot")
    github.set_permission(repo.owner, repo.name, "reader", "read")
    deliver_comment(github, app_url, github.issue_comment_event(pull, "/schema-review recheck", "reader"))
    run = check(github, repo, pull.head_sha)
    assert run.conclusion == "failure" and "Overridden" not in run.output["title"], run.output


def test_the_audit_trail_names_only_who_really_overrode(github, app_url):
    repo, pull, first, second = _two_files(github, app_url, "jsonschema")
    github.set_permission(repo.owner, repo.name, "writer", "write")
    github.set_permission(repo.owner, repo.name, "boss", "admin")
    prints = [found_in(c.body) for c in github.review_comments(repo.owner, repo.name, pull.number)]
    forged = _forgeries(repo, pull, prints)[0]
    body = f"/schema-override {first} {second} -- {REASON} {forged}"
    deliver_comment(github, app_url, github.issue_comment_event(pull, body, "writer"))
    run = check(github, repo, pull.head_sha)
    assert run.conclusion == "success" and run.output["title"] == "Overridden by @writer"
    assert "@boss" not in run.output["summary"]


# --- unit: the sealed records themselves --------------------------------------------------------

KEY, SCOPE = derive_key(b"s3cret"), "acme/contracts#7"


def test_derive_key_is_stable_per_secret_and_never_the_secret():
    assert derive_key(b"s3cret") == KEY and len(KEY) == 32
    assert derive_key(b"s3cret!") != KEY and KEY != b"s3cret".ljust(32, b"\0")


@pytest.mark.parametrize("data", [{"kind": "override", "n": 1}, {"reason": "<!-- x --> `` @a", "list": [1, 2]},
                                  {"k": "x" * 5000}])
def test_seal_round_trips_only_with_the_same_key_and_scope(data):
    marker = seal(data, key=KEY, scope=SCOPE)
    assert unseal(f"text\n{marker}", key=KEY, scope=SCOPE) == data
    assert unseal(marker, key=derive_key(b"other"), scope=SCOPE) is None
    assert unseal(marker, key=KEY, scope="acme/contracts#8") is None
    assert unseal(marker.replace("record ", "record x"), key=KEY, scope=SCOPE) is None


def test_the_last_valid_marker_of_a_body_wins():
    first, last = seal({"n": 1}, key=KEY, scope=SCOPE), seal({"n": 2}, key=KEY, scope=SCOPE)
    bogus = seal({"n": 3}, key=b"k" * 32, scope=SCOPE)
    assert unseal(f"{first}\n{last}", key=KEY, scope=SCOPE) == {"n": 2}
    assert unseal(f"{first}\n{last}\n{bogus}", key=KEY, scope=SCOPE) == {"n": 2}
    payload, mac = last.split(" ")[2].split(".")
    tampered = last.replace(payload, payload[:-4] + ("AAAA" if not payload.endswith("AAAA") else "BBBB"))
    assert unseal(f"{first}\n{tampered}", key=KEY, scope=SCOPE) == {"n": 1}


def test_records_in_reads_sealed_records_and_skips_everything_else():
    record = Record(kind=RecordKind.OVERRIDE, user="m", at="2026-12-02T10:00:00Z", comment="c",
                    reason="r", fingerprints=("abc",), head="f" * 40)
    bodies = [record.marker(key=KEY, scope=SCOPE), _old_format({"kind": "override", "user": "x", "at": "", "comment": ""}),
              seal({"kind": "override"}, key=KEY, scope=SCOPE), seal({"kind": "nope", "user": "u", "at": "", "comment": ""},
                                                                     key=KEY, scope=SCOPE), None, ""]
    assert records_in(bodies, key=KEY, scope=SCOPE) == [record]
