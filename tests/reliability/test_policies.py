"""The pieces without a server: waits, retry decisions, ledger, leases, runner, recovery, logs, metrics."""
import json
import logging
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest
from github import GithubException
from huey import MemoryHuey
from huey.exceptions import RetryTask
from urllib3.exceptions import MaxRetryError

from bot.github.backoff import SECONDARY_DEFAULT_WAIT, GitHubBackoff, rate_limit_wait
from bot.ambient.jobs import Job, Superseded, attempt, checkpoint, is_final, is_first_attempt
from bot.ambient.logs import JsonFormatter, redact
from prometheus_client import CollectorRegistry, generate_latest

from bot.ambient.metrics import Counter, Histogram
from bot.queue.leases import Leases
from bot.queue.ledger import BURST_SECONDS, QUIET_SECONDS, Ledger
from bot.queue.maintenance import recover_orphans
from bot.queue.runner import Runner
from bot.queue.subject import subject_of
from bot.queue.recovery import recover_deliveries
from bot.queue.runtime import Runtime
from bot.handlers.pull_request import review_head
from bot.handlers.target import Target
from bot.config.settings import SettingsError
from bot.github.tokens import InstallationToken

NOW = 1_700_000_000.0


@pytest.mark.parametrize("status, headers, message, wait", [
    (403, {"Retry-After": "7"}, "You have exceeded a secondary rate limit.", 7.0),
    (429, {"retry-after": "3", "x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW) + 500)}, "", 3.0),
    (403, {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(NOW) + 30)}, "API rate limit exceeded", 31.0),
    (403, {"X-RateLimit-Remaining": "12"}, "You have exceeded a secondary rate limit.", SECONDARY_DEFAULT_WAIT),
    (429, {}, "", SECONDARY_DEFAULT_WAIT),
    (403, {"X-RateLimit-Remaining": "4999"}, "Resource not accessible by integration", None),
    (502, {"Retry-After": "1"}, "", None),
])
def test_rate_limit_waits_follow_githubs_documented_order(status, headers, message, wait):
    assert rate_limit_wait(status, headers, message, now=NOW) == wait


def test_5xx_is_retried_for_reads_and_graphql_but_a_post_goes_back_to_the_job():
    retry = GitHubBackoff(total=3, backoff_factor=0)
    response = SimpleNamespace(status=502, headers={}, get_redirect_location=lambda: False)
    assert retry.is_retry("GET", 502) and retry.is_retry("POST", 503)
    assert retry.increment("GET", "/repos/a/b", response=response).total == 2
    assert retry.increment("POST", "/graphql", response=response).total == 2
    with pytest.raises(MaxRetryError):
        retry.increment("POST", "/repos/a/b/check-runs", response=response)
    assert not retry.is_retry("GET", 404)


def test_a_rate_limit_longer_than_the_inline_cap_goes_back_to_the_queue():
    body = json.dumps({"message": "API rate limit exceeded for installation."}).encode()
    response = SimpleNamespace(status=403, data=body, get_redirect_location=lambda: False,
                               headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(NOW) + 1800)})
    retry = GitHubBackoff(total=3, max_wait=90, clock=lambda: NOW)
    with pytest.raises(GithubException) as raised:
        retry.increment("GET", "/repos/a/b/pulls/1", response=response)
    assert raised.value.wait == pytest.approx(1801) and not is_final(raised.value)
    short = SimpleNamespace(**{**vars(response), "headers": {"Retry-After": "2"}})
    assert retry.increment("POST", "/repos/a/b/check-runs", response=short).rate_wait == 2.0


def job(guid="d1", *, sha="a" * 40, number=7, updated="2024-01-01T00:00:01Z", action="synchronize",
        before=None):
    links = {"before": before, "after": sha} if before else {}
    return Job(guid, "pull_request", {
        "action": action, "installation": {"id": 1}, "repository": {"full_name": "acme/x"},
        "pull_request": {"number": number, "updated_at": updated, "head": {"sha": sha}}, **links})


@pytest.fixture
def queue():
    huey = MemoryHuey("t", results=False)
    return huey, Ledger(huey, clock=lambda: NOW), Leases(huey, heartbeat=1.0, clock=lambda: NOW)


