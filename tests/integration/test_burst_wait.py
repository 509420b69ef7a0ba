"""A burst of pushes under the App's default wait (SCHEMA_REVIEW_BURST_QUIET; the other tests'
App starts every review at once): the heads the burst replaced get no check and cost no file
listing; its last head is reviewed (issue 24, bench/burst.py at scale)."""
import time

import pytest

from bot.queue.runtime import Runtime
from tests.harness.flow import AVRO_BASE, AVRO_BREAKING, completed_run, runs, settle
from tests.harness.server import app_env, gunicorn
from tests.integration.test_review_flow import open_pull, send

PUSHES = 5
# A bot's pace: each push's review would have started (and listed the files) before the next
# came, were it not for the wait (bench/burst.py: four a second, 40 a pull request).
APART = 0.5


@pytest.fixture(scope="module")
def burst_app(emulator, tmp_path_factory):
    folder = tmp_path_factory.mktemp("burst-app")
    env = app_env(emulator, folder, SCHEMA_REVIEW_BURST_QUIET=str(Runtime().burst_quiet))
    process, url = gunicorn(env, folder / "gunicorn.log")
    yield url
    process.stop()


def test_a_burst_of_pushes_reviews_its_last_head_only(github, burst_app):
    repo, pull = open_pull(github, {"schemas/user.avsc": AVRO_BASE}, {"schemas/user.avsc": AVRO_BREAKING})
    events = []
    for k in range(PUSHES):
        repo.commit("feature", {"schemas/user.avsc": AVRO_BREAKING.replace("level", f"level{k}")}, f"Push {k}")
        events.append(github.pull_request_event("synchronize", pull))
    for event in events:  # in push order, each naming the head it replaced
        send(github, burst_app, "pull_request", event)
        time.sleep(APART)  # the pushes' own pace (input, not a wait for the App)
    heads = [event["pull_request"]["head"]["sha"] for event in events]
    assert completed_run(github, repo, heads[-1]).conclusion == "failure"
    settle(github)
    # The first push came alone and may have started before the second arrived; every later
    # one came within the quiet time of the one before it and waited, to be replaced.
    assert [runs(github, repo, sha) for sha in heads[1:-1]] == [[]] * (PUSHES - 2)
    listings = github.calls_to("GET", rf"/repos/{repo.owner}/{repo.name}/pulls/{pull.number}/files")
    assert 1 <= len(listings) <= 2
