"""Protobuf examples, case by case (example_cases/cases.json): the example each finding gets from
`check --examples` in FULL mode, or the one line saying why it has none; each example is then
decoded anew (runtime_check.py) with descriptors protoc compiles here, not the engine's."""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest

import rules
from bot.render.example import block
from rules.model import Format, Mode, Options, Source
from tests.rules.protobuf.runtime_check import compiled, confirm, message_of, pool_of

HERE = Path(__file__).parent / "example_cases"
CASES = json.loads((HERE / "cases.json").read_text())


@lru_cache(maxsize=None)
def _report(pair: str, categories: str) -> rules.Report:
    old, new = (HERE / f"{pair}_{side}.proto" for side in ("old", "new"))
    options = Options(proto_categories=frozenset(categories.split(",")))
    return rules.check(Source(str(old), old.read_text()), Source(str(new), new.read_text()),
                       format=Format.PROTOBUF, mode=Mode.FULL, options=options, examples=True)


@lru_cache(maxsize=None)
def _pool(pair: str, side: str):
    """The side's descriptors, compiled here by protoc (grpc_tools), apart from the engine."""
    import grpc_tools
    from grpc_tools import protoc
    well_known = Path(grpc_tools.__file__).parent / "_proto"
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "set.pb"
        assert protoc.main(["protoc", f"-I{HERE}", f"-I{well_known}", "--include_imports",
                            f"--descriptor_set_out={out}", str(HERE / f"{pair}_{side}.proto")]) == 0
        files = compiled(out.read_bytes())
    return pool_of(files), files[-1].package


def finding_json(pair, categories, rule, path) -> dict:
    (finding,) = [f for f in _report(pair, categories).findings if (f.rule, f.path) == (rule, path)]
    return finding.example.to_json()


def _finding(case):
    report = _report(case["pair"], case["categories"])
    (finding,) = [f for f in report.findings if (f.rule, f.path) == (case["rule"], case["path"])]
    return report, finding


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['pair']}-{c['categories']}-{c['rule']}-{c['path']}")
def test_each_finding_gets_its_own_example_or_says_why(case):
    report, finding = _finding(case)
    if "why" in case:
        assert finding.example is None and finding.example_why == case["why"]
        assert not any(f"{case['rule']} at " in note for note in report.notes)  # not counted missing
        return
    if "none" in case:  # the runtime shows no break: no example, and the notes count it
        assert finding.example is None and finding.example_why is None
        assert any(n.startswith("examples_missing") and f"{case['rule']} at " in n for n in report.notes)
        return
    shown = finding.example.to_json()
    assert shown | case["example"] == shown, shown
    assert (shown["reader_error"] or "").startswith(case.get("error_starts", ""))


@pytest.mark.parametrize("case", [c for c in CASES if "example" in c],
                         ids=lambda c: f"{c['pair']}-{c['categories']}-{c['rule']}-{c['path']}")
def test_each_example_is_proven_by_the_runtime(case):
    _, finding = _finding(case)
    example = finding.example.to_json()
    writer, reader = ("old", "new") if example["written_with"] == "old" else ("new", "old")
    (writer_pool, package), (reader_pool, theirs) = _pool(case["pair"], writer), _pool(case["pair"], reader)
    mine = message_of(writer_pool, package, case["path"])
    other = reader_pool.FindMessageTypeByName(mine.full_name.replace(package, theirs, 1))
    assert confirm(example, case["path"], mine, other) is None


@pytest.mark.parametrize("forged", [
    {"payload": {"age": 1}, "changed": ["$.age"]},  # another field's break
    {"payload": {"name": "x"}, "changed": ["$.name"], "binary": "EAE="},  # bytes of another message
    {"payload": {"email": "x"}, "changed": ["$.email"]},  # binary reads a rename the same
])
def test_the_runtime_check_rejects_a_forged_example(forged):
    """The check is no rubber stamp: an example of another finding, or a false one, fails it."""
    case = CASES[0]
    _, finding = _finding(case)
    example = finding.example.to_json() | forged
    (old_pool, package), (new_pool, _) = _pool("users", "old"), _pool("users", "new")
    mine = message_of(old_pool, package, "User.name")
    if "email" in forged["payload"]:
        assert confirm(example | {"binary": "IgF4"}, "User.mail", mine,
                       new_pool.FindMessageTypeByName("demo.User")) is not None
        return
    assert confirm(example, "User.name", mine, new_pool.FindMessageTypeByName("demo.User")) is not None


