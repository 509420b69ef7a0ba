"""Any body, any headers, signed or not: the endpoint answers 2xx/4xx quickly and never 500s."""
import json
import time

from hypothesis import given
from hypothesis import strategies as st

from bot.config.settings import Settings
from bot.web.signature import sign
from bot.web.app import create_app

from .counting import RAN, fuzz_settings

SECRET = b"fuzz"
EVENTS = st.sampled_from(["pull_request", "issue_comment", "check_run", "check_suite", "ping", "push", "",
                          "installation", "x" * 300])
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
                    max_leaves=30)
KEYS = st.sampled_from(["action", "pull_request", "repository", "installation", "issue", "comment", "sender",
                        "check_run", "check_suite", "changes", "requested_action", "head", "sha", "number"])
# Payloads close to real ones: GitHub's keys with arbitrary values.
SHAPED = st.recursive(JSON, lambda inner: st.dictionaries(KEYS, inner, max_size=6), max_leaves=40)
ACTIONS = st.sampled_from(["opened", "synchronize", "created", "rerequested", "requested_action", "edited"])


class Recording:
    def __init__(self):
        self.jobs = []

    def submit(self, job):
        self.jobs.append(job)


client = create_app(Settings(app_id="1", private_key="k", webhook_secret=SECRET),
                    dispatcher=Recording()).test_client()


def post(body: bytes, event: str, signature: str | None):
    headers = {"X-GitHub-Event": event, "X-GitHub-Delivery": "fuzz"}
    if signature is not None:
        headers["X-Hub-Signature-256"] = signature
    started = time.monotonic()
    response = client.post("/webhook", data=body, headers=headers)
    assert response.status_code in (200, 202, 400, 401, 413), response.get_data()
    assert time.monotonic() - started < 5.0  # a hang detector, loose enough for a loaded CI machine
    return response


@fuzz_settings(300)
@given(body=st.binary(max_size=2000), event=EVENTS, signed=st.booleans())
def test_arbitrary_bytes(body, event, signed):
    RAN["webhook-bytes"] += 1
    post(body, event, sign(SECRET, body) if signed else None)


@fuzz_settings(400)
@given(payload=st.dictionaries(KEYS, SHAPED, max_size=8), action=ACTIONS, event=EVENTS)
def test_signed_payloads_of_any_shape(payload, action, event):
    RAN["webhook-shaped"] += 1
    payload.setdefault("action", action)
    body = json.dumps(payload).encode()
    post(body, event, sign(SECRET, body))


@fuzz_settings(100)
@given(body=st.binary(max_size=200),
       signature=st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=80))
def test_bad_signatures_are_always_401(body, signature):
    RAN["webhook-signature"] += 1
    if signature.strip() == sign(SECRET, body):
        return
    response = post(body, "pull_request", signature)
    assert response.status_code == 401
