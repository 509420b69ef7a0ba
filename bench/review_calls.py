"""GitHub API calls and webhook-to-verdict time of one review, for 1 and for 20 schema files.

Runs the real App under gunicorn against the local GitHub emulator (loopback only).
Usage: python bench/review_calls.py [--files 1 20 120]
"""
from __future__ import annotations

import argparse
import collections
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from tests.github_emulator import GitHubEmulator  # noqa: E402

SECRET = "bench-secret"
BASE = '{\n  "type": "record",\n  "name": "E",\n  "fields": [\n    {"name": "id", "type": "string"}\n  ]\n}\n'
HEAD = BASE.replace('"string"}\n', '"string"},\n    {"name": "level", "type": "int"}\n')


def start_app(emulator: GitHubEmulator) -> tuple[subprocess.Popen, str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "GITHUB_APP_ID": str(emulator.app_id), "GITHUB_PRIVATE_KEY": emulator.private_key,
           "GITHUB_WEBHOOK_SECRET": SECRET, "GITHUB_API_URL": emulator.url}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "app:app", "--bind", f"127.0.0.1:{port}",
                               "--workers", "1", "--threads", "4"], cwd=REPO, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if requests.get(url + "/healthz", timeout=1).ok:
                return server, url
        except requests.ConnectionError:
            time.sleep(0.05)
    raise SystemExit("gunicorn did not start")


def measure(emulator: GitHubEmulator, url: str, files: int, *, name: str) -> dict:
    repo = emulator.create_repo("bench", name, {f"s/f{i}.avsc": BASE for i in range(files)})
    repo.commit("feature", {f"s/f{i}.avsc": HEAD for i in range(files)}, "Add level", base="main")
    pull = emulator.open_pull("bench", repo.name, "feature", "main", "Add level")
    emulator.clear_calls()
    started = time.perf_counter()
    emulator.deliver(url + "/webhook", "pull_request", emulator.pull_request_event("opened", pull), SECRET)
    while True:
        runs = emulator.check_runs("bench", repo.name, pull.head_sha)
        if runs and runs[0].status == "completed":
            verdict_seconds = time.perf_counter() - started
            break
        time.sleep(0.01)
    quiet, count = time.perf_counter(), len(emulator.calls)
    while time.perf_counter() - quiet < 0.5:  # the review is posted after the verdict
        time.sleep(0.02)
        if len(emulator.calls) != count:
            quiet, count = time.perf_counter(), len(emulator.calls)
    done_seconds = quiet - started
    by_operation = collections.Counter(c.operation for c in emulator.calls)
    return {"files": files, "calls": len(emulator.calls), "verdict_s": round(verdict_seconds, 3),
            "all_posted_s": round(done_seconds, 3), "by_operation": dict(by_operation)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, nargs="+", default=[1, 20])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, GitHubEmulator(Path(tmp)) as emulator:
        server, url = start_app(emulator)
        try:
            measure(emulator, url, 1, name="warm-up")  # token, imports, the App's first request
            for files in args.files:
                row = measure(emulator, url, files, name=f"files-{files}")
                print(f"{row['files']:>4} files: {row['calls']:>3} API calls, verdict after "
                      f"{row['verdict_s']}s, review posted after {row['all_posted_s']}s")
                print("      " + ", ".join(f"{op}={n}" for op, n in sorted(row["by_operation"].items())))
        finally:
            server.terminate()
            server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
