"""Red team: an unauthenticated client holds every request thread of the App.

gunicorn's gthread worker reads a request body on one of its WEB_THREADS (8) threads; a client
that announces a body and sends it slowly (or never) keeps that thread. A few such connections,
without any secret, and GitHub's signed deliveries are no longer answered within its 10 s.
"""
from __future__ import annotations

import json
import socket
import time
from urllib.parse import urlparse

import pytest
import requests

from bot.signature import sign
from tests.harness.server import SECRET

GITHUB_TIMEOUT = 10.0  # GitHub gives up on a delivery after 10 seconds


def _hold(app_url: str, path: str) -> socket.socket:
    """A request whose headers arrive and whose announced body never does."""
    where = urlparse(app_url)
    held = socket.create_connection((where.hostname, where.port), timeout=5)
    held.sendall((f"POST {path} HTTP/1.1\r\nHost: {where.netloc}\r\nContent-Type: application/json\r\n"
                  f"X-GitHub-Event: ping\r\nContent-Length: 1000000\r\n\r\n{{").encode())
    return held


@pytest.mark.parametrize("connections", [12, 20])
def test_slow_unsigned_bodies_do_not_stop_signed_deliveries(app_url, connections):
    held = [_hold(app_url, "/webhook") for _ in range(connections)]
    try:
        time.sleep(1.0)  # every held request has reached a worker thread
        body = json.dumps({"zen": "Keep it logically awesome.", "hook_id": 1}).encode()
        started = time.monotonic()
        try:
            response = requests.post(app_url + "/webhook", data=body, timeout=GITHUB_TIMEOUT + 5, headers={
                "X-GitHub-Event": "ping", "X-GitHub-Delivery": "slow-1", "Content-Type": "application/json",
                "X-Hub-Signature-256": sign(SECRET.encode(), body)})
            status = response.status_code
        except requests.exceptions.ReadTimeout:
            status = None
        elapsed = time.monotonic() - started
    finally:
        for sock in held:
            sock.close()
    assert status == 200 and elapsed < GITHUB_TIMEOUT, (
        f"{connections} idle unauthenticated connections: a signed ping took {elapsed:.1f}s ({status})")
