"""Whole-process time and peak memory of `python -m rules check` against its peers, in one run.

Usage: python bench/run.py [--repeat 5]   (writes bench/out/results.json and prints a table)
Each format also gets its floor (bench/floor.py: a process that only parses both files) and
the share of the check's time that floor is (floor/ours; 1.0 would be nothing but parsing).
"""
from __future__ import annotations

import argparse
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


def measure(command: list[str], *, cwd: Path, repeat: int) -> dict:
    """Median wall seconds and max peak RSS (MB) of a command, each run its own process."""
    times, peaks, codes = [], [], set()
    # Installed tools run from compiled bytecode; a first, untimed run writes it for both sides.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(repeat):
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _pid, status, usage = os.wait4(process.pid, 0)
        times.append(time.perf_counter() - start)
        peaks.append(usage.ru_maxrss / 1024)
        codes.add(os.waitstatus_to_exitcode(status))
    return {"seconds": round(statistics.median(times), 3), "peak_mb": round(max(peaks), 1),
            "exit_codes": sorted(codes)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="schema-review-bench-"))
    pairs = write_all(work)
    py = sys.executable
    ours = lambda fmt: [py, "-m", "rules", "check", str(pairs[fmt][0]), str(pairs[fmt][1]), "--json"]  # noqa: E731
    for side in ("old", "new"):
        (work / "protobuf" / side / "buf.yaml").write_text(BUF_YAML)
    buf = shutil.which("buf") or str(Path(py).parent / "buf")
    floor = lambda fmt: measure([py, str(REPO / "bench/floor.py"), fmt, *map(str, pairs[fmt]), BOOTSTRAP],  # noqa: E731
                                cwd=REPO, repeat=args.repeat)
    rows = {
        "avro": {"ours": measure(ours("avro"), cwd=REPO, repeat=args.repeat),
                 "peer": measure([py, str(REPO / "bench/peers/avro_checker.py"), *map(str, pairs["avro"])],
                                 cwd=REPO, repeat=args.repeat), "peer_name": "avro (Apache checker)", "floor": floor("avro")},
        "protobuf": {"ours": measure(ours("protobuf"), cwd=REPO, repeat=args.repeat),
                     "peer": measure([buf, "breaking", str(work / "protobuf/new"), "--against",
                                      str(work / "protobuf/old")], cwd=work, repeat=args.repeat),
                     "peer_name": "buf breaking", "floor": floor("protobuf")},
        "jsonschema": {"ours": measure(ours("jsonschema"), cwd=REPO, repeat=args.repeat),
                       "peer": None, "peer_name": None, "floor": floor("jsonschema")},
    }
    print(f"{'format':<11} {'ours s':>7} {'peak MB':>8} {'peer':<22} {'peer s':>7} {'ratio':>6} "
          f"{'target':>6} {'floor s':>8} {'floor/ours':>10}")
    for fmt, row in rows.items():
        peer, ours = row["peer"], row["ours"]["seconds"]
        row["ratio"] = round(ours / peer["seconds"], 2) if peer else None
        row["floor_share"] = round(row["floor"]["seconds"] / ours, 2)
        print(f"{fmt:<11} {ours:>7} {row['ours']['peak_mb']:>8} {row['peer_name'] or '-':<22} "
              f"{peer['seconds'] if peer else '-':>7} {row['ratio'] or '-':>6} {'0.5' if peer else '-':>6} "
              f"{row['floor']['seconds']:>8} {row['floor_share']:>10}")
    out = REPO / "bench" / "out"
    out.mkdir(exist_ok=True)
    (out / "results.json").write_text(json.dumps(rows, indent=2))
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
