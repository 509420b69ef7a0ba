"""The queue's push log: every signed push (head, time) per pull request, bounded, for `seen_at`."""
import pytest
from huey import MemoryHuey

from bot.ambient.jobs import Job
from bot.queue.ledger import PUSHES_KEPT, Ledger


def push(sha: str, second: int, *, number: int = 7, action: str = "synchronize") -> Job:
    return Job(f"d-{sha[:3]}-{second}-{number}", "pull_request", {
        "action": action, "installation": {"id": 1}, "repository": {"full_name": "acme/x"},
        "pull_request": {"number": number, "updated_at": f"2026-12-02T12:{second // 60:02d}:{second % 60:02d}Z",
                         "head": {"sha": sha}}})


def test_pushes_are_logged_per_pull_request_in_arrival_order_without_repeats():
    ledger = Ledger(MemoryHuey("t", results=False))
    for job in (push("a" * 40, 1), push("b" * 40, 5), push("b" * 40, 5), push("a" * 40, 9),
                push("c" * 40, 2, number=8), push("d" * 40, 3, action="labeled")):
        ledger.admit(job)
    assert ledger.pushes("acme/x#7") == [("2026-12-02T12:00:01Z", "a" * 40), ("2026-12-02T12:00:05Z", "b" * 40),
                                         ("2026-12-02T12:00:09Z", "a" * 40)]
    assert ledger.pushes("acme/x#8") == [("2026-12-02T12:00:02Z", "c" * 40)]
    assert ledger.pushes("acme/x#9") == []


def test_the_log_keeps_the_newest_pushes():
    ledger = Ledger(MemoryHuey("t", results=False))
    for second in range(PUSHES_KEPT + 30):
        ledger.admit(push(f"{second:040x}", second))
    log = ledger.pushes("acme/x#7")
    assert len(log) == PUSHES_KEPT and log[-1][1] == f"{PUSHES_KEPT + 29:040x}" and log[0][1] == f"{30:040x}"


@pytest.mark.parametrize("action, extra, logged", [
    ("opened", {}, ("octocat", "opened", "")),  # a push before the opening surfaces here
    ("reopened", {}, ("octocat", "reopened", "")),  # a push while closed surfaces here
    ("synchronize", {"before": "f" * 40}, ("octocat", "synchronize", "f" * 40)),
    ("edited", {"changes": {"base": {"ref": {"from": "old"}}}}, ("octocat", "edited", "")),
    ("ready_for_review", {}, ()),  # shows no head a push delivery did not
])
def test_a_delivery_that_may_show_a_new_head_logs_its_sender(action, extra, logged):
    """Who showed each head, how, and what a `synchronize` replaced: bot/github/pushers.py chains them."""
    ledger = Ledger(MemoryHuey("t", results=False))
    job = push("a" * 40, 1, action=action)
    job.payload.update(extra, sender={"login": "octocat"})
    ledger.admit(job)
    assert ledger.pushes("acme/x#7") == [("2026-12-02T12:00:01Z", "a" * 40, *logged)]


def test_a_delivery_without_a_sender_logs_only_its_head():
    ledger = Ledger(MemoryHuey("t", results=False))
    ledger.admit(push("c" * 40, 9))
    assert ledger.pushes("acme/x#7") == [("2026-12-02T12:00:09Z", "c" * 40)]
