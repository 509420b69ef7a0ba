"""Every JSON Schema error finding on real pairs, confirmed or not by an instance (witnesses.py).

`python -m tests.realhistory.confirm --pairs OUT [--report bench/results/jsonschema-instances.md]`
reads OUT/pairs.jsonl (tests.realhistory.extract, JSON Schema pairs), runs our engine in
backward mode under the default (lenient) policy with its example search, and for each error
finding tries the engine's example and the generated documents against the `jsonschema`
library. Writes OUT/instances.jsonl and the report, which lists every unconfirmed finding: the
false-alarm candidates. Each pair runs in a worker with a CPU limit (--seconds). A benchmark.
"""
from __future__ import annotations

import argparse
import json
import resource
import signal
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from itertools import chain
from pathlib import Path

from rules.engine import check
from rules.examples import NOT_A_READ_FAILURE
from rules.model import Mode, Options, Policy, SchemaError, Severity
from rules.sources import read

from .conditionals import conditional_documents
from .siblings import sibling_documents
from .witnesses import Confirmer, generated

DEFAULT_REPORT = Path("bench/results/jsonschema-instances.md")
PER_FINDING = 8  # CPU seconds of candidates per finding and source


def judge(pair: dict, trees: Path) -> dict:
    """One pair: its error findings, each with whether each source found a witness."""
    started = time.process_time()
    row = {"repo": pair["repo"], "file": pair["file"], "old": pair["old"], "new": pair["new"]}
    folder = trees / pair["repo"].replace("/", "+")
    old_path, new_path = folder / pair["old"] / pair["file"], folder / pair["new"] / pair["file"]
    try:
        report = check(read(str(old_path)), read(str(new_path)), mode=Mode.BACKWARD,
                       options=Options(), examples=True)
    except SchemaError as error:
        return {**row, "unusable": str(error.problem)[:200]}
    except Exception as error:  # noqa: BLE001 - a crash is reported, not confirmed
        last = traceback.extract_tb(error.__traceback__)[-1]
        return {**row, "unusable": f"CRASH {type(error).__name__}: {error} "
                                   f"({Path(last.filename).name}:{last.lineno})"[:200]}
    old, new = (json.loads(path.read_text(encoding="utf-8-sig")) for path in (old_path, new_path))
    confirmer = Confirmer(old, new, lenient=Options().policy is Policy.LENIENT,
                          old_files=_beside(old_path), new_files=_beside(new_path))
    findings = []
    for finding in report.findings:
        if finding.severity is not Severity.ERROR:
            continue
        ours = [finding.example.payload] if finding.example else []
        # Both sources are tried, so the report shows how often the independent one agrees.
        found = {origin: next((c for c in _within(candidates, PER_FINDING) if confirmer.confirms(c)), None)
                 for origin, candidates in (("engine", ours),
                                            ("generator", chain(
                                                conditional_documents(old, new, finding.path, confirmer.mend),
                                                generated(old, new, finding.path, confirmer.mend),
                                                sibling_documents(old, new, finding.path, confirmer))))}
        witness = found["engine"] if found["engine"] is not None else found["generator"]
        findings.append({"rule": finding.rule, "path": finding.path,
                         "engine": found["engine"] is not None,
                         "generator": found["generator"] is not None,
                         "witness": json.dumps(witness)[:300] if witness is not None else None,
                         "engine_example": bool(ours)})
    return {**row, "findings": findings, "cpu": round(time.process_time() - started, 2)}


def _within(candidates, seconds: float):
    """The candidates tried until `seconds` of CPU are spent on them: one finding of a schema
    whose every validation is slow cannot use up the pair's limit and leave the others unjudged
    (one left unconfirmed that way is listed like any other)."""
    deadline = time.process_time() + seconds
    for candidate in candidates:
        if time.process_time() > deadline:
            return
        yield candidate


