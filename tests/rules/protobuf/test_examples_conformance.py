"""Protobuf examples on Confluent Schema Registry's diff examples, proven by the runtime.

Each case is checked in FULL mode with the default categories (WIRE_JSON) and examples; every
example is decoded anew (runtime_check.py) with descriptors compiled here by protoc, apart from
the engine's, and at least 95 % of the breaking errors a record can show carry one. The data
is read from ../shared (skipped with the usual reason when it is absent, as in
test_conformance.py, whose case loading this reuses).
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

import rules
from rules.examples import NOT_A_READ_FAILURE
from rules.model import Mode, Options, SchemaError, Severity
from tests.rules.protobuf import test_conformance as confluent
from tests.rules.protobuf.runtime_check import compiled, confirm, counterpart, message_of, pool_of
from tests.rules.protobuf.support import BOTH

WANTED_SHARE = 0.95


def _report(case) -> rules.Report:
    old = confluent._schema(case["original_schema"], case.get("original_dependencies", []), "original")
    new = confluent._schema(case["update_schema"], case.get("update_dependencies", []), "update")
    return rules.check(old, new, format=rules.Format.PROTOBUF, mode=Mode.FULL, examples=True,
                       options=Options(proto_categories=BOTH))


def _pool(source):
    """The side's descriptors, compiled by protoc (grpc_tools) here with its imports."""
    from grpc_tools import protoc
    import grpc_tools
    include = Path(grpc_tools.__file__).parent / "_proto"
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        for name, text in {**source.imports, "main_under_test.proto": source.text}.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        out = root / "set.pb"
        assert protoc.main(["protoc", f"-I{root}", f"-I{include}", "--include_imports",
                            f"--descriptor_set_out={out}", str(root / "main_under_test.proto")]) == 0
        files = compiled(out.read_bytes())
    return pool_of(files), files[-1].package, [f.package for f in files]


@pytest.fixture(scope="module")
def checked():
    out = []
    for name, case in confluent.CASES:
        if case.get("compatible", True):
            continue
        try:
            report = _report(case)
        except SchemaError:
            continue
        out.append((name, case, report))
    return out


def _breaking(report):
    return [f for f in report.findings if f.severity is Severity.ERROR
            and (f.breaks or frozenset()) & report.mode.directions]


def test_confluent_examples_are_proven_by_the_runtime(checked):
    failures, proven = [], 0
    for name, case, report in checked:
        for finding in _breaking(report):
            if not finding.example:
                continue
            example = finding.example.to_json()
            sides = {"old": ("original_schema", "original_dependencies", "original"),
                     "new": ("update_schema", "update_dependencies", "update")}
            writer = "old" if example["written_with"] == "old" else "new"
            reader = "new" if writer == "old" else "old"
            pools = {}
            for side in (writer, reader):
                key, deps, label = sides[side]
                pools[side] = _pool(confluent._schema(case[key], case.get(deps, []), label))
            (writer_pool, package, mine_all), (reader_pool, _, theirs_all) = pools[writer], pools[reader]
            try:
                mine = message_of(writer_pool, package, finding.path, mine_all)
                other = counterpart(reader_pool, mine, theirs_all)
            except (KeyError, LookupError) as error:
                failures.append((name, case["description"], finding.rule, f"no message: {error}"))
                continue
            why = confirm(example, finding.path, mine, other)
            if why:
                failures.append((name, case["description"], finding.rule, finding.path, why))
            else:
                proven += 1
    assert not failures, "\n".join(map(str, failures))
    assert proven


def test_confluent_breaking_errors_carry_an_example(checked):
    showable = [(case["description"], f) for _, case, report in checked for f in _breaking(report)
                if f.rule not in NOT_A_READ_FAILURE and f.example_why is None]
    missing = [(d, f.rule, f.path) for d, f in showable if not f.example]
    assert 1 - len(missing) / len(showable) >= WANTED_SHARE, missing
