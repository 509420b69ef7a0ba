"""Injected faults, signed webhook deliveries, payload builders, and redelivery bookkeeping."""
import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
import requests
from github import Auth
from github.GithubRetry import GithubRetry
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.shared import shared_path

from .conftest import client_for


def test_error_bursts_rate_limits_and_delays(github, scenario):
    repo, _ = scenario
    url, headers = f"{github.url}/repos/acme/contracts", {"Authorization": f"token {github.issue_token('acme')}"}
    github.inject("GET", r"^/repos/acme/contracts$", status=502, times=2)
    assert [requests.get(url, headers=headers).status_code for _ in range(3)] == [502, 502, 200]
    github.inject("POST", r"/check-runs$", status=403, headers={"Retry-After": "1"})
    answer = requests.post(url + "/check-runs", headers=headers, json={"name": "n", "head_sha": "a" * 40})
    assert answer.status_code == 403 and answer.headers["Retry-After"] == "1"
    assert "secondary rate limit" in answer.json()["message"]
    github.inject("*", r"/pulls/1$", delay=0.3)
    started = time.monotonic()
    assert requests.get(url + "/pulls/1", headers=headers).status_code == 200
    assert time.monotonic() - started >= 0.3


def test_pygithub_retries_through_a_502_burst(github, scenario):
    repo, _ = scenario
    github.inject("GET", r"/pulls/1$", status=502, times=1)
    client = client_for(github, repo, retry=GithubRetry(total=3, backoff_factor=0))
    assert client.get_repo("acme/contracts").get_pull(1).number == 1
    assert [c.status for c in github.calls_to("GET", r"/pulls/1$")] == [502, 200]


class Receiver(BaseHTTPRequestHandler):
    seen: list = []

    def do_POST(self):
        Receiver.seen.append((dict(self.headers), self.rfile.read(int(self.headers["Content-Length"]))))
        self.send_response(202)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver():
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    Receiver.seen = []
    yield f"http://127.0.0.1:{server.server_port}/webhook"
    server.shutdown()
    server.server_close()


def test_deliveries_are_signed_and_listed(github, scenario, receiver):
    _, pull = scenario
    payload = github.pull_request_event("opened", pull)
    answer = github.deliver(receiver, "pull_request", payload, "s3cret", delivery_id="d-1")
    assert answer.status_code == 202
    [(headers, body)] = Receiver.seen
    expected = "sha256=" + hmac.new(b"s3cret", body, hashlib.sha256).hexdigest()
    assert headers["X-Hub-Signature-256"] == expected and headers["X-GitHub-Event"] == "pull_request"
    assert headers["X-GitHub-Delivery"] == "d-1" and headers["User-Agent"].startswith("GitHub-Hookshot/")
    assert json.loads(body)["pull_request"]["head"]["sha"] == pull.head_sha
    failed = github.add_delivery("pull_request", action="synchronize", status_code=500)
    integration_jwt = Auth.AppAuth(github.app_id, github.private_key).create_jwt()
    auth = {"Authorization": f"Bearer {integration_jwt}"}
    listed = requests.get(f"{github.url}/app/hook/deliveries", headers=auth, params={"status": "failure"}).json()
    assert [d["id"] for d in listed] == [failed.id]
    assert requests.post(f"{github.url}/app/hook/deliveries/{failed.id}/attempts", headers=auth).status_code == 202
    assert github.redeliveries == [failed.id]


def webhook_validator(key: str) -> Draft202012Validator:
    spec = json.loads(shared_path("github", "webhooks.bot-subset.json").read_text())
    registry = Registry().with_resource("urn:wh", Resource.from_contents(spec, default_specification=DRAFT202012))
    ref = spec["webhooks"][key]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    return Draft202012Validator({"$ref": "urn:wh" + ref}, registry=registry)


def test_payload_builders_patch_official_examples_and_stay_schema_valid(github, scenario):
    repo, pull = scenario
    opened = github.pull_request_event("opened", pull)
    assert (opened["number"], opened["installation"]["id"], opened["repository"]["full_name"]) == (
        pull.number, repo.installation_id, "acme/contracts")
    assert list(webhook_validator("pull-request-opened").iter_errors(opened)) == []
    comment = github.issue_comment_event(pull, "/schema-override migrated", "alice")
    assert list(webhook_validator("issue-comment-created").iter_errors(comment)) == []
    assert comment["comment"]["id"] == github.issue_comments("acme", "contracts")[0].id
    assert comment["issue"]["pull_request"]["url"].endswith("/pulls/1")
    gh = client_for(github, repo).get_repo("acme/contracts")
    run = gh.create_check_run(name="schema-review", head_sha=pull.head_sha, conclusion="failure",
                              output={"title": "t", "summary": "s"})
    action = github.check_run_event("requested_action", github.check_runs("acme", "contracts")[0],
                                    identifier="override")
    assert list(webhook_validator("check-run-requested-action").iter_errors(action)) == []
    assert action["check_run"]["id"] == run.id and action["check_run"]["pull_requests"][0]["number"] == 1
    assert action["requested_action"] == {"identifier": "override"}
