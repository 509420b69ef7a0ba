"""Where a file check's time goes: its phases timed one by one, each run in a fresh process.

Usage: python bench/phases.py [FORMAT] [--repeat 7]   (FORMAT: avro (default) or jsonschema)
On bench/run.py's 10,000-field pair of the format, each run starts a new interpreter (so imports
and first uses are cold, as for `python -m rules check`) that times: importing the CLI and the
format's package, reading both files, parsing NEW, parsing OLD, comparing them, and the report's
JSON for the forked check's pipe. Printed: the median of each phase in milliseconds. The
interpreter's own start is `python -c pass`, timed the same way. Not a test: nothing is asserted.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from bench.generate import write_all  # noqa: E402

# Runs in the fresh interpreter: argv[1] the format, argv[2] and argv[3] OLD and NEW.
PHASES = """
import gc, json, sys, time
gc.disable()  # as `python -m rules` runs
marks = [time.perf_counter()]
import rules.cli
from rules import sources, wire
from rules.engine import format_package
from rules.model import Format, Options, Report, Mode
package = format_package(Format(sys.argv[1]))
marks.append(time.perf_counter())
old, new = sources.read(sys.argv[2]), sources.read(sys.argv[3])
marks.append(time.perf_counter())
new_parsed = package.parse(new)
marks.append(time.perf_counter())
old_parsed = package.parse(old)
marks.append(time.perf_counter())
findings = tuple(package.compare(old_parsed, new_parsed, Options()))
marks.append(time.perf_counter())
json.dumps(wire.report(Report(mode=Mode.BACKWARD, findings=findings)))
marks.append(time.perf_counter())
print(json.dumps([b - a for a, b in zip(marks, marks[1:])]))
"""
NAMES = ("imports", "read both", "parse new", "parse old", "compare", "report JSON")


def _start_seconds() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("format", nargs="?", default="avro", choices=("avro", "jsonschema"))
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        old, new = write_all(Path(folder))[args.format]
        command = [sys.executable, "-c", PHASES, args.format, str(old), str(new)]
        runs, starts = [], []
        for _ in range(args.repeat):
            starts.append(_start_seconds())
            done = subprocess.run(command, cwd=REPO, check=True, capture_output=True, text=True)
            runs.append(json.loads(done.stdout))
    print(f"{args.format}, median of {args.repeat} fresh processes (ms):")
    print(f"  interpreter start (python -c pass)  {1000 * statistics.median(starts):6.1f}")
    for index, name in enumerate(NAMES):
        print(f"  {name:<35} {1000 * statistics.median(run[index] for run in runs):6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
