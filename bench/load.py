"""Webhook acknowledgement latency under a sustained delivery rate, and review throughput.

Usage: python bench/load.py [--rate 200] [--seconds 30] [--pulls 100] [--redis [--processes 2]]
       python bench/load.py --throughput [--pulls 60] [--redis --processes N]
The App runs under gunicorn (its SQLite queue's worker process beside it, or with --redis N
`python -m bot.worker` processes), GitHub is the local emulator in this process, and the
deliveries come from a second process (bench/load_sender.py) on loopback. Acks: p50/p99/max
acknowledgement latency; the same for an empty Flask answer (bench/ack_floor.py under the App's
gunicorn settings), first while the App idles, then at the same rate at the same time as the
App's deliveries, while the reviews run (the peer: the same load on the same cores); the time until every check run completed; and how many accepted deliveries the
queue failed to finish (must be 0). --throughput: one delivery per pull request (mixed formats,
1-20 files each, some breaking), all at once, and reviews completed per second (the middle 80%
of completions, so start-up and the tail do not count). Both: the CPU seconds the App (web and
worker processes and their children) and the emulator with the sender spent, which bound what
this machine can reach; the web process's share is `web_cpu_s`. The emulator serves at a lower
CPU priority (--emulator-niceness): in production GitHub does not share the App's cores.
Writes bench/out/load.json.
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.github_emulator import GitHubEmulator  # noqa: E402
from tests.harness.flow import AVRO_BASE, AVRO_BREAKING, AVRO_FIXED, wait_for  # noqa: E402
from bot.queue.runtime import Runtime  # noqa: E402
from tests.harness.server import (SECRET, Process, app_env, free_port, gunicorn, local_worker,  # noqa: E402
                                  redis_server, wait_until_up, worker)


ACK_P99_TARGET_MS = 50  # at 200 deliveries a second, while the reviews run (issue 12)


def make_pulls(github: GitHubEmulator, count: int, repos: int = 10, *, prefix: str = "load") -> tuple[list, int]:
    """One-file Avro pull requests, and how many files they change."""
    pulls = []
    for r in range(repos):
        repo = github.create_repo("acme", f"{prefix}-{r}", {"schemas/user.avsc": AVRO_BASE})
        for p in range(count // repos):
            branch = f"feature-{p}"
            repo.commit(branch, {"schemas/user.avsc": AVRO_BREAKING.replace("level", f"level{p}")},
                        "Change", base="main")
            pulls.append(github.open_pull(repo.owner, repo.name, branch, "main", f"Change {p}"))
    return pulls, len(pulls)


# A monorepo's schemas, FILES_PER_FORMAT of each format; a pull request changes 1-20 of them.
FILES_PER_FORMAT = 7
PROTO = 'syntax = "proto3";\npackage p{i};\n\nmessage M{i} {{\n  string id = 1;\n  int32 level = 2;\n}}\n'
JSON = ('{{\n  "$schema": "https://json-schema.org/draft/2020-12/schema",\n  "title": "S{i}",\n'
        '  "type": "object",\n  "properties": {{\n    "id": {{"type": "string"}}\n  }},\n'
        '  "required": ["id"]\n}}\n')
# Each format's base text and two heads: a compatible change and a breaking one.
SCHEMAS = {
    "schemas/avro/f{i}.avsc": (lambda i: AVRO_BASE, lambda i: AVRO_FIXED, lambda i: AVRO_BREAKING),
    "proto/f{i}.proto": (lambda i: PROTO.format(i=i), lambda i: PROTO.format(i=i).replace("  int32 level = 2;\n",
                         "  int32 level = 2;\n  string note = 3;\n"),
                         lambda i: PROTO.format(i=i).replace("int32 level", "string level")),
    "schemas/json/f{i}.json": (lambda i: JSON.format(i=i), lambda i: JSON.format(i=i).replace(
        '"id": {"type": "string"}', '"id": {"type": "string"},\n    "note": {"type": "string"}'),
        lambda i: JSON.format(i=i).replace('"required": ["id"]', '"required": ["id", "level"]')),
}


def make_mixed_pulls(github: GitHubEmulator, count: int, repos: int = 10, *,
                     seed: int = 12) -> tuple[list, int]:
    """Pull requests that each change 1-20 schemas of mixed formats (a third of the changes
    breaking), and how many files they change in all."""
    rng = random.Random(seed)
    files = [(path.format(i=i), texts, i) for path, texts in SCHEMAS.items() for i in range(FILES_PER_FORMAT)]
    pulls, changed_files = [], 0
    for r in range(repos):
        repo = github.create_repo("acme", f"mixed-{r}", {path: texts[0](i) for path, texts, i in files})
        for p in range(count // repos):
            changed = rng.sample(files, rng.randint(1, min(20, len(files))))
            changed_files += len(changed)
            repo.commit(f"feature-{p}", {path: texts[rng.choice((1, 1, 2))](i) for path, texts, i in changed},
                        "Change", base="main")
            pulls.append(github.open_pull(repo.owner, repo.name, f"feature-{p}", "main", f"Change {p}"))
    return pulls, changed_files


def review_run(github: GitHubEmulator, pull):
    runs = [r for r in github.check_runs(pull.repo.owner, pull.repo.name, pull.head_sha)
            if r.name == "schema-review"]
    return runs[0] if runs else None


def completed(github: GitHubEmulator, pull) -> bool:
    run = review_run(github, pull)
    return run is not None and run.status == "completed"


def all_done(github: GitHubEmulator, pulls: list) -> bool:
    return all(completed(github, pull) for pull in pulls)


def completion_times(github: GitHubEmulator, pulls: list, started: float) -> list[float]:
    """Seconds from `started` until each pull request's check run completed (polled every 200 ms:
    polling is the emulator's CPU, which the App's work competes with)."""
    waiting, times = list(pulls), []
    while waiting:
        now = time.monotonic() - started
        left = [pull for pull in waiting if not completed(github, pull)]
        times += [now] * (len(waiting) - len(left))
        waiting = left
        time.sleep(0.2)
    return sorted(times)


def throughput(times: list[float]) -> float:
    """Reviews per second over the middle 80% of completions."""
    low, high = times[len(times) // 10], times[(len(times) * 9) // 10 - 1]
    return round(((len(times) * 9) // 10 - len(times) // 10 - 1) / (high - low), 2) if high > low else 0.0


def drain(queue_path: str | None, redis_url: str | None, *, seconds: float = 600) -> int:
    """Wait until every accepted delivery's journal entry is done (reviewed, coalesced or
    superseded), or `seconds` pass; how many are not."""
    deadline = time.monotonic() + seconds
    while (left := unfinished(queue_path, redis_url)) and time.monotonic() < deadline:
        time.sleep(0.5)
    return left


def unfinished(queue_path: str | None, redis_url: str | None) -> int:
    from bot.queue import make_huey
    from bot.queue.ledger import Ledger
    runtime = Runtime(redis_url=redis_url, queue_path=queue_path or "")
    return sum(1 for _guid, entry in Ledger(make_huey(runtime)).entries() if entry["state"] != "done")


def _processes() -> dict[int, tuple[int, float]]:
    """Every process's parent and CPU seconds (utime stime cutime cstime), from Linux /proc."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # exited while we looked
        found[int(stat.parent.name)] = (int(fields[1]), sum(map(int, fields[11:15])) / os.sysconf("SC_CLK_TCK"))
    return found


