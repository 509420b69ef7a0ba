"""The status page: what it shows, what it never shows, and how often it asks GitHub."""
from bot.web.registration.status import CACHE_SECONDS, StatusSource
from bot.config.settings import Settings
from bot.web.app import create_app


class FakeGitHub:
    def __init__(self, deliveries, *, fail=False):
        self.calls, self.deliveries, self.fail = 0, deliveries, fail

    def about(self):
        self.calls += 1
        if self.fail:
            raise ConnectionError("down")
        return "schema-review-acme", 3

    def latest_deliveries(self, count):
        return self.deliveries[:count]


class FakeLedger:
    def __init__(self, entries):
        self.entries = entries

    def get(self, guid):
        return self.entries.get(guid)


class FakeDispatcher:
    def __init__(self, ledger):
        self.ledger = ledger

    def submit(self, job):
        raise AssertionError("no delivery in these tests")

    def depth(self):
        return 4


DELIVERIES = [
    {"guid": "g-done", "event": "pull_request", "action": "opened", "status_code": 202,
     "delivered_at": "2026-12-01T10:00:00Z", "repository_id": 77, "installation_id": 5},
    {"guid": "g-queued", "event": "check_run", "action": "rerequested", "status_code": 202,
     "delivered_at": "2026-12-01T10:01:00Z"},
    {"guid": "g-lost", "event": "issue_comment", "action": "created", "status_code": 502,
     "delivered_at": "not a date"},
]
LEDGER = {"g-done": {"state": "done", "outcome": "success"},
          "g-queued": {"state": "queued", "job": "payload of acme/secret-repo"}}


def client_with(github, clock):
    settings = Settings(app_id="1", private_key="-----BEGIN RSA PRIVATE KEY-----", webhook_secret=b"s")
    dispatcher = FakeDispatcher(FakeLedger(LEDGER))
    app = create_app(settings, dispatcher=dispatcher)
    source = StatusSource(settings, dispatcher, clock=lambda: clock[0])
    source._github = github
    app.extensions["schema_review.status"] = source
    return app.test_client()


def test_the_page_shows_counts_and_outcomes_and_no_repository():
    github, clock = FakeGitHub(DELIVERIES), [0.0]
    page = client_with(github, clock).get("/", environ_base={"REMOTE_ADDR": "203.0.113.5"})
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    for shown in ("schema-review-acme", ">3<", ">4<", "pull_request.opened", "success", "queued",
                  "not queued", "502", "2026-12-01 10:00:00 UTC"):
        assert shown in text, shown
    assert "secret-repo" not in text and "77" not in text


def test_github_is_asked_at_most_once_a_minute_whatever_the_traffic():
    github, clock = FakeGitHub(DELIVERIES), [100.0]
    client = client_with(github, clock)
    for _ in range(50):
        assert client.get("/").status_code == 200
    clock[0] += CACHE_SECONDS - 1
    client.get("/")
    assert github.calls == 1
    clock[0] += 1
    client.get("/")
    assert github.calls == 2


def test_github_down_still_shows_the_queue():
    page = client_with(FakeGitHub([], fail=True), [0.0]).get("/")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "unavailable" in text and ">4<" in text