@pytest.mark.parametrize("forged, why", [
    ({"binary": "CgF4", "payload": {"text": "x"}}, "the reader decodes the bytes"),  # valid UTF-8
    ({"binary": "CgH/", "payload": {"text": "x"}}, "the bytes are not the payload's message"),
    ({"binary": "KgH/", "payload": {"text": "\ufffd"}}, "the writer cannot read the bytes"),  # title
])
def test_the_runtime_check_rejects_a_forged_utf8_example(forged, why):
    """U+FFFD in a payload stands for bytes that are not UTF-8 only where the bytes hold them."""
    example = finding_json("utf8", "WIRE,WIRE_JSON", "PROTO_FIELD_UTF8_VALIDATION_CHANGED", "Note.text")
    (old_pool, package), (new_pool, _) = _pool("utf8", "old"), _pool("utf8", "new")
    mine = message_of(old_pool, package, "Note.text")
    assert confirm(example, "Note.text", mine, new_pool.FindMessageTypeByName("demo.utf8.Note")) is None
    assert confirm(example | forged, "Note.text", mine,
                   new_pool.FindMessageTypeByName("demo.utf8.Note")) == why


def test_the_cli_prints_the_example_and_the_reason_for_none():
    old, new = str(HERE / "users_old.proto"), str(HERE / "users_new.proto")
    run = [sys.executable, "-m", "rules", "check", old, new, "--examples", "--mode", "full"]
    text = subprocess.run(run, capture_output=True, text=True, timeout=120).stdout
    assert ('  example: written with old, read with new: {"name": "x"}\n'
            "    as binary (base64): CgF4\n"
            "    the reader sees different values at: $.name\n"
            '    the reader reads {"name": 0}; unknown to it: field 1 (length-delimited)\n') in text
    assert "Traceback" not in text
    wire = subprocess.run(run + ["--categories", "WIRE"], capture_output=True, text=True, timeout=120)
    assert ("  example: none: the binary form decodes unchanged (the reader keeps the field aside "
            "as unknown) and JSON, where the name would be rejected, is not checked") in wire.stdout
    assert "Traceback" not in wire.stdout + wire.stderr
    # --json, through the worker process's wire format like the App's: nothing lost on the way.
    answer = subprocess.run(run + ["--categories", "WIRE", "--json"], capture_output=True, text=True,
                            timeout=120)
    found = {(f["rule"], f["path"]): f for f in json.loads(answer.stdout)["findings"]}
    assert found[("PROTO_FIELD_DELETED_NOT_RESERVED", "User.nick")]["example_why"].startswith(
        "the binary form decodes unchanged")
    assert found[("PROTO_FIELD_TYPE_INCOMPATIBLE", "User.name")]["example"] == \
        finding_json("users", "WIRE,WIRE_JSON", "PROTO_FIELD_TYPE_INCOMPATIBLE", "User.name")


def test_the_review_shows_the_bytes_and_the_readers_view_escaped():
    _, finding = _finding(CASES[0])
    shown = block(finding.example, Format.PROTOBUF)
    assert "As protobuf binary (base64): `CgF4`" in shown
    assert ('reads different values at `$.name`. '
            '`the reader reads {"name": 0}; unknown to it: field 1 (length-delimited)`') in shown
    _, none = _finding(next(c for c in CASES if "why" in c))
    assert block(none.example, Format.PROTOBUF, none.example_why).startswith("No example: the binary form")
    # The line is prose from the engine, escaped all the same (no HTML, mention or markup).
    assert block(None, Format.PROTOBUF, "<b>@team *x*</b>") == \
        "No example: &lt;b&gt;@\u200bteam \\*x\\*&lt;/b&gt;"


def test_a_long_binary_message_is_cut_like_the_payload():
    from rules.examples.text import MAX_PAYLOAD_CHARS, lines
    from rules.model import Example, Outcome, Side
    long = Example(Side.OLD, {"a": 1}, Outcome.CHANGED, changed=("$.a",), encoding="binary",
                   binary="A" * 5000, read="the reader reads {}")
    shown = block(long, Format.PROTOBUF)
    assert "A" * 4001 not in shown and "(1,000 more characters not shown)" in shown
    assert max(len(line) for line in lines(long)) <= MAX_PAYLOAD_CHARS + 30
