"""How many breaking errors come with a verified example, on the differential samples.

    python bench/examples_share.py [--avro 400] [--proto 70] [--jsonschema]

Avro: the seeded pairs of tests/rules/avro/test_differential.py (full mode); Protobuf: the
seeded mutations of tests/rules/protobuf/test_differential.py (full mode, WIRE_JSON); JSON
Schema: Confluent's diff examples (tests/rules/jsonschema/test_conformance.py, backward mode,
both policies). Prints, per format, the share of error findings in a breaking direction that
have an example, the rules listed as not read failures, and every finding without an example.
A report, never asserted in tests.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules  # noqa: E402
from rules.examples import NOT_A_READ_FAILURE  # noqa: E402
from rules.model import Format, Mode, Options, Policy, Severity, Source  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "conformance" / "jsonschema"
# Findings the search leaves without an example, each judged by hand: (rule, where prefix) -> why.
ADJUDICATED = {
    ("JSONSCHEMA_TYPE_CHANGED", "diff-schema-examples.json#51 "): "false alarm: an object holding "
        "\"foo\" must also be a string (old) or a number (new), so neither version accepts one; "
        "both accept exactly the same instances",
    ("JSONSCHEMA_TYPE_CHANGED", "normalized/diff-schema-examples-2020-12.json#53 "): "as #51",
    ("JSONSCHEMA_DEPENDENCY_ADDED", "diff-schema-examples.json#52 lenient"): "false alarm under "
        "lenient: only an object with the undeclared \"bar\" breaks, which lenient writers never "
        "write (strict: shown)",
    ("JSONSCHEMA_DEPENDENCY_ADDED", "normalized/diff-schema-examples-2020-12.json#54 lenient"): "as #52",
    ("JSONSCHEMA_CONSTRAINT_TIGHTENED", "diff-schema-examples.json#58 lenient"): "false alarm under "
        "lenient: with no declared property a lenient writer writes only {}, which maxProperties 1 "
        "accepts (strict: shown)",
    ("JSONSCHEMA_CONSTRAINT_TIGHTENED", "normalized/diff-schema-examples-2020-12.json#60 lenient"): "as #58",
    ("JSONSCHEMA_CONSTRAINT_TIGHTENED", "diff-schema-examples.json#60 lenient"): "false alarm under "
        "lenient: the old schema rejects {}, the only object a lenient writer can write; non-objects "
        "pass both (strict: shown)",
    ("JSONSCHEMA_CONSTRAINT_TIGHTENED", "normalized/diff-schema-examples-2020-12.json#62 lenient"): "as #60",
}
JSON_FILES = ("diff-schema-examples.json", "normalized/diff-schema-examples-2020-12.json",
              "diff-combined-schema-examples.json", "diff-combined-schema-examples-2020-12.json")


def _full(fmt: Format, old: str, new: str) -> rules.Report:
    return rules.check(Source("old", old), Source("new", new), format=fmt, mode=Mode.FULL,
                       examples=True)


def _avro(count: int):
    from tests.rules.avro.mutations import pairs
    for index, (old, new, applied) in enumerate(pairs(20240611, count)):
        yield f"avro#{index} {'+'.join(applied)}", _full(Format.AVRO, json.dumps(old), json.dumps(new))


def _protobuf(count: int):
    from tests.rules.protobuf.mutations import generate
    for mutation in generate(count, 20240611):
        yield f"proto {mutation.name}", _full(Format.PROTOBUF, mutation.old, mutation.new)


def _jsonschema():
    for name in JSON_FILES:
        for index, case in enumerate(json.loads((SHARED / name).read_text())):
            for policy in Policy:
                old = Source("old.json", json.dumps(case["original_schema"], indent=2))
                new = Source("new.json", json.dumps(case["update_schema"], indent=2))
                report = rules.check(old, new, format=Format.JSONSCHEMA, mode=Mode.BACKWARD,
                                     options=Options(policy=policy), examples=True)
                yield f"{name}#{index} {policy.value} ({case.get('description', '')})", report


def _tally(label: str, reports) -> None:
    shown, listed, missing = Counter(), Counter(), []
    started = time.monotonic()
    for where, report in reports:
        for f in report.findings:
            if f.severity is not Severity.ERROR or not (f.breaks or frozenset()) & report.mode.directions:
                continue
            if f.rule in NOT_A_READ_FAILURE or f.example_why:  # no record can show it: says why
                listed[f.rule] += 1
            elif f.example is not None:
                shown[f.rule] += 1
            else:
                missing.append((where, f.rule, f.path))
    searched = sum(shown.values()) + len(missing)
    share = 100 * sum(shown.values()) / searched if searched else 100.0
    print(f"\n== {label}: {sum(shown.values())}/{searched} breaking errors with an example "
          f"({share:.1f} %), {sum(listed.values())} not read failures, "
          f"{time.monotonic() - started:.1f} s")
    for rule, count in sorted(listed.items()):
        print(f"   listed   {count:4d} {rule}")
    for rule, count in sorted(shown.items()):
        print(f"   shown    {count:4d} {rule}")
    for where, rule, path in missing:
        why = next((v for (r, w), v in ADJUDICATED.items() if r == rule and where.startswith(w)),
                   "NOT ADJUDICATED: a search gap or a false alarm to look into")
        print(f"   missing  {rule} {path}  [{where}]\n            {why}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--avro", type=int, default=400)
    parser.add_argument("--proto", type=int, default=70)
    args = parser.parse_args(argv)
    _tally("Avro", _avro(args.avro))
    _tally("Protobuf", _protobuf(args.proto))
    _tally("JSON Schema", _jsonschema())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
