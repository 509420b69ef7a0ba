"""Exactly one verdict per head: duplicates, quick pushes, a worker killed mid-job, lost deliveries."""
import time
from datetime import datetime, timedelta, timezone

import pytest

from tests.harness.flow import (AVRO_FIXED, comments, completed_run, deliver, open_pull, quiet_seconds, reviews,
                                runs, settle, wait_for)
from tests.harness.server import app_env, gunicorn

FILES = r"/pulls/\d+/files$"
REVIEWS = r"/pulls/\d+/reviews$"


def test_the_same_delivery_three_times_is_reviewed_once(github, app_url):
    repo, pull = open_pull(github)
    payload = github.pull_request_event("opened", pull)
    answers = [deliver(github, app_url, payload, delivery_id="dup-1") for _ in range(3)]
    assert [a.status_code for a in answers] == [202, 200, 200]
    assert answers[1].json()["accepted"] is False and "already received" in answers[1].json()["reason"]
    completed_run(github, repo, pull.head_sha)
    settle(github)
    assert len(runs(github, repo, pull.head_sha)) == 1
    assert len(github.calls_to("POST", r"/check-runs$")) == 1
    assert len(reviews(github, repo, pull)) == 1 and len(comments(github, repo, pull)) == 1


def test_two_pushes_100ms_apart_leave_one_verdict_on_the_newer_head(github, app_url):
    repo, pull = open_pull(github)
    older = github.pull_request_event("opened", pull)
    github.inject("GET", FILES, delay=1.0)  # the older job is mid-way when the newer push lands
    deliver(github, app_url, older)
    time.sleep(0.1)
    repo.commit("feature", {"schemas/user.avsc": AVRO_FIXED}, "Make level optional")
    newer = github.pull_request_event("synchronize", github.pull(repo.owner, repo.name, pull.number))
    new_head = newer["pull_request"]["head"]["sha"]
    assert new_head != older["pull_request"]["head"]["sha"]
    deliver(github, app_url, newer)
    run = completed_run(github, repo, new_head)
    settle(github)
    assert run.conclusion == "success" and len(runs(github, repo, new_head)) == 1
    # The older head: dropped before it started (no run) or cancelled mid-way (`cancelled`, which
    # unlike `neutral` is no pass for branch protection), never left in progress.
    old_runs = runs(github, repo, older["pull_request"]["head"]["sha"])
    assert all(r.status == "completed" and r.conclusion == "cancelled" for r in old_runs), old_runs
    assert len(old_runs) <= 1
    assert reviews(github, repo, pull) == []  # the older, failing verdict never posted its comments


@pytest.mark.parametrize("moment", ["before the verdict", "after the review was posted"])
def test_a_worker_killed_mid_job_is_resumed_after_restart_with_one_review(github, tmp_path, moment):
    env = app_env(github, tmp_path)
    first, url = gunicorn(env, tmp_path / "first.log")
    repo, pull = open_pull(github)
    if moment == "before the verdict":
        held = github.inject("GET", FILES, delay=3.0)  # the job's first read: it is mid-way while held
        deliver(github, url, github.pull_request_event("opened", pull))
        wait_for(lambda: held.hits, what="the job's held file listing")
    else:
        delayed = github.inject("POST", REVIEWS, delay=1.5)
        deliver(github, url, github.pull_request_event("opened", pull))
        completed_run(github, repo, pull.head_sha)
    first.kill()
    if moment != "before the verdict" and delayed.hits:
        # A review POST already sent lands once its 1.5 s delay is over, though its sender is dead.
        wait_for(lambda: reviews(github, repo, pull), what="the review POST sent before the kill")
    updates = next((run.updates for run in runs(github, repo, pull.head_sha)), -1)
    second, _url = gunicorn(env, tmp_path / "second.log")
    try:
        wait_for(lambda: any(r.status == "completed" and r.updates > updates for r in runs(github, repo, pull.head_sha)),
                 what="the resumed job's verdict")
        # Its review POST is held 1.5 s by the same fault: wait for one, and stay quiet for longer
        # than the hold, so a second one would be seen.
        wait_for(lambda: reviews(github, repo, pull), what="the resumed job's review")
        settle(github, quiet=max(2.0, quiet_seconds()))
    finally:
        second.stop()
    (run,) = runs(github, repo, pull.head_sha)
    assert run.conclusion == "failure"
    assert len(reviews(github, repo, pull)) == 1 and len(comments(github, repo, pull)) == 1


def test_failed_deliveries_of_the_last_three_days_are_redelivered_at_start(github, tmp_path):
    now = datetime.now(timezone.utc)
    lost = github.add_delivery("pull_request", action="synchronize", status_code=502)
    github.add_delivery("pull_request", action="opened", status_code=503, delivered_at=now - timedelta(days=4))
    healed = github.add_delivery("pull_request", action="opened", status_code=500, guid="healed")
    github.add_delivery("pull_request", action="opened", status_code=202, guid="healed", redelivery=True)
    github.add_delivery("pull_request", action="opened", status_code=202)
    app, _url = gunicorn(app_env(github, tmp_path), tmp_path / "app.log")
    try:
        wait_for(lambda: github.redeliveries, timeout=10, what="a redelivery request")
        settle(github)
    finally:
        app.stop()
    assert github.redeliveries == [lost.id]
    assert healed.id not in github.redeliveries
