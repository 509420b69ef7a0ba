"""GitHub API calls, webhook-to-verdict time and where the time went, of one review per size.

Runs the real App under gunicorn against the local GitHub emulator (loopback only).
Usage: python bench/review_calls.py [--files 1 20 120] [--schemas avro|jsonschema]
(jsonschema: files with optional properties, whose history the migration calendar reads)
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from pathlib import Path


REPO = Path(__file__).resolve().parent.parent
CALLS_TARGET = 6  # steady state, for a 1-file and a 120-file pull request (issue 12)
BIG_PULL_SECONDS = 10  # a 300-file pull request reviewed end to end
sys.path.insert(0, str(REPO))
from tests.github_emulator import GitHubEmulator  # noqa: E402
from tests.harness.server import SECRET, app_env, gunicorn  # noqa: E402

BASE = '{\n  "type": "record",\n  "name": "E",\n  "fields": [\n    {"name": "id", "type": "string"}\n  ]\n}\n'
HEAD = BASE.replace('"string"}\n', '"string"},\n    {"name": "level", "type": "int"}\n')
JSON_BASE = '{\n  "type": "object",\n  "properties": {\n    "id": {"type": "string"}\n  }\n}\n'
JSON_HEAD = JSON_BASE.replace('"string"}\n', '"string"},\n    "level": {"type": "integer"}\n')
SCHEMAS = {"avro": ("s/f{i}.avsc", BASE, HEAD), "jsonschema": ("schemas/f{i}.json", JSON_BASE, JSON_HEAD)}


def stages(log: Path, repository: str) -> dict:
    """The stage timings of the App's last "reviewed" log line for `repository`."""
    found = {}
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("{") and '"reviewed"' in line:
            entry = json.loads(line)
            if entry.get("repository") == repository:
                found = entry.get("stages") or {}
    return found


def measure(emulator: GitHubEmulator, url: str, files: int, *, name: str, log: Path,
            schemas: str = "avro") -> dict:
    path, base, head = SCHEMAS[schemas]
    repo = emulator.create_repo("bench", name, {path.format(i=i): base for i in range(files)})
    repo.commit("feature", {path.format(i=i): head for i in range(files)}, "Add level", base="main")
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
    while time.perf_counter() - quiet < 3.0:  # the review is posted after the verdict
        time.sleep(0.02)
        if len(emulator.calls) != count:
            quiet, count = time.perf_counter(), len(emulator.calls)
    done_seconds = quiet - started
    by_operation = collections.Counter(c.operation for c in emulator.calls)
    return {"files": files, "calls": len(emulator.calls), "verdict_s": round(verdict_seconds, 3),
            "all_posted_s": round(done_seconds, 3), "by_operation": dict(by_operation),
            "stages": stages(log, repo.full_name)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, nargs="+", default=[1, 20])
    parser.add_argument("--schemas", choices=sorted(SCHEMAS), default="avro")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, GitHubEmulator(Path(tmp)) as emulator:
        log = Path(tmp) / "gunicorn.log"
        server, url = gunicorn(app_env(emulator, Path(tmp)), log)
        try:
            measure(emulator, url, 1, name="warm-up", log=log)  # token, imports, the first request
            for files in args.files:
                row = measure(emulator, url, files, name=f"files-{files}", log=log,
                              schemas=args.schemas)
                print(f"{row['files']:>4} files: {row['calls']:>3} API calls (target {CALLS_TARGET}), verdict "
                      f"after {row['verdict_s']}s, review posted after {row['all_posted_s']}s"
                      f"{f' (target {BIG_PULL_SECONDS} s)' if files >= 300 else ''}")
                print("      " + ", ".join(f"{op}={n}" for op, n in sorted(row["by_operation"].items())))
                print("      stages (ms): " + ", ".join(f"{k} {v}" for k, v in row["stages"].items()))
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