def test_a_delivery_is_admitted_once_and_a_late_older_push_does_not_win(queue):
    _huey, ledger, _leases = queue
    assert ledger.admit(job()) and not ledger.admit(job())
    newer = subject_of(job("d2", sha="b" * 40, updated="2024-01-01T00:00:05Z"))
    ledger.admit(job("d2", sha="b" * 40, updated="2024-01-01T00:00:05Z"))
    ledger.admit(job("d0", sha="c" * 40, updated="2024-01-01T00:00:00Z"))
    assert ledger.superseded(subject_of(job())) and not ledger.superseded(newer)


def test_a_lock_held_by_a_dead_worker_is_taken_over(queue):
    huey, _ledger, leases = queue
    huey.put("lock:acme/x#7", {"owner": "elsewhere:1", "holder": "d0"})
    huey.put("worker:elsewhere:1", NOW - 60)  # its last heartbeat: long ago
    assert leases.acquire("acme/x#7", "d1")
    assert not leases.acquire("acme/x#7", "d2")  # now held by a live job of this very process
    leases.release("acme/x#7", "d1")
    assert leases.acquire("acme/x#7", "d2")
    huey.put("worker:elsewhere:2", NOW)
    huey.put("lock:acme/x#8", {"owner": "elsewhere:2", "holder": "d3"})
    assert not leases.acquire("acme/x#8", "d4")


def test_jobs_of_dead_workers_are_requeued_once(queue):
    huey, ledger, leases = queue
    ledger.admit(job())
    ledger.update("d1", state="running", owner="elsewhere:9", attempts=1)
    enqueued = []
    assert recover_orphans(ledger, leases, huey, enqueued.append, now=NOW) == ["d1"]
    ledger.update("d1", state="running", owner="elsewhere:9", attempts=1)
    assert recover_orphans(ledger, leases, huey, enqueued.append, now=NOW) == []  # claimed already
    assert enqueued == ["d1"]


def test_the_runner_retries_gives_up_once_and_honours_supersede(queue):
    _huey, ledger, leases = queue
    calls, given_up = [], []

    def handle(j):
        calls.append(j.delivery_id)
        raise RuntimeError("GitHub is down")

    runner = Runner(ledger, leases, handle, give_up=lambda j, e: given_up.append(type(e).__name__))
    ledger.admit(job())
    with pytest.raises(RuntimeError):
        runner.run("d1", retries_left=1)
    assert ledger.get("d1")["state"] == "queued" and given_up == []
    runner.run("d1", retries_left=0)
    assert given_up == ["RuntimeError"] and ledger.get("d1") == {"state": "done", "outcome": "failed", "at": NOW}
    runner.run("d1", retries_left=0)  # a recovered duplicate of a finished job does nothing
    assert calls == ["d1", "d1"]
    ledger.admit(job("d2"))
    ledger.admit(job("d3", sha="b" * 40, updated="2024-01-02T00:00:00Z"))
    runner.run("d2", retries_left=3)
    assert ledger.get("d2")["outcome"] == "superseded" and calls == ["d1", "d1"]


def test_a_checkpoint_stops_a_job_overtaken_mid_way(queue):
    _huey, ledger, leases = queue
    seen = []

    def handle(j):
        ledger.admit(job("d9", sha="f" * 40, updated="2024-02-01T00:00:00Z"))
        try:
            checkpoint()
        except Superseded as error:
            seen.append(is_final(error))
            raise

    ledger.admit(job())
    Runner(ledger, leases, handle).run("d1", retries_left=3)
    assert seen == [True] and ledger.get("d1")["outcome"] == "superseded"


