"""The web layer with GitHub's official webhook payloads: signature, size, parsing, routing."""
import json

import pytest

from bot.config.settings import Settings
from bot.web.signature import sign
from bot.web.app import create_app
from bot.web.webhook import MAX_BODY_BYTES
from tests.shared import webhook_example

SECRET = b"it's a secret to everybody"


class RecordingDispatcher:
    def __init__(self):
        self.jobs = []

    def submit(self, job):
        self.jobs.append(job)


@pytest.fixture
def dispatcher():
    return RecordingDispatcher()


@pytest.fixture
def client(dispatcher):
    settings = Settings(app_id="1", private_key="-----BEGIN RSA PRIVATE KEY-----", webhook_secret=SECRET)
    return create_app(settings, dispatcher=dispatcher).test_client()


def deliver(client, event, payload, *, secret=SECRET, signature=None, raw=None):
    body = raw if raw is not None else json.dumps(payload).encode()
    headers = {"X-GitHub-Event": event, "X-GitHub-Delivery": "d-1", "Content-Type": "application/json"}
    if signature is None:
        signature = sign(secret, body)
    if signature:
        headers["X-Hub-Signature-256"] = signature
    return client.post("/webhook", data=body, headers=headers)


@pytest.mark.parametrize("example, event, accepted", [
    ("pull_request.opened", "pull_request", True),
    ("pull_request.synchronize", "pull_request", True),
    ("pull_request.reopened", "pull_request", True),
    ("pull_request.ready_for_review", "pull_request", True),
    ("pull_request.edited.base_changed.derived", "pull_request", True),
    ("check_run.rerequested", "check_run", True),
    ("check_suite.rerequested", "check_suite", True),
    ("pull_request.labeled", "pull_request", False),
    ("pull_request.closed", "pull_request", False),
    ("issue_comment.created", "issue_comment", False),  # on a plain issue
    ("issue_comment.edited.on_pull_request.derived", "issue_comment", False),
    ("installation.created", "installation", False),
    ("check_suite.requested", "check_suite", False),
    ("check_run.requested_action", "check_run", False),  # another App's button
    ("issue_comment.created.on_pull_request.derived", "issue_comment", True),
])
def test_official_payloads_are_routed(client, dispatcher, example, event, accepted):
    response = deliver(client, event, webhook_example(example))
    assert response.status_code == (202 if accepted else 200)
    assert response.get_json()["accepted"] is accepted
    assert len(dispatcher.jobs) == (1 if accepted else 0)
    if accepted:
        assert dispatcher.jobs[0].delivery_id == "d-1" and dispatcher.jobs[0].event == event


def test_ping_answers_pong(client, dispatcher):
    response = deliver(client, "ping", webhook_example("ping"))
    assert response.status_code == 200 and response.get_json() == {"msg": "pong"}
    assert dispatcher.jobs == []


@pytest.mark.parametrize("signature", ["", "sha256=" + "0" * 64, "sha1=abc", "garbage"])
def test_missing_or_bad_signature_is_401_and_nothing_runs(client, dispatcher, signature):
    response = deliver(client, "pull_request", webhook_example("pull_request.opened"), signature=signature)
    assert response.status_code == 401
    assert dispatcher.jobs == []


def test_signature_with_another_secret_is_refused(client, dispatcher):
    response = deliver(client, "pull_request", webhook_example("pull_request.opened"), secret=b"other")
    assert response.status_code == 401 and dispatcher.jobs == []


@pytest.mark.parametrize("raw", [b"not json", b"[1, 2]", b"\xff\xfe", b"[" * 100000])
def test_non_object_bodies_are_400(client, dispatcher, raw):
    response = deliver(client, "pull_request", None, raw=raw)
    assert response.status_code == 400 and dispatcher.jobs == []


def test_oversized_body_is_413_before_signature(client, dispatcher):
    raw = b" " * (MAX_BODY_BYTES + 1)
    response = deliver(client, "pull_request", None, raw=raw, signature="sha256=x")
    assert response.status_code == 413 and dispatcher.jobs == []


def test_healthz(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}


def test_unknown_route_answers_json(client):
    response = client.get("/nope")
    assert response.status_code == 404 and "error" in response.get_json()


def queue_client(tmp_path, handled):
    """The app with the real durable queue (SQLite in tmp_path), its workers not started."""
    from bot.queue import QueueDispatcher
    from bot.queue.runtime import Runtime
    dispatcher = QueueDispatcher(Runtime(queue_path=str(tmp_path / "queue.db")), handled.append)
    settings = Settings(app_id="1", private_key="k", webhook_secret=SECRET)
    return create_app(settings, dispatcher=dispatcher).test_client(), dispatcher


def test_a_redelivered_delivery_id_is_recorded_once(tmp_path):
    handled = []
    client, dispatcher = queue_client(tmp_path, handled)
    answers = [deliver(client, "pull_request", webhook_example("pull_request.opened")) for _ in range(3)]
    assert [a.status_code for a in answers] == [202, 200, 200]
    assert dispatcher.depth() == 1
    assert dispatcher.ledger.get("d-1")["state"] == "queued"


def test_readyz_and_metrics(tmp_path):
    client, _dispatcher = queue_client(tmp_path, [])
    assert client.get("/readyz").get_json() == {"status": "ready"}
    deliver(client, "pull_request", webhook_example("pull_request.opened"))
    deliver(client, "pull_request", webhook_example("pull_request.labeled"))
    text = client.get("/metrics").get_data(as_text=True)
    assert 'schema_review_deliveries_total{event="pull_request",outcome="accepted"}' in text
    assert 'schema_review_deliveries_total{event="pull_request",outcome="ignored"}' in text
    assert "schema_review_queue_depth 1.0" in text


def test_readyz_is_503_when_the_queue_is_unreachable(client, dispatcher):
    def broken():
        raise OSError("disk gone")
    dispatcher.ready = broken
    response = client.get("/readyz")
    assert response.status_code == 503 and response.get_json()["queue"] == "unreachable"


@pytest.mark.parametrize("payload", [
    {"action": "created", "issue": "not an object", "comment": {"body": "/schema-review"}},
    {"action": "opened", "repository": ["a"], "pull_request": 5},
])
def test_signed_payloads_of_the_wrong_shape_never_answer_500(client, payload):
    event = "issue_comment" if "issue" in payload else "pull_request"
    assert deliver(client, event, payload).status_code in (200, 202, 400)
