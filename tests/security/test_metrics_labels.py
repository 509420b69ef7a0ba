"""Attack 7 (/metrics half): requests without the webhook secret cannot add a single time series.

Before, `schema_review_deliveries_total` took its `event` label from the sender's X-GitHub-Event,
so anyone on the internet could grow the App's memory and every scrape without limit. Now the
label is `unverified` until the signature holds, and a known event name or `other` after.
"""
from __future__ import annotations

import json
import random
import re
import string
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from prometheus_client.mmap_dict import MmapedDict

from bot.web.signature import sign
from tests.harness.server import SECRET, app_env, gunicorn

REQUEST_TIMEOUT = 30
BATCH = 100
BOTH_WORKERS_SECONDS = 120
SERIES = re.compile(r"^(schema_review_deliveries_total\{[^}]*\}) ([0-9.e+]+)$", re.M)
UNVERIFIED = 'schema_review_deliveries_total{event="unverified",outcome="bad_signature"}'


def series(app_url: str) -> dict[str, float]:
    text = requests.get(app_url + "/metrics", timeout=REQUEST_TIMEOUT).text
    return {name: float(value) for name, value in SERIES.findall(text)}


def random_event(rng: random.Random) -> str:
    alphabet = string.ascii_letters + string.digits + "_-.:/ "
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 60))).strip() or "x"


def post(session, app_url: str, event: str, *, body: bytes = b"{}", signature: str | None = None):
    headers = {"X-GitHub-Event": event, "X-GitHub-Delivery": f"d-{random.random()}",
               "Content-Type": "application/json"}
    if signature is not None:
        headers["X-Hub-Signature-256"] = signature
    return session.post(app_url + "/webhook", data=body, headers=headers, timeout=REQUEST_TIMEOUT)


@pytest.mark.parametrize("seed", [7, 1_000_003])
def test_unsigned_requests_with_random_events_never_add_series(app_url, seed):
    rng = random.Random(seed)
    events = [random_event(rng) for _ in range(1000)]
    forged = [None, "sha256=" + "0" * 64, "sha1=deadbeef", "sha256=" + sign(b"wrong secret", b"{}")]
    with requests.Session() as session:
        post(session, app_url, "pull_request")  # the one series unsigned requests may ever use
        before = series(app_url)
        answers = [post(session, app_url, event, signature=forged[i % len(forged)]).status_code
                   for i, event in enumerate(events)]
    after = series(app_url)
    assert set(answers) == {401}
    assert set(after) == set(before), set(after) ^ set(before)
    assert after[UNVERIFIED] == before[UNVERIFIED] + len(events)
    text = requests.get(app_url + "/metrics", timeout=REQUEST_TIMEOUT).text
    assert not [event for event in events if len(event) > 3 and f'"{event}"' in text]


def test_signed_unknown_events_share_one_other_label(app_url):
    rng = random.Random(42)
    events = [random_event(rng) for _ in range(100)]
    with requests.Session() as session:
        post(session, app_url, events[0], signature=sign(SECRET.encode(), b"{}"))
        before = series(app_url)
        for event in events[1:]:
            assert post(session, app_url, event, signature=sign(SECRET.encode(), b"{}")).status_code < 500
        ping = json.dumps({"zen": "Keep it logically awesome.", "hook_id": 1}).encode()
        assert post(session, app_url, "ping", body=ping, signature=sign(SECRET.encode(), ping)).status_code == 200
    after = series(app_url)
    labels = {re.search(r'event="([^"]*)"', name).group(1) for name in set(after) - set(before)}
    assert labels <= {"ping"}, labels
    others = sum(v for name, v in after.items() if 'event="other"' in name)
    assert others == sum(v for name, v in before.items() if 'event="other"' in name) + len(events) - 1


def test_two_gunicorn_workers_report_one_sum(emulator, tmp_path):
    """WEB_CONCURRENCY=2: every scrape, whichever worker answers it, counts every worker's requests."""
    metrics_dir = tmp_path / "metrics"
    env = app_env(emulator, tmp_path, PROMETHEUS_MULTIPROC_DIR=str(metrics_dir))
    process, url = gunicorn(env, tmp_path / "gunicorn.log", workers=2, threads=4)
    sent, deadline = 0, time.monotonic() + BOTH_WORKERS_SECONDS
    try:
        def one(index: int) -> int:
            with requests.Session() as session:  # a new connection each: both workers accept some
                return post(session, url, "pull_request", signature="sha256=" + "%064x" % index).status_code
        with ThreadPoolExecutor(8) as pool:
            # The kernel decides which worker accepts; send until both have counted some.
            while len(worker_pids(metrics_dir)) < 2 and time.monotonic() < deadline:
                assert set(pool.map(one, range(sent, sent + BATCH))) == {401}
                sent += BATCH
        assert len(worker_pids(metrics_dir)) == 2, process.tail()
        scrapes = [series(url).get(UNVERIFIED) for _ in range(12)]
    finally:
        process.stop()
    assert scrapes == [sent] * len(scrapes)


def worker_pids(folder: Path) -> set[str]:
    """The workers whose own sample file has counted deliveries (every worker has a file from its start)."""
    counted = set()
    for path in folder.glob("counter_*.db"):
        for key, value, *_rest in MmapedDict.read_all_values_from_file(str(path)):
            if json.loads(key)[0] == "schema_review_deliveries" and value > 0:
                counted.add(path.stem.rsplit("_", 1)[-1])
    return counted
