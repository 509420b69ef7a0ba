"""Attack 2: a schema that makes the rule engine backtrack for minutes must not stall the App.

Each file's review runs in a sandboxed worker process with a wall-clock budget; past it the
worker is killed and the file fails the check. A job whose worker keeps dying is concluded.
"""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import pytest
import requests
from huey import MemoryHuey

from bot.ambient.jobs import Job
from bot.queue.giveup import give_up
from bot.queue.leases import Leases
from bot.queue.ledger import Ledger
from bot.queue.maintenance import recover_orphans
from bot.queue.runner import Interrupted, Runner
from rules import (Mode, Options, OverBudget, Policy, SchemaError, Severity, Source, budget,
                   check, limits)
from tests.harness.flow import completed_run, settle
from tests.harness.server import SECRET, app_env, gunicorn

BUDGET = 3  # seconds, for the App under test
_names = itertools.count()

# (pattern, a property name it backtracks on exponentially): several shapes and sizes.
REDOS = [
    ("^(a+)+$", "a" * 40 + "!"),
    ("^(a|a)*$", "a" * 38 + "b"),
    ("^(a|aa)+$", "a" * 90 + "c"),
    ("^(\\w+\\s?)*$", "word" * 12 + "!"),
    ("(x+x+)+y", "x" * 36),
]


def schema(pattern: str, names: list[str]) -> str:
    return json.dumps({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                       "patternProperties": {pattern: {"type": "string"}},
                       "properties": {name: {"type": "integer"} for name in names}}, indent=2)


# --- the budgeted engine ------------------------------------------------------------------

@pytest.fixture(scope="module")
def pool():
    made = budget.Pool(seconds=2)
    yield made
    made.close()


@pytest.mark.parametrize("pattern, name", REDOS)
def test_a_backtracking_pattern_is_stopped_at_the_budget(pool, pattern, name):
    started = time.monotonic()
    with pytest.raises(OverBudget, match="could not be reviewed within 2 s"):
        pool.check(Source("s.schema.json", schema(pattern, ["id"])),
                   Source("s.schema.json", schema(pattern, ["id", name])), mode=Mode.BACKWARD)
    assert time.monotonic() - started < 2 + 15  # the budget, plus a loaded machine's slack
    # The pool goes on: the next file is reviewed by a fresh worker.
    report = pool.check(Source("s.schema.json", schema("^x$", ["id"])),
                        Source("s.schema.json", schema("^x$", ["id", "n"])))
    assert report.mode is Mode.BACKWARD


