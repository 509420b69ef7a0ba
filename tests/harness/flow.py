"""Pull requests on the emulator, signed deliveries, and waiting for the App's verdict."""
from __future__ import annotations

import itertools
import os
import time

from tests.github_emulator import GitHubEmulator

from .server import SECRET

_names = itertools.count()
# Deadlines, not expectations: generous, since a loaded 2-core machine may run a review for long.
DEADLINE = 120.0

AVRO_BASE = """{
  "type": "record",
  "name": "UserEvent",
  "fields": [
    {"name": "id", "type": "string"},
    {"name": "email", "type": "string"}
  ]
}
"""
# A required field added: a failure with one inline suggestion.
AVRO_BREAKING = AVRO_BASE.replace('{"name": "email", "type": "string"}',
                                  '{"name": "email", "type": "string"},\n    {"name": "level", "type": "int"}')
AVRO_FIXED = AVRO_BREAKING.replace('"type": "int"}', '"type": ["null", "int"], "default": null}')


def open_pull(github: GitHubEmulator, head_text: str = AVRO_BREAKING):
    repo = github.create_repo("acme", f"rel-{next(_names)}", {"schemas/user.avsc": AVRO_BASE})
    repo.commit("feature", {"schemas/user.avsc": head_text}, "Change the schema", base="main")
    return repo, github.open_pull(repo.owner, repo.name, "feature", "main", "Change the schema")


def deliver(github: GitHubEmulator, url: str, payload: dict, *, event: str = "pull_request",
            delivery_id: str | None = None):
    response = github.deliver(url + "/webhook", event, payload, SECRET, delivery_id=delivery_id)
    assert response.status_code in (200, 202), response.text
    return response


def runs(github: GitHubEmulator, repo, sha: str) -> list:
    return [r for r in github.check_runs(repo.owner, repo.name, sha) if r.name == "schema-review"]


def wait_for(predicate, *, timeout: float = DEADLINE, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def completed_run(github: GitHubEmulator, repo, sha: str, *, timeout: float = DEADLINE):
    found = wait_for(lambda: [r for r in runs(github, repo, sha) if r.status == "completed"],
                     timeout=timeout, what=f"a completed check on {sha[:7]}")
    return found[0]


def quiet_seconds() -> float:
    """How long the App must stay silent to count as done: 0.5 s on an idle machine, longer (up to
    5 s) when the run queue is longer than the cores, as a delivery may wait that long for a CPU."""
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    return min(max(0.5, 0.5 * load), 5.0)


def settle(github: GitHubEmulator, *, quiet: float | None = None, timeout: float = DEADLINE) -> None:
    """Wait until the App stops calling GitHub (the review is posted after the check completes)."""
    quiet = quiet_seconds() if quiet is None else quiet
    deadline = time.monotonic() + timeout
    seen, since = len(github.calls), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.05)
        if len(github.calls) != seen:
            seen, since = len(github.calls), time.monotonic()
        elif time.monotonic() - since >= quiet:
            return
    raise AssertionError("the App kept calling GitHub")


def reviews(github: GitHubEmulator, repo, pull) -> list:
    return github.reviews(repo.owner, repo.name, pull.number)


def comments(github: GitHubEmulator, repo, pull) -> list:
    return github.review_comments(repo.owner, repo.name, pull.number)