def test_a_push_in_a_burst_waits_for_quiet_and_a_lone_push_starts_at_once():
    # A stack rebased or a bot pushes several times a second: reviewing each head as it comes
    # costs GitHub calls for heads replaced a moment later (issue 24, ten calls a pull request).
    huey, clock = MemoryHuey("t", results=False), [NOW]
    ledger = Ledger(huey, clock=lambda: clock[0])
    leases = Leases(huey, heartbeat=1.0, clock=lambda: clock[0])
    handled = []
    runner = Runner(ledger, leases, lambda j: handled.append(j.delivery_id))
    ledger.admit(job("d1"))
    runner.run("d1", retries_left=3)  # a lone push
    assert handled == ["d1"]
    clock[0] += BURST_SECONDS + 1  # the next push, a while later: a lone push again
    ledger.admit(job("d2", sha="b" * 40, updated="2024-01-01T00:00:09Z"))
    runner.run("d2", retries_left=3)
    assert handled == ["d1", "d2"]
    clock[0] += 0.5  # two pushes half a second apart: a burst
    ledger.admit(job("d3", sha="c" * 40, updated="2024-01-01T00:00:10Z"))
    clock[0] += 0.25
    with pytest.raises(RetryTask) as waiting:
        runner.run("d3", retries_left=3)
    assert waiting.value.delay == pytest.approx(QUIET_SECONDS - 0.25)
    assert ledger.get("d3")["attempts"] == 0 and handled == ["d1", "d2"]  # no attempt spent
    clock[0] += 0.25  # replaced while it waited: it never asks GitHub anything
    ledger.admit(job("d4", sha="d" * 40, updated="2024-01-01T00:00:10Z", before="c" * 40))
    runner.run("d3", retries_left=3)
    assert ledger.get("d3")["outcome"] == "superseded"
    clock[0] += QUIET_SECONDS  # quiet since: the newest head is reviewed
    runner.run("d4", retries_left=3)
    assert handled == ["d1", "d2", "d4"]


def _burst_queue(*, web_ahead: float = 0.0, quiet: float = QUIET_SECONDS, kind=Ledger):
    """A ledger whose admissions are stamped by a web host's clock `web_ahead` seconds ahead of
    the worker's (whose own ledger admits too, as a second web host would), a runner on the
    worker, and the deliveries it handled."""
    huey, clock, handled = MemoryHuey("t", results=False), [NOW], []
    web = kind(huey, clock=lambda: clock[0] + web_ahead, quiet=quiet)
    worker = kind(huey, clock=lambda: clock[0], quiet=quiet)
    runner = Runner(worker, Leases(huey, heartbeat=1.0, clock=lambda: clock[0]),
                    lambda j: handled.append(j.delivery_id))
    return web, worker, runner, clock, handled


def _two_pushes(first: Ledger, second: Ledger, runner: Runner, clock: list, *, apart: float) -> None:
    """Push a (admitted by `first`, reviewed), then `apart` seconds later b (by `second`)."""
    first.admit(job("d1"))
    runner.run("d1", retries_left=3)
    clock[0] += apart
    second.admit(job("d2", sha="b" * 40, updated=f"2024-01-01T00:00:{1 + int(apart):02d}Z", before="a" * 40))


def test_a_job_waits_for_a_burst_once_whatever_the_clocks_say():
    # A web host's clock a minute ahead of the worker's (REDIS_URL, several machines) made the
    # wait last until the worker's clock caught up, 2 s at a time (an attacker's review).
    web, worker, runner, clock, handled = _burst_queue(web_ahead=60)
    _two_pushes(web, web, runner, clock, apart=0.5)
    with pytest.raises(RetryTask) as waiting:
        runner.run("d2", retries_left=3)
    assert waiting.value.delay == QUIET_SECONDS  # capped: the web clock says 62 s
    clock[0] += QUIET_SECONDS
    runner.run("d2", retries_left=3)  # its one wait is over
    assert handled == ["d1", "d2"] and worker.get("d2")["outcome"] == "done"


def test_web_hosts_whose_clocks_disagree_make_no_burst_of_a_lone_push():
    # Push A lands on a web host a minute ahead, push B (30 s later) on one that is not: B's
    # time comes "before" A's. That is no burst (an attacker's review).
    ahead, behind, runner, clock, handled = _burst_queue(web_ahead=60)
    _two_pushes(ahead, behind, runner, clock, apart=30)
    runner.run("d2", retries_left=3)
    assert handled == ["d1", "d2"]


class _Failing(Ledger):
    def update(self, guid, **changes):
        if "settled" in changes:
            raise OSError("disk I/O error")
        return super().update(guid, **changes)


