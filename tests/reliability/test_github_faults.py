"""GitHub misbehaves (5xx bursts, rate limits, slowness, a token revoked mid-job): one verdict anyway."""
import time

from tests.harness.flow import (comments, completed_run, deliver, open_pull, reviews, runs, settle, wait_for)

FILES = r"/pulls/\d+/files$"
CHECK_RUNS = r"/check-runs$"


def review(github, app_url, repo, pull):
    deliver(github, app_url, github.pull_request_event("opened", pull))
    run = completed_run(github, repo, pull.head_sha)
    settle(github)
    return run


def assert_one_verdict(github, repo, pull, conclusion="failure"):
    (run,) = runs(github, repo, pull.head_sha)
    assert run.status == "completed" and run.conclusion == conclusion, run.output
    assert len(reviews(github, repo, pull)) == 1
    assert len(comments(github, repo, pull)) == 1


def test_a_502_and_500_burst_on_reads_is_retried_in_place(github, app_url):
    repo, pull = open_pull(github)
    github.inject("GET", FILES, status=502, times=3)
    github.inject("POST", r"^/graphql$", status=500, times=2)
    review(github, app_url, repo, pull)
    assert_one_verdict(github, repo, pull)
    assert [c.status for c in github.calls_to("GET", FILES)] == [502, 502, 502, 200]
    assert [c.status for c in github.calls_to("POST", r"^/graphql$")][:3] == [500, 500, 200]


def test_a_502_on_creating_the_check_run_is_retried_by_the_job_without_a_duplicate(github, app_url):
    repo, pull = open_pull(github)
    github.inject("POST", CHECK_RUNS, status=502, times=1)
    review(github, app_url, repo, pull)
    assert_one_verdict(github, repo, pull)
    assert [c.status for c in github.calls_to("POST", CHECK_RUNS)] == [502, 201]


def test_a_secondary_rate_limit_waits_as_long_as_retry_after_says(github, app_url):
    repo, pull = open_pull(github)
    github.inject("POST", CHECK_RUNS, status=403, headers={"Retry-After": "1"})
    started = time.monotonic()
    review(github, app_url, repo, pull)
    assert time.monotonic() - started >= 1.0
    assert_one_verdict(github, repo, pull)
    assert [c.status for c in github.calls_to("POST", CHECK_RUNS)] == [403, 201]


def test_a_primary_rate_limit_waits_for_the_reset(github, app_url):
    repo, pull = open_pull(github)
    reset = int(time.time()) + 1
    github.inject("GET", FILES, status=403, body={"message": "API rate limit exceeded for installation.",
                                                  "documentation_url": "https://docs.github.com/rest"},
                  headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset)})
    review(github, app_url, repo, pull)
    assert time.time() >= reset
    assert_one_verdict(github, repo, pull)
    assert [c.status for c in github.calls_to("GET", FILES)] == [403, 200]


def test_slow_github_does_not_slow_the_webhook_answer(github, app_url):
    repo, pull = open_pull(github)
    github.inject("GET", r"/pulls/\d+$", delay=2.0)
    started = time.monotonic()
    deliver(github, app_url, github.pull_request_event("opened", pull))
    assert time.monotonic() - started < 0.5
    completed_run(github, repo, pull.head_sha)
    settle(github)
    assert_one_verdict(github, repo, pull)


def test_a_token_revoked_mid_job_is_renewed_and_the_job_finishes(github, app_url):
    repo, pull = open_pull(github)
    # The review lists the files, then reads everything else in one GraphQL query: that query,
    # held back 1 s, meets a token expired meanwhile.
    held = github.inject("POST", r"^/graphql$", delay=1.0)
    deliver(github, app_url, github.pull_request_event("opened", pull))
    wait_for(lambda: held.hits, what="the review's GraphQL read")
    github.expire_tokens()
    completed_run(github, repo, pull.head_sha)
    settle(github)
    assert_one_verdict(github, repo, pull)
    calls = github.calls
    first_401 = next(i for i, c in enumerate(calls) if c.status == 401)
    assert any(c.path.endswith("/access_tokens") and c.status == 201 for c in calls[first_401:])
    assert calls[-1].status < 300


def test_a_job_that_finally_fails_leaves_a_failing_check_saying_why(github, app_url):
    """Fail closed: a commit whose review never finished is not a pass (neutral would be one:
    branch protection accepts it)."""
    repo, pull = open_pull(github)
    github.inject("GET", FILES, status=502, times=None)
    deliver(github, app_url, github.pull_request_event("opened", pull))
    run = wait_for(lambda: [r for r in runs(github, repo, pull.head_sha)
                            if r.status == "completed" and "could not finish" in r.output.get("title", "")],
                   what="the failing check")[0]
    github.clear_faults()
    settle(github)
    (run,) = runs(github, repo, pull.head_sha)
    assert run.status == "completed" and run.conclusion == "failure"
    assert run.output["title"].startswith("schema-review could not finish: ")
    assert "fails closed" in run.output["summary"]
    assert reviews(github, repo, pull) == []
    # 1 attempt + 3 job retries, each retrying the request itself 5 times.
    assert len(github.calls_to("GET", FILES)) == 4 * 6
