"""Webhook acknowledgement latency and end-to-end drain time under a sustained delivery rate.

Usage: python bench/load.py [--rate 200] [--seconds 30] [--pulls 100] [--redis]
The App runs under gunicorn (embedded SQLite queue unless --redis), GitHub is the local emulator
in this process, and the deliveries come from a second process (bench/load_sender.py) on
loopback. Prints p50/p99/max acknowledgement latency, the time until every check run completed,
and how many accepted deliveries the queue failed to finish (must be 0). Writes bench/out/load.json.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.github_emulator import GitHubEmulator  # noqa: E402
from tests.harness.flow import AVRO_BASE, AVRO_BREAKING  # noqa: E402
from tests.harness.server import SECRET, app_env, gunicorn, redis_server, worker  # noqa: E402


def make_pulls(github: GitHubEmulator, count: int, repos: int = 10) -> list:
    pulls = []
    for r in range(repos):
        repo = github.create_repo("acme", f"load-{r}", {"schemas/user.avsc": AVRO_BASE})
        for p in range(count // repos):
            branch = f"feature-{p}"
            repo.commit(branch, {"schemas/user.avsc": AVRO_BREAKING.replace("level", f"level{p}")},
                        "Change", base="main")
            pulls.append(github.open_pull(repo.owner, repo.name, branch, "main", f"Change {p}"))
    return pulls


def all_done(github: GitHubEmulator, pulls: list) -> bool:
    for pull in pulls:
        runs = [r for r in github.check_runs(pull.repo.owner, pull.repo.name, pull.head_sha)
                if r.name == "schema-review"]
        if not runs or runs[0].status != "completed":
            return False
    return True


def unfinished(queue_path: str | None, redis_url: str | None) -> int:
    from bot.queue import make_huey
    from bot.queue.ledger import Ledger
    from bot.runtime import Runtime
    runtime = Runtime(redis_url=redis_url, queue_path=queue_path or "")
    return sum(1 for _guid, entry in Ledger(make_huey(runtime)).entries() if entry["state"] != "done")


def _pin(pid: int, *, core: int) -> None:
    """Every thread of a process and of its children onto one core, so the App's share is known."""
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    for each in [str(pid), *children]:
        subprocess.run(["taskset", "-a", "-cp", str(core), each], check=True, capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--pulls", type=int, default=100)
    parser.add_argument("--workers", type=int, default=8, help="queue worker threads")
    parser.add_argument("--redis", action="store_true", help="Redis queue and two bot.worker processes")
    parser.add_argument("--pin", action="store_true",
                        help="give the App core 0 and the emulator and sender core 1 (Linux taskset)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="schema-review-load-"))
    processes = []
    with GitHubEmulator(folder / "github", check_responses=False) as github:
        pulls = make_pulls(github, args.pulls)
        extra = {"QUEUE_WORKERS": str(args.workers), "SCHEMA_REVIEW_RECOVERY_INTERVAL": "0"}
        redis_url = None
        if args.redis:
            redis, redis_url = redis_server(folder)
            processes.append(redis)
            extra["REDIS_URL"] = redis_url
        env = app_env(github, folder, **extra)
        app, url = gunicorn(env, folder / "gunicorn.log", threads=16)
        processes.append(app)
        if args.redis:
            processes += [worker(env, folder / f"worker-{i}.log") for i in range(2)]
        if args.pin:
            _pin(app.popen.pid, core=0)
            _pin(os.getpid(), core=1)  # the emulator's threads, and the sender started below
            for each in processes[2 if args.redis else 1:]:
                _pin(each.popen.pid, core=1)  # Redis mode: the bot.worker processes
        payloads = folder / "payloads.jsonl"
        with payloads.open("w") as out:
            for pull in pulls:
                out.write(json.dumps(github.pull_request_event("synchronize", pull)) + "\n")
        started = time.monotonic()
        sender = subprocess.run([sys.executable, str(REPO / "bench" / "load_sender.py"), url + "/webhook",
                                 str(payloads), SECRET, str(args.rate), str(args.seconds)],
                                capture_output=True, text=True, check=True)
        sent = json.loads(sender.stdout)
        while not all_done(github, pulls):
            time.sleep(0.2)
        # Every accepted delivery's journal entry must reach "done" (reviewed, coalesced or superseded).
        deadline = time.monotonic() + 600
        while (left := unfinished(env["QUEUE_PATH"] if not args.redis else None, redis_url)) and \
                time.monotonic() < deadline:
            time.sleep(0.5)
        drained = time.monotonic() - started
        for process in processes:
            process.stop()
    result = {**sent, "mode": "redis" if args.redis else "embedded sqlite", "pulls": args.pulls,
              "seconds_until_all_checks_and_jobs_done": round(drained, 1), "accepted_not_finished": left,
              "github_calls": len(github.calls)}
    (REPO / "bench" / "out").mkdir(exist_ok=True)
    (REPO / "bench" / "out" / "load.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    return 0 if left == 0 and sent["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
