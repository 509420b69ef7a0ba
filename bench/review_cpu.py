"""CPU seconds the App spends per review of a one-file pull request, warm, the emulator excluded.

Usage: python bench/review_cpu.py [--reviews 30] [--profile 20]
The App runs under gunicorn with its SQLite queue's worker process (the default deployment);
GitHub is the local emulator in this process (loopback). After a warm-up (token, imports, the
rule engine's processes), one-file Avro pull requests are delivered one at a time, each waited
for until its journal entry is done; the CPU of the App's process tree (web, worker, the rule
engine's processes; Linux /proc) is read before and after. Reported: CPU per review, with the
tree's idle CPU over the same wall-clock time (queue polling, heartbeats) taken out and left in;
the web process's share; reviews per second per core (1 / CPU per review); the machine's cores
and load average. --profile N: N more reviews called in this process (bot.handlers.handle_job,
as the worker calls it) under cProfile counting this thread's CPU only (the emulator's threads
and the rule engine's processes are not in it): where the worker's time goes.
Writes bench/out/review_cpu.json (and review_cpu.prof with --profile).
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.load import _processes, cpu_seconds, drain, make_pulls, report, tree  # noqa: E402
from tests.github_emulator import GitHubEmulator  # noqa: E402
from tests.harness.flow import wait_for  # noqa: E402
from tests.harness.server import SECRET, app_env, gunicorn, local_worker  # noqa: E402

CPU_TARGET_S = 0.1  # per one-file review, warm worker (issue 24)
WARM_UP = 3
IDLE_SECONDS = 5.0


def review_one(github: GitHubEmulator, url: str, pull, queue_path: str) -> None:
    github.deliver(url + "/webhook", "pull_request", github.pull_request_event("opened", pull), SECRET)
    if drain(queue_path, None, seconds=120):
        raise AssertionError(f"the review of {pull.repo.name}#{pull.number} did not finish")


def measure(github: GitHubEmulator, folder: Path, pulls: list, warm_up: int) -> dict:
    env = app_env(github, folder)
    server, url = gunicorn(env, folder / "gunicorn.log", threads=8)
    try:
        app = [server.popen.pid]
        local = [wait_for(lambda: local_worker(server), what="the App's queue worker")]
        for pull in pulls[:warm_up]:
            review_one(github, url, pull, env["QUEUE_PATH"])
        measured = pulls[warm_up:]
        web = lambda: cpu_seconds(app) - cpu_seconds(local)  # noqa: E731
        app_before, web_before, started = cpu_seconds(app), web(), time.monotonic()
        split_before = by_process(app)
        for pull in measured:
            review_one(github, url, pull, env["QUEUE_PATH"])
        elapsed = time.monotonic() - started
        app_cpu, web_cpu = cpu_seconds(app) - app_before, web() - web_before
        split = {name: round((cpu - split_before.get(name, 0.0)) / len(measured), 4)
                 for name, cpu in by_process(app).items()}
        # What the tree spends doing nothing (the queue's polling and heartbeats), per second.
        idle_before = cpu_seconds(app)
        time.sleep(IDLE_SECONDS)
        idle_per_s = (cpu_seconds(app) - idle_before) / IDLE_SECONDS
        processes = len(tree(app))
    finally:
        server.stop()
    per_review = app_cpu / len(measured)
    without_idle = (app_cpu - idle_per_s * elapsed) / len(measured)
    return {"reviews": len(measured), "seconds": round(elapsed, 1), "app_processes": processes,
            "app_cpu_s_per_review": round(per_review, 4),
            "app_cpu_s_per_review_without_idle": round(without_idle, 4),
            "idle_cpu_s_per_s": round(idle_per_s, 4), "web_cpu_s_per_review": round(web_cpu / len(measured), 4),
            "reviews_per_s_per_core": round(1 / without_idle, 1), "target_cpu_s": CPU_TARGET_S,
            "wall_s_per_review": round(elapsed / len(measured), 3), "cpu_s_per_review_by_process": split}


def by_process(pids: list[int]) -> dict[str, float]:
    """CPU seconds of each process of the tree (with its reaped children), named by pid and command."""
    processes = _processes()
    named = {}
    for pid in sorted(tree(pids, processes)):
        try:
            argv = (Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") + [b""])[:4]
        except OSError:
            continue  # exited while we looked
        command = " ".join(part.decode(errors="replace").rsplit("/", 1)[-1] for part in argv).strip()
        named[f"{pid} {command.splitlines()[0][:50]}"] = \
            processes.get(pid, (0, 0.0))[1]
    return named


def profile(github: GitHubEmulator, folder: Path, pulls: list) -> str:
    """The worker's review path in this thread, under cProfile counting this thread's CPU."""
    from bot.ambient.jobs import Job
    from bot.config.settings import Settings
    from bot.github.app import GitHubApp
    from bot.handlers import handle_job
    from bot.overrides.records import derive_key
    settings = Settings.from_environ(app_env(github, folder))
    client = GitHubApp(settings, record_key=derive_key(settings.webhook_secret))
    # The events are built first: the emulator's own work must not run in the profiled thread.
    jobs = [Job(f"profile-{pull.number}", "pull_request", github.pull_request_event("opened", pull))
            for pull in pulls]
    for job in jobs[:WARM_UP]:
        handle_job(job, github=client)
    profiler = cProfile.Profile(time.thread_time)
    started = time.thread_time()
    profiler.enable()
    for job in jobs[WARM_UP:]:
        handle_job(job, github=client)
    profiler.disable()
    (REPO / "bench" / "out").mkdir(exist_ok=True)
    profiler.dump_stats(REPO / "bench" / "out" / "review_cpu.prof")  # for pstats' callers and callees
    spent = (time.thread_time() - started) / len(jobs[WARM_UP:])
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(40)
    stats.sort_stats("tottime").print_stats(25)
    shares = ", ".join(f"{area} {share:.0%}" for area, share in by_area(stats))
    return f"handle_job: {spent * 1000:.1f} ms of this thread's CPU per review (profiled); {shares}\n" + out.getvalue()


# Where a function's own time is counted, by the first pattern its file or name holds.
AREAS = (("the environment (requests' proxy lookup)", ("<frozen os>", "_collections_abc", "urllib/request.py")),
         ("HTTP client (requests, urllib3, http.client)", ("requests/", "urllib3/", "http/", "email/", "socket")),
         ("PyGithub", ("site-packages/github/",)), ("JSON", ("json/", "json.")), ("the App (bot/)", ("/bot/",)),
         ("the rule engine (rules/)", ("/rules/",)))


def by_area(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Each area's share of the profiled CPU (own time of its functions), largest first."""
    totals, whole = {}, 0.0
    for (path, _line, name), (_calls, _primitive, own, _cumulative, _callers) in stats.stats.items():
        where = f"{path} {name}"
        area = next((label for label, needles in AREAS if any(n in where for n in needles)), "other")
        totals[area] = totals.get(area, 0.0) + own
        whole += own
    return sorted(((area, own / whole) for area, own in totals.items()), key=lambda pair: -pair[1])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reviews", type=int, default=30)
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="then N reviews in this process under cProfile")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="schema-review-cpu-"))
    with GitHubEmulator(folder / "github", check_responses=False) as github:
        pulls, _files = make_pulls(github, WARM_UP + args.reviews, repos=1)
        result = measure(github, folder, pulls, WARM_UP)
        result.update(cores=os.cpu_count(), load_average=[round(x, 2) for x in os.getloadavg()],
                      cpu=_cpu_model())
        if args.profile:
            more, _files = make_pulls(github, WARM_UP + args.profile, repos=1, prefix="profile")
            print(profile(github, folder, more))
    return report("review_cpu", result, ok=True)


def _cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


if __name__ == "__main__":
    sys.exit(main())
