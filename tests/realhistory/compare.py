"""Our verdicts against the reference tools' on every extracted pair; writes a markdown report.

`python -m tests.realhistory.compare --pairs OUT [--report bench/results/realhistory.md]`
reads OUT/pairs.jsonl (tests.realhistory.extract), runs our engine and the peer on each pair in
each run (protobuf: each of buf's four categories, WIRE_JSON, WIRE, PACKAGE and FILE; Avro: backward, forward and full with
Apache Avro's checker; JSON Schema has no reference tool: our verdicts and crashes only), keeps
the raw rows in OUT/results.jsonl and writes the report. A benchmark, not a CI test.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

from . import ours, peers
from .adjudications import adjudicate
from .report import render

RUNS = {"protobuf": ("WIRE_JSON", "WIRE", "PACKAGE", "FILE"), "avro": ("backward", "forward", "full"),
        "jsonschema": ("backward", "forward", "full")}
DEFAULT_REPORT = Path("bench/results/realhistory.md")


def outcome(mine: peers.Verdict, peer: peers.Verdict | None) -> str:
    if peer is None:
        return "no-peer"
    if mine.compatible is None and peer.compatible is None:
        return "both-unusable"
    if mine.compatible is None:
        return "ours-unusable"
    if peer.compatible is None:
        return "peer-unusable"
    return "agree" if mine.compatible == peer.compatible else "disagree"


def judge(pair: dict, trees: Path, run: str, cache: Path) -> dict:
    repo = pair["repo"].replace("/", "+")
    old_tree, new_tree = trees / repo / pair["old"], trees / repo / pair["new"]
    fmt, file, root = pair["format"], pair["file"], pair["root"]
    mine = ours.verdict(fmt, old_tree, new_tree, file, root, run=run)
    if fmt == "protobuf":
        peer = peers.buf(old_tree / root, new_tree / root, file, run, cache=cache)
    elif fmt == "avro":
        peer = peers.avro(old_tree / file, new_tree / file, run)
    else:
        peer = None
    row = {**pair, "run": run, "ours": asdict(mine), "peer": asdict(peer) if peer else None,
           "outcome": outcome(mine, peer)}
    if row["outcome"] in ("disagree", "ours-unusable"):
        row["adjudication"] = adjudicate(row)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.realhistory.compare",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", required=True, type=Path, help="the extraction's OUT folder")
    parser.add_argument("--report", type=Path, default=DEFAULT_REPORT)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--format", action="append", choices=sorted(RUNS),
                        help="only these formats (default: all)")
    parser.add_argument("--rerender", action="store_true",
                        help="re-adjudicate OUT/results.jsonl and rewrite the report, running nothing")
    args = parser.parse_args(argv)
    if args.rerender:
        return _rerender(args)
    pairs = [json.loads(line) for line in (args.pairs / "pairs.jsonl").read_text().splitlines()]
    pairs = [p for p in pairs if not args.format or p["format"] in args.format]
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="realhistory-buf-") as cache, \
            ThreadPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(judge, pair, args.pairs / "trees", run, Path(cache))
                for pair in pairs for run in RUNS[pair["format"]]]
        rows = [job.result() for job in jobs]
    seconds = time.monotonic() - started
    with open(args.pairs / "results.jsonl", "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")
    shown = sys.argv[1:] if argv is None else list(argv)
    (args.pairs / "run.json").write_text(json.dumps({"seconds": seconds, "argv": shown}))
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(render(rows, seconds=seconds, argv=shown), encoding="utf-8")
    counts = Counter((r["format"], r["run"], r["outcome"]) for r in rows)
    for key, count in sorted(counts.items()):
        print(*key, count, file=sys.stderr)
    print(f"{len(rows)} runs on {len(pairs)} pairs in {seconds:.0f} s; report: {args.report}",
          file=sys.stderr)
    return 0


def _rerender(args: argparse.Namespace) -> int:
    """The adjudication table changed: apply it to the stored rows (the run's time is kept)."""
    lines = (args.pairs / "results.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    for row in rows:
        if row["outcome"] in ("disagree", "ours-unusable"):
            row["adjudication"] = adjudicate(row)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    seconds = float(json.loads((args.pairs / "run.json").read_text())["seconds"])
    argv = json.loads((args.pairs / "run.json").read_text())["argv"]
    with open(args.pairs / "results.jsonl", "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")
    args.report.write_text(render(rows, seconds=seconds, argv=argv), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
