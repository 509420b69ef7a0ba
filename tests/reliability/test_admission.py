"""A delivery's writes at the door, on each store: the claim, its pull request's records and the
job go in together or not at all, and concurrent admissions keep the newest push."""
import threading

import pytest
from huey import MemoryHuey

from bot.ambient.jobs import Job
from bot.queue import admission
from bot.queue.dispatcher import make_huey
from bot.queue.heads import CHAIN_KEPT
from bot.queue.ledger import REMEMBER_SECONDS, Ledger
from bot.queue.subject import subject_of
from bot.queue.runtime import Runtime

STORES = ["memory", "sqlite", "redis"]


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


# --- the push chain: a `synchronize` names the head it replaced --------------------------------

def sha(n: int) -> str:
    return f"{n:040x}"


def synchronize(delivery: str, head: str, before, second: int, **extra) -> Job:
    job = push(delivery, head, second)
    job.payload.update(before=before, after=head, **extra)
    return job


TEN = [(sha(n), sha(n - 1), 0) for n in range(1, 11)]  # 0 → 1 → ... → 10, all in one second
# (pushes as (head, before, second), the order their deliveries arrive, the heads left newest)
CHAINS = {
    "ten in one second, last first": (TEN, list(range(9, -1, -1)), [sha(10)]),
    "ten in one second, shuffled": (TEN, [3, 7, 0, 9, 5, 1, 8, 2, 6, 4], [sha(10)]),
    "ten in one second, in order": (TEN, list(range(10)), [sha(10)]),
    "a gap: 3's delivery never came": (TEN[:2] + TEN[3:], [4, 0, 8, 2, 6, 1, 3, 5, 7], [sha(2), sha(10)]),
    "two force pushes, unrelated befores": ([(sha(1), sha(90), 0), (sha(2), sha(91), 0)], [1, 0], [sha(1), sha(2)]),
    "pushed back: a → b → a orders nothing": ([(sha(2), sha(1), 0), (sha(1), sha(2), 0)], [1, 0], [sha(2), sha(1)]),
    "a newer second wins whatever the chain": ([(sha(2), sha(1), 0), (sha(3), sha(2), 0), (sha(9), sha(50), 1)],
                                               [2, 1, 0], [sha(9)]),
    "an older second stays superseded": ([(sha(2), sha(1), 5), (sha(3), sha(9), 4)], [0, 1], [sha(2)]),
    "a before that names no commit": ([(sha(0xab), sha(0), 0), (sha(2), sha(0xab).upper(), 0),
                                       (sha(3), f"{sha(0xab)} ", 0), (sha(4), sha(0xab)[:39], 0)],
                                      [0, 1, 2, 3], [sha(0xab), sha(2), sha(3), sha(4)]),
}


@pytest.mark.parametrize("pushes, order, newest", CHAINS.values(), ids=CHAINS.keys())
def test_a_push_supersedes_the_one_it_names_as_before_whatever_the_clock(huey, pushes, order, newest):
    ledger = Ledger(huey)
    jobs = [synchronize(f"d{index}", head, before, second) for index, (head, before, second) in enumerate(pushes)]
    for index in order:
        assert ledger.admit(jobs[index], task=None)
    assert sorted(job.payload["after"] for job in jobs if not ledger.superseded(subject_of(job))) == sorted(newest)


@pytest.mark.parametrize("extra", [{"after": sha(77)}, {"before": ["0" * 40]}, {"before": None}])
def test_a_body_whose_after_is_not_its_head_or_whose_before_is_no_sha_links_nothing(extra):
    ledger = Ledger(MemoryHuey("t", results=False))
    first, second = synchronize("d1", sha(1), sha(0), 0), synchronize("d2", sha(2), sha(1), 0)
    second.payload.update(extra)
    ledger.admit(second)
    ledger.admit(first)
    assert not ledger.superseded(subject_of(first)) and not ledger.superseded(subject_of(second))


def test_one_seconds_chain_is_kept_bounded_and_its_last_head_still_wins():
    huey = MemoryHuey("t", results=False)
    ledger = Ledger(huey)
    count = CHAIN_KEPT * 2
    for n in range(count, 0, -1):  # the last push's delivery first: every other is replaced on arrival
        ledger.admit(synchronize(f"d{n}", sha(n), sha(n - 1), 0))
    record = huey.get("head:acme/x#7", peek=True)
    assert record["heads"] == [sha(count)] and len(record["afters"]) <= CHAIN_KEPT >= len(record["named"])


def test_newest_head_records_expire_after_the_redelivery_window():
    huey, now = MemoryHuey("t", results=False), [1_000_000.0]
    ledger = Ledger(huey, clock=lambda: now[0])
    ledger.admit(synchronize("d1", sha(1), sha(0), 0))
    ledger.admit(push("d2", sha(5), 0, number=8))
    huey.put("head:acme/x#9", {"heads": [sha(9)], "version": "2026-12-03T10:00:00Z"})  # written before times
    now[0] += REMEMBER_SECONDS - 1
    ledger.admit(synchronize("d3", sha(2), sha(1), 0))
    now[0] += 2
    ledger.expire()
    assert huey.get("head:acme/x#7", peek=True)["heads"] == [sha(2)]
    assert huey.get("head:acme/x#8", peek=True) is None and huey.get("head:acme/x#9", peek=True)
