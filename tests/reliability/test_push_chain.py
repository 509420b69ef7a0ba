"""A burst of pushes in one second: each `synchronize` names the head it replaced, so only the last
head is reviewed and gets a check run, whatever order the deliveries arrive in; pushes the chain
cannot order (force pushes onto unrelated commits) stay tied and are all reviewed, as before.
The queue's workers are held while the deliveries arrive, so no review begins before the last
one: what is reviewed is decided by the chain alone, not by how fast a worker picked a job up."""
from __future__ import annotations

import contextlib
import os
import signal
import sqlite3

import pytest

from tests.harness.flow import AVRO_BREAKING, completed_run, deliver, open_pull, runs, settle, wait_for
from tests.harness.server import app_env, gunicorn, local_worker, worker

SHUFFLED = [3, 7, 0, 9, 5, 1, 8, 2, 6, 4]  # the order ten pushes' deliveries arrive in
FILES = "pulls/list-files"
LISTING = r"/pulls/\d+/files$"


@pytest.fixture
def held_app(request, github, tmp_path):
    """A context manager giving the App's URL; no job runs until its block ends (SQLite: the
    App's queue worker process is stopped meanwhile; Redis: the worker process starts after)."""
    started = []

    @contextlib.contextmanager
    def hold():
        env = app_env(github, tmp_path, **({"REDIS_URL": request.getfixturevalue("redis_url")}
                                           if request.param == "redis" else {}))
        web, url = gunicorn(env, tmp_path / "web.log")
        started.append(web)
        if request.param == "redis":
            yield url
            started.append(worker(env, tmp_path / "worker.log"))
            return
        pid = wait_for(lambda: local_worker(web), what="the App's queue worker")
        wait_for(lambda: _stopped_unlocked(pid, tmp_path / "queue.db"), what="the worker held between writes")
        try:
            yield url
        finally:
            os.kill(pid, signal.SIGCONT)

    yield hold
    for process in reversed(started):
        process.stop()


def _stopped_unlocked(pid: int, queue: os.PathLike) -> bool:
    """Stop the worker; True if it holds no write on the queue's database (else let it go on)."""
    os.kill(pid, signal.SIGSTOP)
    try:
        with contextlib.closing(sqlite3.connect(queue, timeout=0)) as conn:
            conn.execute("begin immediate")
            conn.rollback()
        return True
    except sqlite3.OperationalError:
        os.kill(pid, signal.SIGCONT)
        return False


def pushes(github, heads: int, *, force: bool):
    """A pull request and `heads` pushes to it, their deliveries all stamped with one second.
    force: each push's `before` is a commit no other push showed (a force push onto new work)."""
    repo, pull = open_pull(github)
    events = []
    for index in range(heads):
        repo.commit("feature", {"schemas/user.avsc": AVRO_BREAKING.replace("level", f"level{index}")},
                    f"Push {index}")
        extra = {"before": f"{index + 1:040x}"} if force else {}
        events.append(github.pull_request_event("synchronize", pull, **extra))
    for event in events:
        event["pull_request"]["updated_at"] = events[0]["pull_request"]["updated_at"]
    return repo, pull, events


def heads_with_runs(github, repo, events) -> list[str]:
    return [event["after"] for event in events if runs(github, repo, event["after"])]


@pytest.mark.parametrize("held_app", ["sqlite", "redis"], indirect=True)
def test_ten_chained_pushes_in_one_second_delivered_out_of_order_review_only_the_last(github, held_app):
    repo, pull, events = pushes(github, 10, force=False)
    assert [event["before"] for event in events[1:]] == [event["after"] for event in events[:-1]]
    with held_app() as url:
        for index in SHUFFLED:
            deliver(github, url, events[index])
    assert completed_run(github, repo, pull.head_sha).conclusion == "failure"
    settle(github)
    assert heads_with_runs(github, repo, events) == [pull.head_sha]
    assert sum(1 for call in github.calls if call.operation == FILES) == 1  # one review in all


@pytest.mark.parametrize("held_app", ["sqlite"], indirect=True)
def test_two_force_pushes_in_one_second_stay_tied_and_the_real_head_is_reviewed(github, held_app):
    """Their `before`s link to no push the App saw: the clock cannot order them either, so both
    are taken up (as before the chain); GitHub's head answers which one gates the merge, before
    the other's review puts a check on it."""
    repo, pull, events = pushes(github, 2, force=True)
    with held_app() as url:
        for event in reversed(events):
            deliver(github, url, event)
    assert completed_run(github, repo, pull.head_sha).conclusion == "failure"
    # Both are taken up: waited for with a deadline (a quiet spell proves nothing on a busy machine).
    wait_for(lambda: sum(1 for call in github.calls if call.operation == FILES) == 2,
             what="both heads' file listings")
    settle(github)
    assert sum(1 for call in github.calls if call.operation == FILES) == 2
    assert heads_with_runs(github, repo, events) == [pull.head_sha]


def test_a_head_replaced_while_its_review_reads_gets_no_check_run(github, app_url):
    """Its review had put no check on it yet: a cancelled one would only cost GitHub calls and
    show on a commit nobody reviews any more (the newer head's check gates the merge)."""
    repo, pull, (older, newer) = pushes(github, 2, force=False)
    held = github.inject("GET", LISTING, delay=3.0)  # the older push's review is reading ...
    deliver(github, app_url, older)
    wait_for(lambda: held.hits, what="the older head's held file listing")
    deliver(github, app_url, newer)  # ... when the push that replaced it arrives
    assert completed_run(github, repo, pull.head_sha).conclusion == "failure"
    settle(github)
    assert heads_with_runs(github, repo, [older, newer]) == [pull.head_sha]
