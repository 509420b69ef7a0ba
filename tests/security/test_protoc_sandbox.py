"""Attack 1: a pull request must not run commands through protoc or read the App's secrets.

The runner itself (rules/sandbox.py), the engine entry the App uses (rules.check with the
pull request's files as imports), and the real App under gunicorn against the emulator.
"""
from __future__ import annotations

import itertools
import json
import os
import stat
import sys
import time
from pathlib import Path

import pytest

from rules import SchemaError, Source, check, sandbox
from tests.harness.flow import completed_run, settle
from tests.harness.server import SECRET, app_env, gunicorn

CANARY = "canary-" + os.urandom(6).hex()  # in the App's environment; must never be posted
GOOD = 'syntax = "proto3";\nmessage M {\n  int32 a = 1;\n}\n'
_names = itertools.count()


def _plugin(folder: Path, marker: Path) -> Path:
    """A stand-in for any executable on the host (/bin/sh in the real attack): it leaves a
    marker and prints the environment to stderr, which protoc passes on."""
    script = folder / f"plugin-{next(_names)}.sh"
    script.write_text(f"#!/bin/sh\ntouch '{marker}'\nenv >&2\necho \"leak:$SCHEMA_REVIEW_CANARY\" >&2\nexit 1\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def _args(plugin: Path, style: int) -> str:
    """protoc arguments, one a line (an @file), in a few spellings."""
    lines = [[f"--plugin=protoc-gen-x={plugin}", "--x_out=.", "imp.proto"],
             [f"--plugin=protoc-gen-evil={plugin}", "--evil_out=opt:.", "imp.proto"],
             ["--error_format=gcc", f"--plugin=protoc-gen-y={plugin}", "--y_out=out", "imp.proto"]]
    return "\n".join(lines[style]) + "\n"


IMP = 'syntax = "proto3";\n// x\n// touch /tmp/pwned\nmessage Imp { int32 a = 1; }\n'


# --- the runner ----------------------------------------------------------------------------

def test_the_child_environment_is_minimal_and_holds_no_secret(monkeypatch):
    monkeypatch.setenv("GITHUB_WEBHOOK_SECRET", CANARY)
    monkeypatch.setenv("SCHEMA_REVIEW_CANARY", CANARY)
    outcome = sandbox.run(sandbox.python(
        "import os, sys; sys.stderr.write(repr(sorted(os.environ.items())))"))
    assert outcome.code == 0
    shown = outcome.output.decode()
    assert CANARY not in shown
    assert eval(shown) == sorted(sandbox.ENVIRONMENT.items())  # noqa: S307 (our own child's repr)


def test_a_child_without_site_imports_from_this_process_path_only():
    code = ("import sys, grpc_tools; sys.stderr.write(repr(['site' in sys.modules, "
            "any(p.endswith('site-packages') for p in sys.path)]))")
    with_site, without = (sandbox.run(sandbox.python(code, site=site)) for site in (True, False))
    assert (with_site.code, without.code) == (0, 0)
    assert eval(with_site.output) == [True, True]  # noqa: S307 (our own child's repr)
    assert eval(without.output) == [False, True]  # noqa: S307 (the parent's, passed in)


@pytest.mark.parametrize("limits, code, check_outcome", [
    # address space: a 1 GiB allocation under a 256 MiB limit fails in the child
    (sandbox.Limits(memory_bytes=256 << 20), "b = bytearray(1 << 30)",
     lambda o: o.code != 0 and b"MemoryError" in o.output),
    # CPU: a busy loop is stopped by RLIMIT_CPU (SIGXCPU), not by the wall clock
    (sandbox.Limits(cpu_seconds=1, wall_seconds=60), "while True: pass",
     lambda o: o.cpu_exceeded and not o.timed_out),
    # wall clock: a sleeper is killed when its time is up
    (sandbox.Limits(wall_seconds=1), "import time; time.sleep(120)",
     lambda o: o.timed_out and o.code == -9),
    # file size: writing past RLIMIT_FSIZE stops the child
    (sandbox.Limits(file_bytes=1 << 20), "open('big', 'wb').write(b'x' * (8 << 20))",
     lambda o: o.file_too_large or (o.code != 0 and b"File too large" in o.output)),
    # output: what comes back is capped
    (sandbox.Limits(output_bytes=1000), "import sys; sys.stderr.write('e' * 100000)",
     lambda o: o.code == 0 and o.output == b"e" * 1000),
    # priority: the comparison workers' batch work yields the CPU (nice value raised, capped at 19)
    (sandbox.Limits(niceness=7), "import os, sys; sys.stderr.write(str(os.nice(0)))",
     lambda o: o.code == 0 and o.output == str(min(os.nice(0) + 7, 19)).encode()),
])
def test_limits_stop_the_child(tmp_path, limits, code, check_outcome):
    started = time.monotonic()
    outcome = sandbox.run(sandbox.python(code), cwd=str(tmp_path), limits=limits)
    assert check_outcome(outcome), outcome
    assert time.monotonic() - started < 30


def test_a_killed_child_takes_what_it_started_with_it(tmp_path):
    pidfile = tmp_path / "grandchild"
    code = ("import subprocess, sys, time; p = subprocess.Popen([sys.executable, '-c', "
            "'import time; time.sleep(120)']); open(sys.argv[1], 'w').write(str(p.pid)); "
            "time.sleep(120)")
    outcome = sandbox.run(sandbox.python(code, str(pidfile)),
                          limits=sandbox.Limits(wall_seconds=3, processes=None))
    assert outcome.timed_out
    grandchild = int(pidfile.read_text())
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _running(grandchild):
        time.sleep(0.05)
    assert not _running(grandchild)


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


# --- the engine, as the App calls it ---------------------------------------------------------

@pytest.mark.parametrize("name, response_file, style", [
    ("@args.proto", "args.proto", 0),
    ("@opts.proto", "opts.proto", 1),
    ("@x.proto", "x.proto", 2),
])
def test_an_argument_file_name_runs_nothing(tmp_path, monkeypatch, name, response_file, style):
    monkeypatch.setenv("SCHEMA_REVIEW_CANARY", CANARY)
    marker = tmp_path / "ran"
    head = f'syntax = "proto3";\nimport "{response_file}";\nimport "imp.proto";\nmessage M {{ Imp i = 1; }}\n'
    imports = {response_file: _args(_plugin(tmp_path, marker), style), "imp.proto": IMP}
    with pytest.raises(SchemaError) as caught:
        check(Source(name, GOOD), Source(name, head, imports=imports))
    assert not marker.exists()
    assert CANARY not in caught.value.problem and "leak:" not in caught.value.problem
    assert "'@'" in caught.value.problem


@pytest.mark.parametrize("name", ["-I.proto", "--plugin=protoc-gen-x=sh.proto", "-o.proto"])
def test_a_name_that_reads_as_an_option_is_refused(name):
    with pytest.raises(SchemaError) as caught:
        check(Source(name, GOOD), Source(name, GOOD))
    assert "'-'" in caught.value.problem and "starting with" in caught.value.problem


@pytest.mark.parametrize("imported", ["@more.proto", "deps/-x.proto", "a/@b/c.proto"])
def test_an_import_path_that_reads_as_an_option_is_refused(imported):
    head = f'syntax = "proto3";\nimport "{imported}";\nmessage M {{ int32 a = 1; }}\n'
    with pytest.raises(SchemaError, match="starting with"):
        check(Source("m.proto", GOOD), Source("m.proto", head, imports={imported: GOOD}))


@pytest.mark.parametrize("broken", [
    'syntax = "proto3";\nmessage B { int32 y = 1 }\n',  # an error in the import
    'syntax = "proto3";\nmessage B { Missing y = 1; }\n',
])
def test_protoc_messages_name_the_users_files_not_the_scratch_tree(broken):
    head = 'syntax = "proto3";\nimport "acme/b.proto";\nmessage M { int32 a = 1; }\n'
    with pytest.raises(SchemaError) as caught:
        check(Source("schemas/m.proto", GOOD),
              Source("schemas/m.proto", head, imports={"acme/b.proto": broken}))
    problem = caught.value.problem
    assert "acme/b.proto" in problem
    for leak in ("/tmp", "schema-review-proto-", "f0000", "../r", "wkt", sys.prefix):
        assert leak not in problem, problem


def test_an_error_in_the_file_itself_keeps_its_line_and_name():
    with pytest.raises(SchemaError) as caught:
        check(Source("x/order.proto", GOOD),
              Source("x/order.proto", 'syntax = "proto3";\nmessage M {\n  int32 a = 1\n}\n'))
    assert caught.value.line == 4 and "f0000" not in caught.value.problem


# --- the real App ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def app_process(emulator, tmp_path_factory):
    folder = tmp_path_factory.mktemp("app")
    env = app_env(emulator, folder, SCHEMA_REVIEW_CANARY=CANARY)
    process, url = gunicorn(env, folder / "gunicorn.log")
    yield process, url
    process.stop()


@pytest.mark.parametrize("folder, name, style", [("protos", "@args", 0), ("", "@p", 1)])
def test_a_pull_request_cannot_run_a_plugin_on_the_app(github, app_url, tmp_path, folder, name,
                                                       style):
    marker = tmp_path / "ran"
    prefix = f"{folder}/" if folder else ""
    response = f"{name[1:]}.proto"
    head = {f"{prefix}{name}.proto": (f'syntax = "proto3";\nimport "{response}";\n'
                                      f'import "imp.proto";\nmessage M {{ Imp i = 1; }}\n'),
            f"{prefix}{response}": _args(_plugin(tmp_path, marker), style),
            f"{prefix}imp.proto": IMP}
    repo = github.create_repo("acme", f"protoc-{next(_names)}", {"README.md": "contracts\n"})
    repo.commit("feature", head, "Add protos", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Add protos")
    response_ = github.deliver(app_url + "/webhook", "pull_request",
                               github.pull_request_event("opened", pull), SECRET)
    assert response_.status_code == 202
    run = completed_run(github, repo, pull.head_sha, timeout=90)
    settle(github)
    assert not marker.exists()
    assert run.conclusion == "failure"
    assert f"{name}.proto" in json.dumps(run.output)
    posted = json.dumps([call.json for call in github.calls if call.method != "GET"])
    for secret in (CANARY, SECRET, "leak:", "GITHUB_PRIVATE_KEY", "schema-review-proto-"):
        assert secret not in posted