def test_a_burst_s_wait_the_store_cannot_record_is_skipped_never_the_job():
    # The write that marks the wait fails (the store is down a moment): the review starts at
    # once, as it did before the wait existed, instead of the job going back to huey unrecorded.
    _web, ledger, runner, clock, handled = _burst_queue(kind=_Failing)
    _two_pushes(ledger, ledger, runner, clock, apart=0.5)
    runner.run("d2", retries_left=0)
    assert handled == ["d1", "d2"] and ledger.get("d2")["outcome"] == "done"


def test_a_late_delivery_of_a_replaced_head_is_no_push():
    # a -> b -> c in one second, delivered c first: the late deliveries of a and b are pushes
    # nobody made now, and must not make the next lone push wait as if in a burst.
    web, _worker, runner, clock, handled = _burst_queue()
    web.admit(job("dc", sha="c" * 40, updated="2024-01-01T00:00:01Z", before="b" * 40))
    runner.run("dc", retries_left=3)
    for guid, sha, before in (("db", "b", "a"), ("da", "a", "f")):
        clock[0] += 1.0
        web.admit(job(guid, sha=sha * 40, updated="2024-01-01T00:00:01Z", before=before * 40))
        runner.run(guid, retries_left=3)
    clock[0] += 1.0  # 3 s after c: a lone push
    web.admit(job("dd", sha="d" * 40, updated="2024-01-01T00:00:05Z", before="c" * 40))
    runner.run("dd", retries_left=3)
    assert handled == ["dc", "dd"]
    assert [web.get(g)["outcome"] for g in ("db", "da")] == ["superseded", "superseded"]


def test_no_quiet_time_no_wait():
    web, _worker, runner, clock, handled = _burst_queue(quiet=0)
    for guid, sha in (("d1", "a"), ("d2", "b"), ("d3", "c")):
        web.admit(job(guid, sha=sha * 40, updated=f"2024-01-01T00:00:0{len(handled) + 1}Z"))
        runner.run(guid, retries_left=3)
        clock[0] += 0.25
    assert handled == ["d1", "d2", "d3"]


def test_deliveries_of_the_same_head_never_make_a_burst():
    # A base edited (or the pull request reopened) every second re-reviews the same head: no
    # push can replace it a moment later, and its verdict against the old base must not stay
    # green meanwhile (found by an attacker's review).
    huey, clock = MemoryHuey("t", results=False), [NOW]
    ledger = Ledger(huey, clock=lambda: clock[0])
    runner = Runner(ledger, Leases(huey, heartbeat=1.0, clock=lambda: clock[0]),
                    lambda j: handled.append(j.delivery_id))
    handled = []
    ledger.admit(job("d0"))
    runner.run("d0", retries_left=3)
    for second in range(1, 9):
        clock[0] += 1.0
        guid = f"e{second}"
        ledger.admit(job(guid, action="edited", updated=f"2024-01-01T00:00:{second + 1:02d}Z"))
        runner.run(guid, retries_left=3)
    assert handled == ["d0"] + [f"e{second}" for second in range(1, 9)]
    clock[0] += 1.0  # a push a second after the last edit: one push, no burst
    ledger.admit(job("d9", sha="b" * 40, updated="2024-01-01T00:00:11Z", before="a" * 40))
    runner.run("d9", retries_left=3)
    assert handled[-1] == "d9"


@pytest.mark.parametrize("replaced_meanwhile", [False, True])
def test_the_runner_tells_the_handler_whether_an_earlier_attempt_ran(queue, replaced_meanwhile):
    # A retried job replaced while it waited still runs: its first attempt may have put a check
    # in progress on the old head, and only its handler (review_head, Superseded at the first
    # call) completes that check as cancelled.
    _huey, ledger, leases = queue
    seen = []

    def handle(j):
        seen.append(is_first_attempt())
        if len(seen) == 1:
            raise RuntimeError("GitHub is down")
        checkpoint()

    runner = Runner(ledger, leases, handle)
    ledger.admit(job())
    with pytest.raises(RuntimeError):
        runner.run("d1", retries_left=1)
    if replaced_meanwhile:
        ledger.admit(job("d3", sha="b" * 40, updated="2024-01-02T00:00:00Z"))
    runner.run("d1", retries_left=1)
    assert seen == [True, False]
    assert ledger.get("d1")["outcome"] == ("superseded" if replaced_meanwhile else "done")
    assert not is_first_attempt()  # outside a job: not known, so the check is looked for


