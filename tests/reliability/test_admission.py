"""A delivery's writes at the door, on each store: the claim, its pull request's records and the
job go in together or not at all, and concurrent admissions keep the newest push."""
import threading

import pytest
from huey import MemoryHuey

from bot.ambient.jobs import Job
from bot.queue import admission
from bot.queue.dispatcher import make_huey
from bot.queue.ledger import Ledger
from bot.queue.subject import subject_of
from bot.queue.runtime import Runtime
from tests.harness.server import redis_server

STORES = ["memory", "sqlite", "redis"]


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    process, url = redis_server(tmp_path_factory.mktemp("redis"))
    yield url
    process.stop()


@pytest.fixture(params=STORES)
def huey(request, tmp_path):
    if request.param == "memory":
        return MemoryHuey("t", results=False)
    if request.param == "sqlite":
        return make_huey(Runtime(queue_path=str(tmp_path / "queue.db")))
    store = make_huey(Runtime(redis_url=request.getfixturevalue("redis_url")))
    store.flush()  # one server for the module: each test starts from an empty store
    return store


def push(delivery: str, sha: str, second: int, *, number: int = 7) -> Job:
    return Job(delivery, "pull_request", {
        "action": "synchronize", "installation": {"id": 1}, "repository": {"full_name": "acme/x"},
        "pull_request": {"number": number, "updated_at": f"2026-12-03T10:00:{second:02d}Z", "head": {"sha": sha}}})


def task(huey, guid: str) -> bytes:
    return huey.serialize_task(_task(huey).s(guid))


def _task(huey):
    if not hasattr(huey, "_test_task"):
        huey._test_task = huey.task(name="run_delivery")(lambda guid: None)
    return huey._test_task


def queued(huey) -> list[str]:
    return sorted(each.args[0] for each in huey.pending())


def test_an_admitted_push_records_its_head_and_log_and_queues_one_job(huey):
    ledger = Ledger(huey)
    first = push("d1", "a" * 40, 1)
    assert ledger.admit(first, task=task(huey, "d1"))
    assert not ledger.admit(first, task=task(huey, "d1"))  # a redelivery: nothing more written
    assert ledger.admit(push("d2", "b" * 40, 5), task=task(huey, "d2"))
    assert ledger.admit(push("d0", "c" * 40, 0), task=task(huey, "d0"))  # a late, older push
    assert queued(huey) == ["d0", "d1", "d2"]
    assert ledger.superseded(subject_of(first)) and not ledger.superseded(subject_of(push("d2", "b" * 40, 5)))
    assert ledger.pushes("acme/x#7") == [("2026-12-03T10:00:01Z", "a" * 40), ("2026-12-03T10:00:05Z", "b" * 40),
                                         ("2026-12-03T10:00:00Z", "c" * 40)]
    assert ledger.get("d1")["state"] == "queued"


def test_a_failure_after_the_claim_leaves_nothing_behind(huey):
    def broken(values):
        raise RuntimeError("store went away")

    with pytest.raises(RuntimeError):
        admission.admit(huey, "delivery:d1", {"state": "queued"}, reads=["head:acme/x#7"], update=broken,
                        task=task(huey, "d1"))
    assert huey.get("delivery:d1", peek=True) is None  # GitHub's redelivery is admitted again
    assert queued(huey) == []
    assert admission.admit(huey, "delivery:d1", {"state": "queued"}, reads=["head:acme/x#7"],
                           update=lambda values: {"head:acme/x#7": values}, task=task(huey, "d1"))
    assert huey.get("head:acme/x#7", peek=True) == [None] and queued(huey) == ["d1"]


@pytest.mark.parametrize("huey", ["sqlite", "redis"], indirect=True)
def test_concurrent_pushes_to_one_pull_request_keep_the_newest_head(huey):
    """Threads racing on the same pull request's records cannot overwrite a newer head with an
    older one or drop a push from the log (SQLite: one exclusive transaction; Redis: a write
    that happens only if the records are still as read)."""
    ledger = Ledger(huey)
    jobs = [push(f"d{second}", f"{second:040x}", second) for second in range(40)]
    start = threading.Barrier(8)

    def admit(part: list[Job]) -> None:
        start.wait(timeout=60)
        for each in part:
            assert ledger.admit(each, task=None)

    threads = [threading.Thread(target=admit, args=(jobs[index::8],)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    newest = subject_of(jobs[-1])
    assert not ledger.superseded(newest)
    assert all(ledger.superseded(subject_of(each)) for each in jobs[:-1])
    assert sorted(ledger.pushes("acme/x#7")) == sorted((s.version, s.head) for s in map(subject_of, jobs))
