"""A burst of pushes: what the App does with pushes that a later push superseded.

Usage: python bench/burst.py [--pulls 50] [--pushes 40] [--seconds 10] [--redis [--processes 2]]
Each pull request gets --pushes commits, one after the other (a stack rebased, or a bot); their
`synchronize` deliveries (--pulls × --pushes, 2,000 by default) go to the App under gunicorn
within --seconds, in push order but sent concurrently (bench/load_sender.py: 32 senders), so
some overtake others, as GitHub's do. Each delivery's `updated_at` is the second its push was
made at, spread evenly over the burst: a pull request's pushes share seconds, four to a second
by default. Reports the check runs on heads that were not a pull request's final one (each
costs GitHub calls and shows a cancelled check on a commit nobody reviews any more), the GitHub
API calls per pull request, and how long after the last delivery the last final head's check
completed. Writes bench/out/burst.json.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.load import completion_times, drain, report, send  # noqa: E402
from tests.github_emulator import GitHubEmulator  # noqa: E402
from tests.harness.flow import AVRO_BASE, AVRO_BREAKING  # noqa: E402
from bot.queue.runtime import Runtime  # noqa: E402
from tests.harness.server import app_env, gunicorn, redis_server, worker  # noqa: E402

QUIET_SECONDS = 5.0  # no GitHub call for this long: the App is done (comments follow the checks)


def burst(github: GitHubEmulator, pulls: int, pushes: int, seconds: float, repos: int = 10):
    """The pull requests (each at its final head) and every push's delivery, in push order."""
    start = datetime(2026, 12, 3, 12, 0, 0, tzinfo=timezone.utc)
    opened, events = [], []
    for r in range(repos):
        repo = github.create_repo("acme", f"burst-{r}", {"schemas/user.avsc": AVRO_BASE})
        for p in range(pulls // repos):
            repo.commit(f"stack-{p}", {"schemas/user.avsc": AVRO_BREAKING}, "Start", base="main")
            pull = github.open_pull(repo.owner, repo.name, f"stack-{p}", "main", f"Stack {p}")
            own = []
            for k in range(pushes):
                repo.commit(f"stack-{p}", {"schemas/user.avsc": AVRO_BREAKING.replace("level", f"level{k}")},
                            f"Push {k}")
                event = github.pull_request_event("synchronize", pull)
                at = start + timedelta(seconds=int(k * seconds / pushes))
                event["pull_request"]["updated_at"] = at.strftime("%Y-%m-%dT%H:%M:%SZ")
                own.append(event)
            opened.append(pull)
            events.append(own)
    # Push order: the k-th push of every pull request before the (k+1)-th of any.
    return opened, [own[k] for k in range(pushes) for own in events]


def settle(github: GitHubEmulator, quiet: float) -> None:
    seen, since = len(github.calls), time.monotonic()
    while time.monotonic() - since < quiet:
        time.sleep(0.2)
        if len(github.calls) != seen:
            seen, since = len(github.calls), time.monotonic()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pulls", type=int, default=50)
    parser.add_argument("--pushes", type=int, default=40, help="pushes per pull request")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--workers", type=int, default=8, help="queue worker threads")
    parser.add_argument("--redis", action="store_true", help="Redis queue and bot.worker processes")
    parser.add_argument("--processes", type=int, default=2, help="bot.worker processes (with --redis)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="schema-review-burst-"))
    processes = []
    with GitHubEmulator(folder / "github", check_responses=False) as github:
        github.lower_priority(10)
        pulls, events = burst(github, args.pulls, args.pushes, args.seconds)
        payloads = folder / "payloads.jsonl"
        payloads.write_text("".join(json.dumps(event) + "\n" for event in events))
        # The App's own wait for a burst's pushes (the tests' harness turns it off).
        extra = {"QUEUE_WORKERS": str(args.workers), "SCHEMA_REVIEW_RECOVERY_INTERVAL": "0",
                 "SCHEMA_REVIEW_BURST_QUIET": str(Runtime().burst_quiet)}
        redis_url = None
        if args.redis:
            redis, redis_url = redis_server(folder)
            processes.append(redis)
            extra["REDIS_URL"] = redis_url
        env = app_env(github, folder, **extra)
        app_process, url = gunicorn(env, folder / "gunicorn.log", threads=8)
        processes.append(app_process)
        if args.redis:
            processes += [worker(env, folder / f"worker-{i}.log") for i in range(args.processes)]
        github.clear_calls()
        started = time.monotonic()
        sender = send(url, payloads, len(events) / args.seconds, args.seconds)
        times = completion_times(github, pulls, started)
        sent = json.loads(sender.communicate()[0])
        last_delivery = len(events) / sent["achieved_rate"]
        left = drain(env["QUEUE_PATH"] if not args.redis else None, redis_url)
        settle(github, QUIET_SECONDS)
        finals = {(pull.repo.full_name, pull.head_sha) for pull in pulls}
        superseded = [run for repo in {pull.repo for pull in pulls}
                      for run in github.check_runs(repo.owner, repo.name)
                      if run.name == "schema-review" and (repo.full_name, run.head_sha) not in finals]
        conclusions = collections.Counter(
            next(r for r in github.check_runs(p.repo.owner, p.repo.name, p.head_sha)
                 if r.name == "schema-review").conclusion for p in pulls)
        calls = len(github.calls)
        for process in processes:
            process.stop()
    result = {"mode": f"redis, {args.processes} bot.worker" if args.redis else "embedded sqlite",
              "pulls": len(pulls), "deliveries": sent["deliveries"], "achieved_rate": sent["achieved_rate"],
              "statuses": sent["statuses"], "errors": sent["errors"], "ack_ms_p99": sent["ack_ms_p99"],
              "final_head_conclusions": dict(conclusions),
              "check_runs_on_superseded_heads": len(superseded),
              "their_conclusions": dict(collections.Counter(run.conclusion for run in superseded)),
              "github_calls": calls, "github_calls_per_pull": round(calls / len(pulls), 1),
              "github_calls_by_operation": dict(collections.Counter(c.operation for c in github.calls).most_common()),
              "last_final_head_s_after_last_delivery": round(times[-1] - last_delivery, 1),
              "accepted_not_finished": left, "cores": os.cpu_count()}
    return report("burst", result, ok=left == 0 and sent["errors"] == 0)


if __name__ == "__main__":
    sys.exit(main())