def _beside(path: Path) -> dict:
    """The other JSON files of the schema's folder (the extraction writes those it references)."""
    out = {}
    for other in sorted(path.parent.glob("*.json")):
        if other != path:
            try:
                out[other.name] = json.loads(other.read_text(encoding="utf-8-sig"))
            except (ValueError, OSError):
                continue  # not JSON: no reference can use it
    return out


def _safe(pair: dict, trees: Path, seconds: int) -> dict:
    """`judge` in a worker process, under a CPU limit (SIGXCPU ends the worker)."""
    signal.signal(signal.SIGXCPU, _spent)
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
    try:
        return judge(pair, trees)
    except CpuSpent:
        return {"repo": pair["repo"], "file": pair["file"], "old": pair["old"], "new": pair["new"],
                "unusable": f"over {seconds} s of CPU"}


class CpuSpent(BaseException):
    """The worker's CPU limit was reached (SIGXCPU): not an Exception, so no search's broad
    handler takes it for a candidate's failure."""


def _spent(_signum, _frame):
    raise CpuSpent


def run(pairs: list[dict], trees: Path, *, jobs: int, seconds: int) -> list[dict]:
    rows = []
    for start in range(0, len(pairs), 50):  # a worker killed by its CPU limit breaks its pool
        batch = pairs[start:start + 50]
        with ProcessPoolExecutor(jobs, max_tasks_per_child=1) as pool:
            futures = [pool.submit(_safe, pair, trees, seconds) for pair in batch]
            for pair, future in zip(batch, futures):
                try:
                    rows.append(future.result())
                except Exception as error:  # noqa: BLE001 - the search's own failure, or a dead worker
                    rows.append({"repo": pair["repo"], "file": pair["file"], "old": pair["old"],
                                 "new": pair["new"], "unusable": f"HARNESS {type(error).__name__}: {error}"[:200]})
    return rows


def _confirmed(finding: dict) -> bool:
    return finding["engine"] or finding["generator"]


def _figures(rows: list[dict]) -> list:
    """pairs, judged, with an error verdict, error findings, confirmed, unconfirmed, pairs with one."""
    judged = [r for r in rows if "findings" in r]
    findings = [(r, f) for r in judged for f in r["findings"]]
    unconfirmed = [(r, f) for r, f in findings if not _confirmed(f)]
    return [len(rows), len(judged), sum(1 for r in judged if r["findings"]), len(findings),
            len(findings) - len(unconfirmed), len(unconfirmed),
            len({(r["file"], r["old"], r["new"]) for r, _f in unconfirmed})]