AVRO_OLD = json.dumps({"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}]})
AVRO_NEW = json.dumps({"type": "record", "name": "R", "fields": [
    {"name": "a", "type": "long"}, {"name": "b", "type": "int"}]})


@pytest.mark.parametrize("path, old, new", [
    ("r.avsc", AVRO_OLD, AVRO_NEW),
    ("s.schema.json", schema("^x$", ["id", "b\n@team <b> \u2028"]),
     schema("^x$", ["id"]).replace('"integer"', '"string"')),
    ("m.proto", 'syntax = "proto3";\nmessage M {\n  int32 a = 1;\n  string b = 2;\n}\n',
     'syntax = "proto3";\nmessage M {\n  int64 a = 1;\n}\n'),
])
def test_a_file_within_budget_gets_the_engines_own_findings(pool, path, old, new):
    expected = check(Source(path, old), Source(path, new), mode=Mode.FULL)
    assert expected.findings  # the comparison is not vacuous
    assert pool.check(Source(path, old), Source(path, new), mode=Mode.FULL) == expected


@pytest.mark.parametrize("options", [
    Options(), Options(policy=Policy.STRICT, format_assertion=True),
    Options(severities={"JSONSCHEMA_CONSTRAINT_CHANGED": Severity.INFO}),
])
def test_every_option_reaches_the_worker(pool, options):
    old = json.dumps({"type": "object", "properties": {"d": {"type": "string", "format": "date"}}})
    new = json.dumps({"type": "object", "properties": {"d": {"type": "string", "format": "email"},
                                                       "e": {"type": "string"}}})
    expected = check(Source("s.schema.json", old), Source("s.schema.json", new), options=options)
    assert pool.check(Source("s.schema.json", old), Source("s.schema.json", new),
                      options=options) == expected


def test_findings_against_older_versions_keep_naming_them(pool):
    older = Source("r.avsc", AVRO_OLD.replace('"int"', '"string"'))
    expected = check(Source("r.avsc", AVRO_OLD), Source("r.avsc", AVRO_NEW), against=[older],
                     mode=Mode.FULL)
    assert any(f.against for f in expected.findings)
    assert pool.check(Source("r.avsc", AVRO_OLD), Source("r.avsc", AVRO_NEW), against=[older],
                      mode=Mode.FULL) == expected


def test_unusable_input_comes_back_as_the_same_schema_error(pool):
    with pytest.raises(SchemaError) as direct:
        check(Source("r.avsc", AVRO_OLD), Source("r.avsc", "{"))
    with pytest.raises(SchemaError) as pooled:
        pool.check(Source("r.avsc", AVRO_OLD), Source("r.avsc", "{"))
    assert (pooled.value.file, pooled.value.line, pooled.value.problem, pooled.value.side) == \
        (direct.value.file, direct.value.line, direct.value.problem, direct.value.side)


def test_a_worker_that_exhausts_its_memory_fails_the_file_only():
    names = [f"p{i}" for i in range(20000)]
    big = Source("s.schema.json", schema("^x$", names))
    small = budget.Pool(seconds=60, memory_bytes=40 << 20)
    try:
        with pytest.raises(OverBudget, match="could not be reviewed within 40 MiB of memory"):
            small.check(big, big)
    finally:
        small.close()
    roomy = budget.Pool(seconds=60)
    try:
        assert roomy.check(big, big).findings == ()
    finally:
        roomy.close()


def test_the_cli_does_not_hang_on_a_backtracking_pattern(tmp_path):
    pattern, name = REDOS[0]
    (tmp_path / "old.schema.json").write_text(schema(pattern, ["id"]))
    (tmp_path / "new.schema.json").write_text(schema(pattern, ["id", name]))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "rules", "check", "old.schema.json",
                           "new.schema.json"], cwd=tmp_path, capture_output=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "SCHEMA_REVIEW_FILE_BUDGET": "2",
                               "PYTHONPATH": str(__import__("pathlib").Path(__file__).parents[2])})
    # The check ran in a child that its CPU limit ended; the command itself says so, exit 2.
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert b"could not be checked within 2 s of CPU (raise SCHEMA_REVIEW_FILE_BUDGET" in done.stderr
    assert time.monotonic() - started < 300


# (file name, old text, new text): valid schemas the padding below is appended to.
PADDED = [
    ("t.avsc", '{"type":"record","name":"T","fields":[{"name":"x","type":"int"}]}',
     '{"type":"record","name":"T","fields":[{"name":"x","type":"string"}]}'),
    ("t.schema.json", '{"type":"object","properties":{"x":{"type":"integer"}}}',
     '{"type":"object","properties":{"x":{"type":"string"}}}'),
]


