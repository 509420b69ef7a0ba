"""Whole-process time and peak memory of `python -m rules check` against its peers, in one run.

Usage: python bench/run.py [--repeat 5]   (writes bench/out/results.json and prints a table)
The peers: Apache Avro's checker and fastavro's parse (Avro), `buf breaking` (Protobuf),
jsoncompat (JSON Schema; `pip install -r bench/requirements-bench.txt` first) and beside it the
issue's floor-style peer, `jsonschema`'s meta-validation of both plus a naive diff. A format's
commands take turns, one run of each per round. Each format also gets its floor
(bench/floor.py: a process that only parses both files) and the share of the check's time that
floor is (floor/ours; 1.0 would be nothing but parsing), and each peer's target: half its time,
which leaves (target - floor) for everything a check does besides parsing.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.generate import write_all  # noqa: E402
from rules.protobuf.compile import BOOTSTRAP  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
BUF_YAML = "version: v2\nbreaking:\n  use:\n    - WIRE_JSON\n"
DRAFT_07, DRAFT_2020_12 = "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"


def measure(commands: dict[str, tuple[list[str], Path]], *, repeat: int) -> dict[str, dict]:
    """Median wall seconds and max peak RSS (MB) of each command, each run its own process.

    The commands take turns (one run of each per round), so that the machine's other work
    falls on all of them alike and the ratios of one call hold up on a busy machine."""
    # Installed tools run from compiled bytecode; a first, untimed run writes it for every side.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for command, cwd in commands.values():
        subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    runs = {name: ([], [], set()) for name in commands}
    for _ in range(repeat):
        for name, (command, cwd) in commands.items():
            times, peaks, codes = runs[name]
            start = time.perf_counter()
            process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
            _pid, status, usage = os.wait4(process.pid, 0)
            times.append(time.perf_counter() - start)
            peaks.append(usage.ru_maxrss / 1024)
            codes.add(os.waitstatus_to_exitcode(status))
    return {name: {"seconds": round(statistics.median(times), 3), "peak_mb": round(max(peaks), 1),
                   "exit_codes": sorted(codes)} for name, (times, peaks, codes) in runs.items()}


def as_2020_12(path: Path) -> Path:
    """The same schema declaring draft 2020-12, the only draft jsoncompat 0.3 reads."""
    copy = path.with_name("schema-2020-12.json")
    copy.write_text(path.read_text().replace(DRAFT_07, DRAFT_2020_12, 1))
    return copy


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if importlib.util.find_spec("jsoncompat") is None:  # else its runs would time an ImportError
        sys.exit("the JSON Schema peer is missing: pip install -r bench/requirements-bench.txt")
    work = Path(tempfile.mkdtemp(prefix="schema-review-bench-"))
    pairs = write_all(work)
    py = sys.executable
    for side in ("old", "new"):
        (work / "protobuf" / side / "buf.yaml").write_text(BUF_YAML)
    buf = shutil.which("buf") or str(Path(py).parent / "buf")
    peer = lambda name, fmt: ([py, str(REPO / "bench/peers" / name), *map(str, pairs[fmt])], REPO)  # noqa: E731
    peers = {
        "avro": {"Apache Avro checker": peer("avro_checker.py", "avro"),
                 "fastavro parse": peer("fastavro_parse.py", "avro")},
        "protobuf": {"buf breaking": ([buf, "breaking", str(work / "protobuf/new"), "--against",
                                       str(work / "protobuf/old")], work)},
        "jsonschema": {"jsoncompat": ([py, str(REPO / "bench/peers/jsoncompat_check.py"),
                                       *map(str, map(as_2020_12, pairs["jsonschema"]))], REPO),
                       "jsonschema + naive diff": peer("jsonschema_naive.py", "jsonschema")},
    }
    rows = {}
    for fmt, named in peers.items():
        timed = measure({"ours": ([py, "-m", "rules", "check", *map(str, pairs[fmt]), "--json"], REPO),
                         **named,
                         "floor": ([py, str(REPO / "bench/floor.py"), fmt, *map(str, pairs[fmt]), BOOTSTRAP],
                                   REPO)}, repeat=args.repeat)
        ours = timed["ours"]["seconds"]
        rows[fmt] = {"ours": timed["ours"], "floor": timed["floor"],
                     "floor_share": round(timed["floor"]["seconds"] / ours, 2),
                     # The target's time (half the peer's) beside the floor: how much room it leaves.
                     "peers": {name: {**timed[name], "ratio": round(ours / timed[name]["seconds"], 2),
                                      "target_seconds": round(timed[name]["seconds"] / 2, 3)}
                               for name in named}}
    print(f"{'format':<11} {'ours s':>7} {'peak MB':>8} {'peer':<24} {'peer s':>7} {'peer MB':>8} "
          f"{'ratio':>6} {'target s':>8} {'floor s':>8} {'floor/ours':>10}")
    for fmt, row in rows.items():
        for name, timed in row["peers"].items():
            print(f"{fmt:<11} {row['ours']['seconds']:>7} {row['ours']['peak_mb']:>8} {name:<24} "
                  f"{timed['seconds']:>7} {timed['peak_mb']:>8} {timed['ratio']:>6} "
                  f"{timed['target_seconds']:>8} {row['floor']['seconds']:>8} {row['floor_share']:>10}")
    out = REPO / "bench" / "out"
    out.mkdir(exist_ok=True)
    (out / "results.json").write_text(json.dumps({"load_average": os.getloadavg(), **rows}, indent=2))
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