def render(rows: list[dict], *, argv: list[str], seconds: float) -> str:
    findings = [(r, f) for r in rows if "findings" in r for f in r["findings"]]
    unconfirmed = [(r, f) for r, f in findings if not _confirmed(f)]
    by_source = Counter(("engine" if f["engine"] else "") + ("generator" if f["generator"] else "")
                        for _r, f in findings if _confirmed(f))
    unreadable = sum(1 for _r, f in unconfirmed if f["rule"] in NOT_A_READ_FAILURE)
    cpu = sorted(r["cpu"] for r in rows if "cpu" in r)
    repos = sorted({r.get("repo", "?") for r in rows})
    out = ["# JSON Schema error findings confirmed by instances", "",
           f"`python -m tests.realhistory.confirm {' '.join(argv)}` ({seconds:.0f} s). Backward mode, "
           "default (lenient) policy. A finding is confirmed by a document the `jsonschema` library "
           "finds valid under OLD (and under OLD closed to the names it declares) and invalid under "
           "NEW; method in tests/realhistory/witnesses.py (conditionals.py for a finding at an `if`, "
           "siblings.py for one whose sibling alternatives changed too).", "",
           "| repository | pairs | judged | with an error verdict | error findings | confirmed "
           "| unconfirmed | pairs with an unconfirmed finding |", "|---|---|---|---|---|---|---|---|"]
    for repo in repos:
        figures = _figures([r for r in rows if r.get("repo", "?") == repo])
        out.append(f"| {repo} | " + " | ".join(map(str, figures)) + " |")
    if len(repos) > 1:
        out.append("| all | " + " | ".join(map(str, _figures(rows))) + " |")
    out += ["",
            f"Confirmed by both the engine's example and the independent generator: "
            f"{by_source['enginegenerator']}; by the engine's example only: {by_source['engine']}; "
            f"by the generator only: {by_source['generator']}.", "",
            f"Of the unconfirmed, {unreadable} are rules whose break no instance can show "
            "(rules.examples.NOT_A_READ_FAILURE: a `$ref` to a file outside the pair, not read); "
            "the others are the false-alarm candidates, or breaks the generator could not reach.", "",
            f"Not judged ({sum(1 for r in rows if 'unusable' in r)}): "
            + (", ".join(f"{k} {v}" for k, v in Counter(
                _reason(r["unusable"]) for r in rows if "unusable" in r).most_common()) or "none")
            + ".", ""]
    if cpu:
        out += [f"CPU per judged pair (engine with examples, then the search): median "
                f"{cpu[len(cpu) // 2]:.2f} s, max {cpu[-1]:.2f} s, total {sum(cpu):.0f} s.", ""]
    out += ["## Unconfirmed findings by rule (not adjudicated)", "",
            "| rule | findings | pairs |", "|---|---|---|"]
    for rule, count in Counter(f["rule"] for _r, f in unconfirmed).most_common():
        pairs = {(r["file"], r["old"]) for r, f in unconfirmed if f["rule"] == rule}
        out.append(f"| `{rule}` | {count} | {len(pairs)} |")
    from bot.render.escape import cell, code  # file names and paths come from the schemas
    out += ["", "## Every unconfirmed finding", "", "| file | old → new | rule | path |",
            "|---|---|---|---|"]
    for r, f in sorted(unconfirmed, key=lambda item: (item[0]["file"], item[0]["old"], item[1]["rule"])):
        out.append(f"| {cell(code(Path(r['file']).name))} | {r['old'][:8]} → {r['new'][:8]} "
                   f"| `{f['rule']}` | {cell(code(f['path']))} |")
    return "\n".join(out) + "\n"


def _reason(text: str) -> str:
    if text.startswith(("CRASH", "HARNESS", "over ")):
        return text.split(":")[0]
    return "unresolved reference to another file" if "nresolved" in text else "schema error"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.realhistory.confirm",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", required=True, type=Path, action="append",
                        help="an extraction's OUT folder (repeatable; one report for all)")
    parser.add_argument("--report", type=Path, default=DEFAULT_REPORT)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seconds", type=int, default=60, help="CPU limit per pair")
    parser.add_argument("--limit", type=int, default=0, help="only the first N pairs of each")
    parser.add_argument("--rerender", action="store_true",
                        help="rewrite the report from each OUT/instances.jsonl, running nothing")
    args = parser.parse_args(argv)
    started, rows = time.monotonic(), []
    for folder in args.pairs:
        if args.rerender:
            lines = (folder / "instances.jsonl").read_text().splitlines()
            rows += [json.loads(line) for line in lines]
            continue
        pairs = [json.loads(line) for line in (folder / "pairs.jsonl").read_text().splitlines()]
        pairs = [p for p in pairs if p["format"] == "jsonschema"][:args.limit or None]
        found = run(pairs, folder / "trees", jobs=args.jobs, seconds=args.seconds)
        with open(folder / "instances.jsonl", "w", encoding="utf-8") as handle:
            for row in found:
                handle.write(json.dumps(row) + "\n")
        rows += found
    shown = sys.argv[1:] if argv is None else list(argv)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(render(rows, argv=shown, seconds=time.monotonic() - started),
                           encoding="utf-8")
    print(f"{len(rows)} pairs; report: {args.report}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