@pytest.mark.parametrize("padding", [" ", "\r\n\t "], ids=["spaces", "mixed"])
@pytest.mark.parametrize("name, old, new", PADDED, ids=[case[0] for case in PADDED])
def test_a_valid_file_padded_to_a_megabyte_is_checked_within_the_clis_budget(tmp_path, name, old,
                                                                              new, padding):
    # Whitespace after the value is valid JSON; the line scan once rescanned it from every
    # position (quadratic: a 100 KB file outran 20 s of CPU and was never reviewed).
    (tmp_path / f"old.{name}").write_text(old)
    (tmp_path / f"new.{name}").write_text(new + padding * (1024 * 1024 // len(padding)))
    done = subprocess.run([sys.executable, "-m", "rules", "check", f"old.{name}", f"new.{name}"],
                          cwd=tmp_path, capture_output=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin",
                               "SCHEMA_REVIEW_FILE_BUDGET": str(limits.FILE_BUDGET_SECONDS),
                               "PYTHONPATH": str(__import__("pathlib").Path(__file__).parents[2])})
    # Reviewed: the type change is found at its line (exit 1), not refused as over budget (2).
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert f"new.{name}:1: error".encode() in done.stdout, done.stdout


# --- bounded retries -----------------------------------------------------------------------

def _job(guid="d1"):
    return Job(guid, "pull_request", {
        "action": "synchronize", "installation": {"id": 1}, "repository": {"full_name": "acme/x"},
        "pull_request": {"number": 7, "updated_at": "2024-01-01T00:00:01Z", "head": {"sha": "a" * 40}}})


class _Died(BaseException):
    """Stands for the worker process dying mid-job (a gunicorn timeout, the OOM killer)."""


@pytest.mark.parametrize("limit", [1, 2, 4])
def test_a_job_that_kills_its_worker_is_concluded_after_a_bounded_number_of_tries(limit):
    huey = MemoryHuey(f"t{limit}", results=False)
    ledger, leases = Ledger(huey), Leases(huey, heartbeat=1.0)
    started, given_up, requeued = [], [], []

    def handle(job):
        started.append(job.delivery_id)
        raise _Died

    runner = Runner(ledger, leases, handle, give_up=lambda job, error: given_up.append(error),
                    max_interruptions=limit)
    ledger.admit(_job())
    for round_ in range(limit + 5):
        if ledger.get("d1")["state"] == "done":
            break
        try:
            runner.run("d1", retries_left=3)
        except _Died:
            # The process is gone: its entry still says running, owned by a dead worker.
            ledger.update("d1", owner=f"gone-host:{round_ + 100000}")
        requeued += recover_orphans(ledger, leases, huey, lambda guid: None, now=time.time())
    assert len(started) == limit and len(requeued) == limit
    assert [type(e) for e in given_up] == [Interrupted]
    assert str(limit) in given_up[0].reason
    assert ledger.get("d1")["state"] == "done" and ledger.get("d1")["outcome"] == "failed"
    assert recover_orphans(ledger, leases, huey, lambda guid: None, now=time.time()) == []


def test_a_concluded_job_fails_the_check_and_leaves_a_verdict_alone():
    completed = []

    class Repo:
        def __init__(self, run):
            self.run = run

        def find_check_run(self, sha):
            return self.run

        def start_check_run(self, sha):
            return SimpleNamespace(status="in_progress"), None

        def complete_check_run(self, run, **fields):
            completed.append(fields)

    for run in (None, SimpleNamespace(status="in_progress")):
        give_up(_job(), Interrupted(3), github=SimpleNamespace(repo=lambda *a, run=run: Repo(run)))
    assert [c["conclusion"] for c in completed] == ["failure", "failure"]
    assert completed[0]["title"].startswith("schema-review could not finish: its worker stopped 3 times")
    give_up(_job(), Interrupted(3),
            github=SimpleNamespace(repo=lambda *a: Repo(SimpleNamespace(status="completed"))))
    assert len(completed) == 2


# --- the real App ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def app_process(emulator, tmp_path_factory):
    folder = tmp_path_factory.mktemp("app")
    env = app_env(emulator, folder, SCHEMA_REVIEW_FILE_BUDGET=str(BUDGET))
    process, url = gunicorn(env, folder / "gunicorn.log")
    yield process, url
    process.stop()


class Prober(threading.Thread):
    """GET /healthz in a loop while the review runs; records each answer's latency."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url, self.latencies, self.failures = url, [], []
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                ok = requests.get(self.url + "/healthz", timeout=10).ok
                self.latencies.append(time.monotonic() - started)
                if not ok:
                    self.failures.append("not ok")
            except requests.RequestException as error:
                self.failures.append(type(error).__name__)
            self.stop.wait(0.2)


@pytest.mark.parametrize("pattern, name", [REDOS[0], REDOS[2], REDOS[3]])
def test_a_backtracking_pattern_fails_the_check_and_the_app_keeps_answering(github, app_url,
                                                                            pattern, name):
    base = schema(pattern, ["id"])
    repo = github.create_repo("acme", f"redos-{next(_names)}", {
        "schemas/a.schema.json": base, "schemas/ok.schema.json": schema("^x$", ["id"])})
    repo.commit("feature", {"schemas/a.schema.json": schema(pattern, ["id", name]),
                            "schemas/ok.schema.json": schema("^x$", ["id", "extra"])},
                "Grow the schemas", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Grow the schemas")
    prober = Prober(app_url)
    prober.start()
    try:
        response = github.deliver(app_url + "/webhook", "pull_request",
                                  github.pull_request_event("opened", pull), SECRET)
        assert response.status_code == 202
        run = completed_run(github, repo, pull.head_sha, timeout=BUDGET + 60)
        settle(github)
    finally:
        prober.stop.set()
        prober.join()
    assert run.conclusion == "failure"
    assert f"could not be reviewed within {BUDGET} s" in run.output["summary"] + run.output["text"]
    assert "schemas/a.schema.json" in run.output["summary"] + run.output["text"]
    assert prober.failures == [] and prober.latencies
    assert max(prober.latencies) < 10  # answered while the worker process was stuck