@pytest.mark.parametrize("first", [True, False])
def test_a_head_replaced_before_its_check_looks_for_one_only_after_an_earlier_attempt(first):
    # A burst of pushes supersedes most jobs before they put a check on their head: a first
    # attempt cannot have left one in progress, so it asks GitHub nothing (issue 24: calls per
    # pull request). A later attempt may have: it looks, and cancels the one it finds.
    looked, completed = [], []

    class Repo:
        def changed_files(self, number):
            raise Superseded("a newer push superseded this review")

        def find_check_run(self, sha):
            looked.append(sha)
            return SimpleNamespace(id=7, status="in_progress", conclusion=None, output=None)

        def start_check_run(self, sha, known=None):
            return 7, None

        def complete_check_run(self, run, **fields):
            completed.append(fields["conclusion"])

    target = Target(installation_id=1, repository="acme/shop", default_branch="main",
                    head_sha="a" * 40, pull_number=5)
    with attempt(last=False, first=first), pytest.raises(Superseded):
        review_head(SimpleNamespace(repo=lambda *a: Repo()), target)
    assert (looked, completed) == (([], []) if first else (["a" * 40], ["cancelled"]))


class FakeApi:
    def __init__(self, pages):
        self.pages, self.posted = pages, []

    def requestJsonAndCheck(self, verb, url, parameters=None):
        if verb == "POST":
            self.posted.append(url)
            return {}, {}
        index = 0 if url == "/app/hook/deliveries" else int(url.rsplit("=", 1)[1])
        link = {"link": f'<https://api/app/hook/deliveries?cursor={index + 1}>; rel="next"'} \
            if index + 1 < len(self.pages) else {}
        return link, self.pages[index]


def delivery(id_, guid, status, age_days=0.0):
    at = datetime.fromtimestamp(NOW, timezone.utc) - timedelta(days=age_days)
    return {"id": id_, "guid": guid, "status_code": status, "delivered_at": at.strftime("%Y-%m-%dT%H:%M:%SZ")}


def test_recovery_redelivers_only_lost_recent_unknown_deliveries_once():
    api = FakeApi([[delivery(9, "ok", 202), delivery(8, "healed", 202), delivery(7, "healed", 500)],
                   [delivery(6, "lost", 502, 1), delivery(5, "lost", 504, 1), delivery(4, "known", 502, 1)],
                   [delivery(3, "old", 502, 4)]])
    claimed = set()
    claim = lambda guid: guid not in claimed and not claimed.add(guid)  # noqa: E731
    assert recover_deliveries(api, known={"known"}.__contains__, claim=claim, now=NOW) == [6]
    assert api.posted == ["/app/hook/deliveries/6/attempts"]
    assert recover_deliveries(api, known={"known"}.__contains__, claim=claim, now=NOW) == []


def test_installation_tokens_are_renewed_before_they_expire():
    clock = [NOW]
    granted = []

    def mint(installation_id):
        granted.append(installation_id)
        return SimpleNamespace(token=f"ghs_{len(granted)}",
                               expires_at=datetime.fromtimestamp(clock[0] + 3600, timezone.utc))

    token = InstallationToken(SimpleNamespace(), 5, margin=300, clock=lambda: clock[0])
    token._integration = SimpleNamespace(get_access_token=mint)
    assert token.token == "ghs_1"
    clock[0] += 3600 - 301
    assert token.token == "ghs_1"
    clock[0] += 2  # inside the five-minute margin
    assert token.token == "ghs_2"
    token.invalidate()
    assert token.token == "ghs_3" and granted == [5, 5, 5]


