"""The load generator, a process of its own: signed deliveries at a fixed rate, latency of each answer.

Usage: python bench/load_sender.py URL PAYLOADS.jsonl SECRET RATE SECONDS  (prints JSON on stdout)
"""
from __future__ import annotations

import hashlib
import hmac
import json
import statistics
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import requests

SENDERS = 32


def main(url: str, path: str, secret: str, rate: float, seconds: float) -> dict:
    bodies = [line.encode() for line in open(path, encoding="utf-8") if line.strip()]
    local = threading.local()
    latencies, statuses, errors = [], {}, []
    lock = threading.Lock()

    def send(index: int) -> None:
        session = getattr(local, "session", None) or requests.Session()
        local.session = session
        body = bodies[index % len(bodies)]
        headers = {"X-GitHub-Event": "pull_request", "X-GitHub-Delivery": str(uuid.uuid4()),
                   "Content-Type": "application/json",
                   "X-Hub-Signature-256": "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()}
        started = time.perf_counter()
        try:
            status = session.post(url, data=body, headers=headers, timeout=10).status_code
        except requests.RequestException as error:
            with lock:
                errors.append(type(error).__name__)
            return
        elapsed = (time.perf_counter() - started) * 1000
        with lock:
            latencies.append(elapsed)
            statuses[status] = statuses.get(status, 0) + 1

    total = int(rate * seconds)
    begin = time.perf_counter()
    with ThreadPoolExecutor(SENDERS) as pool:
        for index in range(total):  # open loop: a slow answer does not slow the next send
            delay = begin + index / rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            pool.submit(send, index)
    took = time.perf_counter() - begin
    latencies.sort()
    pick = lambda q: round(latencies[min(len(latencies) - 1, int(q * len(latencies)))], 2)  # noqa: E731
    return {"deliveries": total, "achieved_rate": round(total / took, 1), "statuses": statuses,
            "errors": len(errors), "ack_ms_p50": round(statistics.median(latencies), 2), "ack_ms_p90": pick(0.90),
            "ack_ms_p99": pick(0.99), "ack_ms_max": round(latencies[-1], 2)}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]))))