def tree(pids: list[int], processes: dict | None = None) -> set[int]:
    """These processes and all their descendants running now."""
    processes = _processes() if processes is None else processes
    found, grew = set(pids), True
    while grew:
        more = {pid for pid, (parent, _cpu) in processes.items() if parent in found} - found
        found |= more
        grew = bool(more)
    return found


def cpu_seconds(pids: list[int]) -> float:
    """CPU time of these processes and all their descendants, running or reaped (Linux /proc):
    the App's share of the machine, whatever else runs on it."""
    processes = _processes()
    return sum(processes[pid][1] for pid in tree(pids, processes) if pid in processes)


def waited_seconds(pids: set[int]) -> float:
    """Seconds the threads of these processes (alive now) spent runnable but waiting for a core
    (Linux /proc schedstat): the scheduler's part of an answer's latency, apart from its CPU."""
    total = 0
    for stat in (each for pid in pids for each in Path(f"/proc/{pid}/task").glob("*/schedstat")):
        try:
            total += int(stat.read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue  # the thread exited while we looked
    return total / 1e9


def _own_cpu(processes: list) -> float:
    """This process's CPU (the emulator) and its reaped children's (the sender), not the App's."""
    return cpu_seconds([os.getpid()]) - cpu_seconds([each.popen.pid for each in processes])


def _pin(pid: int, *, core: int) -> None:
    """Every thread of a process and of its children onto one core, so the App's share is known."""
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    for each in [str(pid), *children]:
        subprocess.run(["taskset", "-a", "-cp", str(core), each], check=True, capture_output=True)


def send(url: str, payloads: Path, rate: float, seconds: float) -> subprocess.Popen:
    """The load generator (bench/load_sender.py), started; its JSON result comes on stdout."""
    return subprocess.Popen([sys.executable, str(REPO / "bench" / "load_sender.py"), url + "/webhook",
                             str(payloads), SECRET, str(rate), str(seconds)], stdout=subprocess.PIPE, text=True)


@contextlib.contextmanager
def floor_server(folder: Path, threads: int):
    """bench/ack_floor.py (an answer that does no work) under gunicorn's gthread worker with the
    App's thread count; yields its URL and process id."""
    (folder / "floor.conf.py").write_text("")  # not the App's gunicorn.conf.py (it loads the App)
    port = free_port()
    server = Process([sys.executable, "-m", "gunicorn", "-c", str(folder / "floor.conf.py"), "bench.ack_floor:app",
                      "--bind", f"127.0.0.1:{port}", "--worker-class", "gthread", "--threads", str(threads)],
                     dict(os.environ), folder / "floor.log")
    try:
        wait_until_up(server, f"http://127.0.0.1:{port}/")
        yield f"http://127.0.0.1:{port}", server.popen.pid
    finally:
        server.stop()


def latencies(sender: subprocess.Popen, prefix: str) -> dict:
    result = json.loads(sender.communicate()[0])
    return {key.replace("ack_ms", prefix): value for key, value in result.items() if key.startswith("ack_ms")}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--pulls", type=int, default=100)
    parser.add_argument("--workers", type=int, default=8, help="queue worker threads")
    parser.add_argument("--threads", type=int, default=8, help="gunicorn threads (WEB_THREADS' default)")
    parser.add_argument("--web-workers", type=int, default=1, help="gunicorn workers (WEB_CONCURRENCY's default)")
    parser.add_argument("--redis", action="store_true", help="Redis queue and bot.worker processes")
    parser.add_argument("--processes", type=int, default=2, help="bot.worker processes (with --redis)")
    parser.add_argument("--throughput", action="store_true",
                        help="one delivery per mixed-format pull request, all at once: reviews per second")
    parser.add_argument("--emulator-niceness", type=int, default=10,
                        help="the emulator's nice value: GitHub does not share the App's cores in "
                             "production; 0 lets it compete with the App's web process on equal terms")
    parser.add_argument("--pin", action="store_true",
                        help="give the App core 0 and the emulator and sender core 1 (Linux taskset)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="schema-review-load-"))
    processes = []
    with contextlib.ExitStack() as stack, GitHubEmulator(folder / "github", check_responses=False) as github:
        github.lower_priority(args.emulator_niceness)
        pulls, files_changed = (make_mixed_pulls if args.throughput else make_pulls)(github, args.pulls)
        # The App's own wait for a burst's pushes (the tests' harness turns it off).
        extra = {"QUEUE_WORKERS": str(args.workers), "SCHEMA_REVIEW_RECOVERY_INTERVAL": "0",
                 "SCHEMA_REVIEW_BURST_QUIET": str(Runtime().burst_quiet)}
        redis_url = None
        if args.redis:
            redis, redis_url = redis_server(folder)
            processes.append(redis)
            extra["REDIS_URL"] = redis_url
        env = app_env(github, folder, **extra)
        app_process, url = gunicorn(env, folder / "gunicorn.log", threads=args.threads,
                                       workers=args.web_workers)
        processes.append(app_process)
        if args.redis:
            processes += [worker(env, folder / f"worker-{i}.log") for i in range(args.processes)]
        if args.pin:
            _pin(app_process.popen.pid, core=0)
            _pin(os.getpid(), core=1)  # the emulator's threads, and the sender started below
            for each in processes[2 if args.redis else 1:]:
                _pin(each.popen.pid, core=1)  # Redis mode: the bot.worker processes
        payloads = folder / "payloads.jsonl"
        with payloads.open("w") as out:
            for pull in pulls:
                out.write(json.dumps(github.pull_request_event("synchronize", pull)) + "\n")
        # Throughput: each pull request once, at --rate (every delivery is sent before the first
        # review can finish); acks: --rate for --seconds, cycling over the pull requests.
        seconds = (len(pulls) + 0.5) / args.rate if args.throughput else args.seconds
        floor = {}
        if not args.throughput:
            floor_url, floor_pid = stack.enter_context(floor_server(folder, args.threads))
            # The floor first, while the App idles: the same sender and rate against an empty answer.
            before = cpu_seconds([floor_pid])
            floor = latencies(send(floor_url, payloads, args.rate, seconds), "floor_ack_ms")
            floor["floor_cpu_ms_per_delivery"] = round((cpu_seconds([floor_pid]) - before) * 1000 / (args.rate * seconds), 2)
        app = [each.popen.pid for each in processes if not args.redis or each is not processes[0]]  # not Redis
        web = [processes[1 if args.redis else 0].popen.pid]
        # The processes that run the reviews: bot.worker (Redis), or the one gunicorn starts.
        reviewers = [each.popen.pid for each in processes[2:]] if args.redis else [wait_for(lambda: local_worker(app_process), what="the App's queue worker")]
        # gunicorn's own local worker is its child; bot.worker processes (Redis) are not.
        local = [] if args.redis else reviewers
        cpu = lambda: (cpu_seconds(app), _own_cpu(processes), cpu_seconds(web) - cpu_seconds(local))  # noqa: E731
        app_cpu, emulator_cpu, web_cpu = cpu()
        # Run-queue waits of the threads answering: the App's web processes and the empty answer's.
        answering = tree(web) - tree(local), tree([floor_pid]) if not args.throughput else set()
        waited = [waited_seconds(each) for each in answering]
        started = time.monotonic()
        sender = send(url, payloads, args.rate, seconds)
        # And at the same time, the same rate to the empty answer: what the machine (cores,
        # scheduler, gunicorn, Flask, the senders) gives any answer under this load.
        loaded_floor = None if args.throughput else send(floor_url, payloads, args.rate, seconds)
        times = completion_times(github, pulls, started)
        sent = json.loads(sender.communicate()[0])
        if loaded_floor is not None:
            floor.update(latencies(loaded_floor, "loaded_floor_ack_ms"))
        web_wait, floor_wait = (waited_seconds(each) - before for each, before in zip(answering, waited))
        if loaded_floor is not None:
            floor["loaded_floor_runqueue_wait_ms_per_delivery"] = round(floor_wait * 1000 / (args.rate * seconds), 2)
        left = drain(env["QUEUE_PATH"] if not args.redis else None, redis_url)
        drained = time.monotonic() - started
        conclusions = collections.Counter(review_run(github, pull).conclusion for pull in pulls)
        app_cpu, emulator_cpu, web_cpu = (now - before for now, before in zip(cpu(), (app_cpu, emulator_cpu, web_cpu)))
        for process in processes:
            process.stop()
    result = {**sent, **({} if args.throughput else {"target_ack_ms_p99": ACK_P99_TARGET_MS}), **floor, "mode": f"redis, {args.processes} bot.worker" if args.redis else "embedded sqlite",
              "pulls": len(pulls), "files_changed": files_changed,
              "reviews_per_second": throughput(times), "conclusions": dict(conclusions), "last_review_s": round(times[-1], 1),
              "seconds_until_all_checks_and_jobs_done": round(drained, 1), "accepted_not_finished": left,
              "github_calls": len(github.calls),
              "github_calls_by_operation": dict(collections.Counter(c.operation for c in github.calls).most_common()), "app_cpu_s": round(app_cpu, 1), "web_cpu_s": round(web_cpu, 1),
              "web_cpu_ms_per_delivery": round(web_cpu * 1000 / sent["deliveries"], 2),
              "web_runqueue_wait_ms_per_delivery": round(web_wait * 1000 / sent["deliveries"], 2),
              **({"ack_p99_over_loaded_floor_p99": round(sent["ack_ms_p99"] / floor["loaded_floor_ack_ms_p99"], 2),
                  "uptime_load_average": os.getloadavg()} if floor else {}),
              # The App's CPU per pull request: with all cores its own, reviews/s could reach
              # cores / this (the emulator and the sender share the cores here).
              "app_cpu_s_per_pull": round(app_cpu / len(pulls), 3), "cores": os.cpu_count(),
              "emulator_and_sender_cpu_s": round(emulator_cpu, 1)}
    return report("load", result, ok=left == 0 and sent["errors"] == 0)


def report(name: str, result: dict, *, ok: bool) -> int:
    """Print the result, write it to bench/out/NAME.json; the exit status."""
    (REPO / "bench" / "out").mkdir(exist_ok=True)
    (REPO / "bench" / "out" / f"{name}.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