def test_logs_never_carry_tokens_keys_or_jwts():
    secret = ("token ghs_abcdefghijklmnopqrstuvwxyz123456 and eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOjEyM30.c2lnbmF0dXJlc2ln "
              "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----")
    record = logging.LogRecord("schema_review.x", logging.ERROR, __file__, 1, "failed: %s", (secret,), None)
    record.delivery, record.token = "d-1", "ghs_should_be_dropped_entirely_000"
    line = JsonFormatter().format(record)
    assert "ghs_" not in line and "eyJ" not in line and "MIIE" not in line
    assert json.loads(line)["delivery"] == "d-1" and "token" not in json.loads(line)
    assert redact("Bearer abcdefghijklmnopqrstuvwxyz") == "[redacted]"


def test_metrics_render_in_prometheus_text_format():
    registry = CollectorRegistry()
    counter = Counter("x_total", "X.", ("event", "outcome"), registry=registry)
    histogram = Histogram("y_seconds", "Y.", ("outcome",), registry=registry, buckets=(0.1, 1))
    counter.inc(event="pull_request", outcome="accepted")
    histogram.observe(0.5, outcome="done")
    text = generate_latest(registry).decode()
    assert 'x_total{event="pull_request",outcome="accepted"} 1.0' in text
    assert 'y_seconds_bucket{le="0.1",outcome="done"} 0.0' in text
    assert 'y_seconds_bucket{le="1.0",outcome="done"} 1.0' in text and 'le="+Inf",outcome="done"} 1.0' in text


def test_runtime_settings_name_the_bad_key_never_the_value():
    assert Runtime.from_environ({}).embedded and Runtime.from_environ({"REDIS_URL": "redis://h"}).redis_url
    with pytest.raises(SettingsError, match="QUEUE_WORKERS must be a number"):
        Runtime.from_environ({"QUEUE_WORKERS": "many-secret"})
    with pytest.raises(SettingsError, match="SCHEMA_REVIEW_RETRY_BACKOFF must not be negative"):
        Runtime.from_environ({"SCHEMA_REVIEW_RETRY_BACKOFF": "-1"})


@pytest.mark.parametrize("value, problem", [
    ("inf", "must be a number"), ("nan", "must be a number"), ("1e12", "must be at most 60 seconds")])
def test_a_burst_s_wait_is_a_finite_number_of_seconds(value, problem):
    # huey raised OverflowError scheduling a job `inf` seconds ahead, and dropped it; `nan`
    # compared false with everything and meant "never wait" (an attacker's review).
    with pytest.raises(SettingsError, match=f"SCHEMA_REVIEW_BURST_QUIET {problem}"):
        Runtime.from_environ({"SCHEMA_REVIEW_BURST_QUIET": value})
    assert Runtime.from_environ({"SCHEMA_REVIEW_BURST_QUIET": "0"}).burst_quiet == 0


def test_a_delivery_already_covered_by_a_later_review_of_the_same_head_is_coalesced(queue):
    _huey, ledger, leases = queue
    clock = [NOW]
    ledger._clock = lambda: clock[0]
    handled = []
    runner = Runner(ledger, leases, lambda j: handled.append(j.delivery_id))
    ledger.admit(job("d1"))
    ledger.admit(job("d2"))
    runner.run("d1", retries_left=3)  # started after d2 arrived: d2 has nothing left to show
    runner.run("d2", retries_left=3)
    assert handled == ["d1"] and ledger.get("d2")["outcome"] == "coalesced"


@pytest.mark.parametrize("worker_ahead, coalesced", [(0.0, False), (0.9, False), (1.5, True)])
def test_a_delivery_is_coalesced_only_when_the_review_started_clearly_after_it(queue, worker_ahead, coalesced):
    # A base edited 0.1 s after a review of the head started (the review may have read the old
    # base), seen by a worker whose clock runs `worker_ahead` seconds ahead of the web host's:
    # the worker's start must not look later than the edit's admission, or the edit is lost.
    _huey, ledger, _leases = queue
    edited = job("d2", action="edited")
    edited.payload["changes"] = {"base": {"ref": {"from": "main"}}}
    edited = subject_of(edited)
    assert edited.pull
    started_really = NOW - 0.1
    ledger.reviewed(edited, started=started_really + worker_ahead)
    assert ledger.covered(edited, admitted=NOW) is coalesced
