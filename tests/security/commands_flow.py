"""Driving commands at the real App: pull requests per format, comments, the emulator's clock."""
from __future__ import annotations

import contextlib
import json

from tests.integration.test_review_flow import open_pull, review_of, send
from tests.harness.flow import wait_for
from tests.security.conftest import completed_run, settle

def avro_with(fields: list[str]) -> str:
    lines = ['  {"name": "id", "type": "string"}'] + [f'  {{"name": "{f}", "type": "int"}}' for f in fields]
    return '{"type": "record", "name": "U", "fields": [\n' + ",\n".join(lines) + "\n]}\n"


def json_with(required: list[str]) -> str:
    schema = {"type": "object", "properties": {"id": {"type": "string"}, **{r: {"type": "string"} for r in required}},
              "required": ["id", *required]}
    return json.dumps(schema, indent=2) + "\n"


def proto_without(deleted: list[str], *, all_fields=("a", "b", "c", "d")) -> str:
    body = "".join(f"  string {name} = {index + 2};\n" for index, name in enumerate(all_fields)
                   if name not in deleted)
    return f'syntax = "proto3";\n\npackage acme.v1;\n\nmessage O {{\n  string id = 1;\n{body}}}\n'


# (path, base text, head text with the given breaking changes) per format.
FORMATS = {
    "avro": ("s/user.avsc", avro_with([]), avro_with),
    "jsonschema": ("schemas/c.schema.json", json_with([]), json_with),
    "protobuf": ("proto/o.proto", proto_without([]), proto_without),
}


def failing_pull(github, app_url, fmt: str, changes: list[str]):
    path, base, head = FORMATS[fmt]
    repo, pull = open_pull(github, {path: base}, {path: head(changes)})
    run = review_of(github, app_url, repo, pull)
    assert run.conclusion == "failure", run.output
    reviewed(github, repo, pull)
    return repo, pull


def reviewed(github, repo, pull) -> None:
    """The review (inline comments) is posted after the check completes: wait for it too."""
    wait_for(lambda: github.reviews(repo.owner, repo.name, pull.number), timeout=60, what="the App's review")
    settle(github, quiet=QUIET, timeout=120)


def push(github, app_url, repo, pull, fmt: str, changes: list[str], *, announce: bool = True):
    path, _base, head = FORMATS[fmt]
    repo.commit("feature", {path: head(changes)}, "Another change")
    if announce:
        return review_of(github, app_url, repo, pull, action="synchronize")
    return None


@contextlib.contextmanager
def clock_ahead(github, seconds: float):
    """GitHub's clock `seconds` ahead: what happens inside happened that much later."""
    original = github.state.clock
    github.state.clock = lambda: original() + seconds
    try:
        yield
    finally:
        github.state.clock = original


QUIET = 1.5  # seconds without a GitHub call that mean the App is done (a loaded machine pauses)


def deliver_comment(github, app_url, payload: dict, *, answered: bool = True) -> None:
    """Send a command; with `answered`, wait for the App's reaction to it, then for quiet."""
    send(github, app_url, "issue_comment", payload)
    if answered:
        wait_for(lambda: github.reactions(payload["comment"]["id"]), timeout=60,
                 what="the App's reaction to the command")
    settle(github, quiet=QUIET, timeout=120)


def check(github, repo, sha: str):
    return completed_run(github, repo, sha, timeout=60)


def replies(github, repo, pull) -> list[str]:
    return [c.body for c in github.issue_comments(repo.owner, repo.name, pull.number) if c.user_type == "Bot"]


def reactions(github, comment_id: int) -> list[str]:
    return [r.content for r in github.reactions(comment_id)]


__all__ = ["FORMATS", "failing_pull", "push", "clock_ahead", "deliver_comment", "check", "replies",
           "reactions", "reviewed", "send", "settle", "review_of", "open_pull"]
