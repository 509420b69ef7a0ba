"""Copy one judged pair of a differential run into the compact sample, with its verdicts.

`python -m tests.realhistory.keep --pairs OUT --mirror DIR --file PATH --old C --new C --case NAME`
writes tests/realhistory/sample/<owner+name>/<NAME>/{old,new}/ (protobuf: the file's import
closure; Avro and JSON Schema: the file alone, so pick a self-contained one), the repository's
licence files beside the cases, and the pair's entry in sample/expected.json: per run, our
verdict, the peer's, and the expected one (the adjudicated truth).
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

from .peers import closure

SAMPLE = Path(__file__).parent / "sample"
EXPECTED = SAMPLE / "expected.json"
LICENCES = ("LICENSE", "LICENSE.txt", "LICENSE.md", "COPYING", "NOTICE")


def expected_verdict(row: dict) -> dict:
    """The adjudicated truth: the side the adjudication names as right, else the agreed one."""
    ours, peer = row["ours"], row["peer"]
    right = (row.get("adjudication") or {}).get("right")
    chosen = peer if (right == "peer" or (right is None and peer)) else ours
    return {"compatible": chosen["compatible"]}


def _pending(row: dict) -> dict:
    """Where our verdict is not yet the truth: who is to fix it (the adjudication's key)."""
    if row["ours"]["compatible"] == expected_verdict(row)["compatible"]:
        return {}
    return {"pending": (row.get("adjudication") or {}).get("key", "unadjudicated")}


def files_of(row: dict, tree: Path) -> list[str]:
    if row["format"] == "protobuf":
        return [str(Path(row["root"], name)) for name in closure(tree / row["root"], row["file"])]
    return [row["file"]]  # Avro: the sample keeps self-contained files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.realhistory.keep",
                                     description=__doc__.splitlines()[0])
    for name in ("--pairs", "--mirror"):
        parser.add_argument(name, required=True, type=Path)
    for name in ("--file", "--old", "--new", "--case"):
        parser.add_argument(name, required=True)
    parser.add_argument("--note", default="", help="why this pair is in the sample")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in (args.pairs / "results.jsonl").read_text().splitlines()]
    rows = [r for r in rows if r["file"] == args.file and r["old"].startswith(args.old)
            and r["new"].startswith(args.new)]
    if not rows:
        print("no such pair in results.jsonl", file=sys.stderr)
        return 2
    first = rows[0]
    slug = first["repo"].replace("/", "+")
    home = SAMPLE / slug
    case = home / args.case
    shutil.rmtree(case, ignore_errors=True)
    for side in ("old", "new"):
        tree = args.pairs / "trees" / slug / first[side]
        for name in files_of(first, tree):
            target = case / side / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(tree / name, target)
    for name in LICENCES:
        text = subprocess.run(["git", "-C", str(args.mirror), "show", f"HEAD:{name}"],
                              capture_output=True).stdout
        if text:
            (home / name).write_bytes(text)
    entries = json.loads(EXPECTED.read_text()) if EXPECTED.exists() else []
    entries = [e for e in entries if not (e["repo"] == first["repo"] and e["case"] == args.case)]
    entries.append({
        "case": args.case, "repo": first["repo"], "format": first["format"],
        "file": first["file"], "root": first["root"], "old": first["old"], "new": first["new"],
        "note": args.note,
        "runs": {r["run"]: {"expected": expected_verdict(r),
                            "ours": {"compatible": r["ours"]["compatible"],
                                     "rules": r["ours"]["rules"]},
                            "peer": {"compatible": r["peer"]["compatible"],
                                     "rules": r["peer"]["rules"]} if r["peer"] else None,
                            "adjudication": (r.get("adjudication") or {}).get("key"),
                            **_pending(r)}
                 for r in rows}})
    entries.sort(key=lambda e: (e["format"], e["repo"], e["case"]))
    EXPECTED.write_text(json.dumps(entries, indent=2) + "\n", encoding="utf-8")
    print(f"kept {case}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
