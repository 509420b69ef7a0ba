"""Protobuf examples proven by the protobuf runtime, independently of the example builder.

A seeded sample of breaking .proto pairs (the differential test's single mutations, plus pairs
of two mutations at once, where each finding's example must still be about its own change) is
checked in FULL mode with examples, under WIRE_JSON. Every example is decoded anew
(runtime_check.py: the example's bytes or JSON, message classes built here from protoc's
output) and must show its break; at least 95 % of the breaking errors that a record can show
must carry one. protoc runs twice for the whole sample (every old file, then every new one),
not twice per pair: the engine's own compile step is replaced by a lookup of those results.
"""
from __future__ import annotations

import copy
import random
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path

import importlib

import pytest
from grpc_tools import protoc

import rules
from rules.examples import NOT_A_READ_FAILURE
from rules.model import Format, Mode, SchemaError, Severity, Source
from tests.rules.protobuf import mutations
from tests.rules.protobuf.runtime_check import compiled, confirm, message_of, pool_of

SEED, SINGLES, PAIRS = 20261203, 150, 150
WANTED_PAIRS, WANTED_SHARE = 200, 0.95
GENERATED = "f0000.proto"  # the name the engine compiles a lone file under


def _pairs() -> list[mutations.Mutation]:
    """Single mutations, then two at once on one base (proto3 or proto2), packages unique."""
    out = [replace(m, old=m.old.replace("package diff.m", "package diff.s"),
                   new=m.new.replace("package diff.m", "package diff.s"))
           for m in mutations.generate(SINGLES, SEED)]
    rng = random.Random(SEED)
    while len(out) < SINGLES + PAIRS:
        syntax = rng.choice(["proto3", "proto3", "proto2"])
        kinds = mutations.PROTO3 + (mutations.PROTO2 if syntax == "proto2" else [])
        old = mutations.base(syntax)
        old.package = f"diff.c{len(out):03d}"
        new = copy.deepcopy(old)
        picked = rng.sample(kinds, 2)
        try:
            for mutate in picked:
                mutate(new, rng)
        except (StopIteration, ValueError, IndexError):  # the first change left nothing to change
            continue
        if syntax == "proto2":  # as one would write the combined change in proto2
            for f in new.fields:
                f.label = "" if f.oneof else (f.label or ("" if f.kind.startswith("map") else "optional"))
                if f.label == "repeated" and "default" in f.options:
                    f.options = ""
        name = "+".join(m.__name__ for m in picked)
        out.append(mutations.Mutation(f"c{len(out):03d}_{name}", name, old.render(), new.render()))
    return out


def _compile_all(texts: list[str]) -> dict[str, object]:
    """text -> its FileDescriptorProto (named as the engine names it), by one protoc run (the
    texts must not define the same names); a text protoc refuses is left out."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        names = {}
        for index, text in enumerate(dict.fromkeys(texts)):
            (root / f"p{index:04d}.proto").write_text(text)
            names[f"p{index:04d}.proto"] = text
        out = root / "set.pb"
        if _protoc(root, names, out) != 0:  # some refused: find them by halves, compile the rest
            kept = _compiling(root, list(names))
            names = {n: names[n] for n in kept}
            assert _protoc(root, names, out) == 0
        files = compiled(out.read_bytes()) if names else []
    result = {}
    for proto in files:
        text = names[proto.name]
        proto.name = GENERATED
        result[text] = proto
    return result


def _compiling(root: Path, names: list[str]) -> list[str]:
    if _protoc(root, names, root / "part.pb") == 0:
        return names
    if len(names) == 1:
        return []
    half = len(names) // 2
    return _compiling(root, names[:half]) + _compiling(root, names[half:])


def _protoc(root: Path, names, out: Path) -> int:
    return protoc.main(["protoc", f"-I{root}", "--include_source_info",
                        f"--descriptor_set_out={out}", *(str(root / n) for n in names)])


class _Compiled:
    """Stands in for the engine's protoc run: the descriptor compiled with the whole batch."""

    done: dict = {}

    def __init__(self, source: Source):
        self.name = GENERATED
        self._proto = self.done.get(source.text)
        self.files: dict = {}  # no import paths: imported types stay on the using field

    def result(self) -> bytes:
        from google.protobuf import descriptor_pb2
        if self._proto is None:
            raise SchemaError("schema.proto", None, "not compiled")
        return descriptor_pb2.FileDescriptorSet(file=[self._proto]).SerializeToString()

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def sample():
    return checked_sample()


def checked_sample() -> list[tuple[mutations.Mutation, rules.Report]]:
    """Every pair protoc compiles, with its FULL-mode report (examples on)."""
    pairs = _pairs()
    # Each side in its own run: a pair's two versions declare the same names.
    _Compiled.done = {**_compile_all([m.old for m in pairs]), **_compile_all([m.new for m in pairs])}
    patch = pytest.MonkeyPatch()
    patch.setattr(importlib.import_module("rules.protobuf.parse"), "Compilation", _Compiled)
    try:
        checked = []
        for pair in pairs:
            if pair.old not in _Compiled.done or pair.new not in _Compiled.done:
                continue
            report = rules.check(Source("old.proto", pair.old), Source("new.proto", pair.new),
                                 format=Format.PROTOBUF, mode=Mode.FULL, examples=True)
            checked.append((pair, report))
    finally:
        patch.undo()
    return checked


def _breaking(report):
    return [f for f in report.findings if f.severity is Severity.ERROR
            and (f.breaks or frozenset()) & report.mode.directions]


def _showable(finding) -> bool:
    """A breaking error that a record can show (none says why it cannot)."""
    return finding.rule not in NOT_A_READ_FAILURE and finding.example_why is None


def test_the_sample_has_enough_breaking_pairs(sample):
    breaking = [pair for pair, report in sample if _breaking(report)]
    assert len(breaking) >= WANTED_PAIRS, len(breaking)


def test_every_example_is_proven_by_the_runtime(sample):
    failures, proven = [], Counter()
    for pair, report in sample:
        for finding in _breaking(report):
            if not finding.example:
                continue
            example = finding.example.to_json()
            writer, reader = (pair.old, pair.new) if example["written_with"] == "old" else (pair.new, pair.old)
            writer_pool, reader_pool = pool_of([_Compiled.done[writer]]), pool_of([_Compiled.done[reader]])
            package = _Compiled.done[writer].package
            try:
                mine = message_of(writer_pool, package, finding.path)
                theirs = reader_pool.FindMessageTypeByName(
                    mine.full_name.replace(package, _Compiled.done[reader].package, 1))
            except (KeyError, LookupError) as error:
                failures.append((pair.name, finding.rule, finding.path, f"no message: {error}"))
                continue
            why = confirm(example, finding.path, mine, theirs)
            if why:
                failures.append((pair.name, finding.rule, finding.path, why, example))
            else:
                proven[example.get("encoding")] += 1
    assert not failures, "\n".join(map(str, failures))
    assert proven["binary"] and proven["json"]


def test_breaking_errors_carry_an_example(sample):
    showable = [(pair.name, f) for pair, report in sample for f in _breaking(report) if _showable(f)]
    missing = [(name, f.rule, f.path) for name, f in showable if not f.example]
    share = 1 - len(missing) / len(showable)
    assert share >= WANTED_SHARE, (share, missing)
