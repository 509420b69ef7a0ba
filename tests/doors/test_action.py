"""action.yml, run step by step as the Actions runner would, on a real pull request's clone."""
from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.localgit import git, make_repo, write

from .composite import run_action
from .conftest import base_env, offline_pip_env

USER = '{"type": "record", "name": "User", "fields": [\n  {"name": "id", "type": "string"}\n]}\n'
USER_HEAD = USER.replace('"string"}', '"string"},\n  {"name": "level", "type": "int"}')
OPTIONAL = USER.replace('"string"}', '"string"},\n  {"name": "level", "type": ["null", "int"], "default": null}')
ANNOTATION = ("::error file=events/user.avsc,line=3,title=AVRO_FIELD_ADDED_WITHOUT_DEFAULT::"
              "Field \"User.level\" was added without a default.")


MERGE_REF = "refs/pull/7/merge"


def pull_request(origin: Path) -> Path:
    """What GitHub keeps for pull request 7: main moved on after the branch was cut, and the
    test merge of the branch into main's tip is refs/pull/7/merge."""
    git(origin, "checkout", "-q", "main")
    write(origin, {"README.md": "main moved on\n"})
    git(origin, "commit", "-q", "-m", "main moves on")
    git(origin, "merge", "-q", "--no-ff", "-m", "Merge feature into main", "feature")
    git(origin, "update-ref", MERGE_REF, "HEAD")
    git(origin, "reset", "-q", "--hard", "HEAD~1")  # main itself stays where it was
    git(origin, "checkout", "-q", "feature")
    return origin


@pytest.fixture(scope="module")
def origin(tmp_path_factory) -> Path:
    """The repository on GitHub, with a pull request whose branch breaks a schema."""
    return pull_request(make_repo(tmp_path_factory.mktemp("origin") / "origin",
                                  {"events/user.avsc": USER, "README.md": "hi\n"},
                                  {"events/user.avsc": USER_HEAD}))


def checkout(origin: Path, where: Path) -> Path:
    """What actions/checkout does on a pull_request event: the test merge commit, one deep."""
    where.mkdir()
    git(where, "init", "-q")
    git(where, "remote", "add", "origin", f"file://{origin}")
    git(where, "fetch", "-q", "--no-tags", "--depth=1", "origin", f"+{MERGE_REF}:refs/remotes/pull/7/merge")
    git(where, "checkout", "-q", "--force", "refs/remotes/pull/7/merge")
    return where


def event(path: Path, origin: Path, *, pull_request: bool = True) -> Path:
    payload = {"action": "synchronize", "number": 7}
    if pull_request:
        payload["pull_request"] = {"number": 7,
                                   "base": {"ref": "main", "sha": git(origin, "rev-parse", "main")},
                                   "head": {"ref": "feature", "sha": git(origin, "rev-parse", "feature")}}
    path.write_text(json.dumps(payload))
    return path


@pytest.fixture(scope="module")
def installed(project, origin, tmp_path_factory):
    """The whole action, install step included (pip offline), on a shallow pull request clone."""
    tmp = tmp_path_factory.mktemp("installed")
    temp = tmp / "runner-temp"
    temp.mkdir()
    workspace = checkout(origin, tmp / "workspace")
    environ = {**base_env(tmp), **offline_pip_env(), "GITHUB_ACTIONS": "true",
               "GITHUB_EVENT_PATH": str(event(tmp / "event.json", origin)),
               "GITHUB_BASE_REF": "main", "GITHUB_HEAD_REF": "feature"}
    run = run_action(project, workspace=workspace, temp=temp, environ=environ,
                     inputs={"python": sys.executable})
    return {"run": run, "workspace": workspace, "temp": temp, "environ": environ,
            "project": project}


def test_the_action_installs_itself_and_fails_a_breaking_pull_request(installed):
    run, workspace, temp = installed["run"], installed["workspace"], installed["temp"]
    assert run.steps_run == ["Install schema-review", "Review the pull request's schema changes"]
    assert run.code == 1, run.stderr
    assert (temp / "schema-review" / "bin" / "schema-review").exists()
    lines = run.stdout.splitlines()
    assert ANNOTATION in lines[0] and lines[-1].startswith("schema-review: failure: 1 breaking change")
    assert git(workspace, "rev-parse", "--is-shallow-repository") == "false"  # it fetched the base
    assert run.summary.startswith("## schema-review: failure\n\n**1 breaking change in 1 schema file**")
    assert "| **error** | `events/user.avsc:3` | `AVRO_FIELD_ADDED_WITHOUT_DEFAULT` |" in run.summary
    assert run.outputs == {"conclusion": "failure", "errors": "1", "warnings": "0"}


def test_the_installed_command_knows_its_version(installed, project):
    """The version comes from the installed package's metadata: pyproject.toml's, one source."""
    with (project / "pyproject.toml").open("rb") as handle:
        declared = tomllib.load(handle)["project"]["version"]
    done = subprocess.run([str(installed["temp"] / "schema-review" / "bin" / "schema-review"),
                           "--version"], cwd=installed["temp"], env=installed["environ"],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, f"schema-review {declared}\n"), done.stderr


def rerun(installed, tmp_path, origin, *, inputs=None, environ=None):
    """The action again without its install step, with the schema-review installed above."""
    step_temp = tmp_path / "temp"
    step_temp.mkdir()
    venv = installed["temp"] / "schema-review" / "bin"
    env = {**installed["environ"], "PATH": f"{venv}:{installed['environ']['PATH']}",
           **(environ or {})}
    return run_action(installed["project"], workspace=checkout(origin, tmp_path / "ws"),
                      temp=step_temp, environ=env, inputs={"install": "false", **(inputs or {})})


def test_fail_on_never_annotates_but_passes(installed, tmp_path, origin):
    run = rerun(installed, tmp_path, origin, inputs={"fail-on": "never"})
    assert run.code == 0 and ANNOTATION in run.stdout
    assert run.outputs == {"conclusion": "failure", "errors": "1", "warnings": "0"}
    assert run.steps_run == ["Review the pull request's schema changes"]


def test_without_a_pull_request_payload_the_base_ref_is_used(installed, tmp_path, origin):
    environ = {"GITHUB_EVENT_PATH": str(event(tmp_path / "push.json", origin, pull_request=False))}
    run = rerun(installed, tmp_path, origin, environ=environ)
    assert run.code == 1 and ANNOTATION in run.stdout


def test_no_pull_request_at_all_is_a_clear_error(installed, tmp_path, origin):
    environ = {"GITHUB_EVENT_PATH": str(event(tmp_path / "push.json", origin, pull_request=False)),
               "GITHUB_BASE_REF": ""}
    run = rerun(installed, tmp_path, origin, environ=environ)
    assert run.code == 2 and "is not about a pull request" in run.stderr
    assert run.stdout.startswith("::error title=schema-review::schema-review could not run: the event in ")
    assert run.outputs == {"conclusion": "", "errors": "", "warnings": ""}  # not run: not set


def rerun_on(installed, tmp_path, base: dict, head: dict, *, inputs=None):
    """The action on a pull request of its own: `base` on main, `head` on the branch."""
    origin = pull_request(make_repo(tmp_path / "origin", base, head))
    return rerun(installed, tmp_path, origin, inputs=inputs, environ={
        "GITHUB_EVENT_PATH": str(event(tmp_path / "event.json", origin))})


def test_config_input_replaces_the_base_config(installed, tmp_path):
    # adding a field breaks backward readers only
    run = rerun_on(installed, tmp_path, {"events/user.avsc": USER, "ci/forward.yml": "compatibility: forward\n"},
                   {"events/user.avsc": USER_HEAD}, inputs={"config": "ci/forward.yml"})
    assert run.code == 0 and "::error" not in run.stdout, run.stdout + run.stderr
    assert "::notice file=events/user.avsc,line=3,title=AVRO_FIELD_ADDED_WITHOUT_DEFAULT::" in run.stdout


@pytest.mark.parametrize("config", ["ci/review.yml", ".github/schema-review.yml"])
def test_the_pull_request_cannot_switch_its_own_gate_off(installed, tmp_path, config):
    """The config (the input's file or the default one) is read at the base commit: the checked-out
    pull request edits it to review no Avro file, and the breaking change still fails."""
    inputs = {"config": config} if config != ".github/schema-review.yml" else {}
    run = rerun_on(installed, tmp_path, {"events/user.avsc": USER, config: "compatibility: backward\n"},
                   {"events/user.avsc": USER_HEAD, config: "paths:\n  avro: []\n"}, inputs=inputs)
    assert run.code == 1, run.stdout + run.stderr
    assert ANNOTATION in run.stdout


def test_an_extends_base_it_cannot_read_stops_the_step(installed, tmp_path):
    """`_extends` names another repository's file, which the checkout lacks: refused, not dropped."""
    run = rerun_on(installed, tmp_path, {"events/user.avsc": USER,
                                         ".github/schema-review.yml": "_extends: .github\n"},
                   {"events/user.avsc": USER_HEAD})
    assert run.code == 2
    assert run.stdout.startswith("::error title=schema-review::schema-review could not run: "
                                 ".github/schema-review.yml:1: _extends: .github's config cannot be read here")


def test_a_fixed_pull_request_passes(installed, tmp_path, origin):
    fixed = pull_request(make_repo(tmp_path / "origin", {"events/user.avsc": USER},
                                   {"events/user.avsc": OPTIONAL}))
    run = rerun(installed, tmp_path, fixed, environ={
        "GITHUB_EVENT_PATH": str(event(tmp_path / "event.json", fixed))})
    assert run.code == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "schema-review: success: No breaking changes in 1 schema file"
    assert run.summary.startswith("## schema-review: success")
    assert run.outputs == {"conclusion": "success", "errors": "0", "warnings": "0"}


def test_warnings_are_counted_and_pass(installed, tmp_path):
    base = USER.replace('"string"}', '"string"},\n  {"name": "level", "type": "int", "default": 0}')
    run = rerun_on(installed, tmp_path, {"events/user.avsc": base},
                   {"events/user.avsc": base.replace('"level"', '"tier"')})
    assert run.code == 0, run.stdout + run.stderr
    assert "::warning file=events/user.avsc,line=3,title=AVRO_FIELD_RENAMED_WITHOUT_ALIAS::" in run.stdout
    assert run.outputs == {"conclusion": "success", "errors": "0", "warnings": "1"}


def test_inputs_never_become_shell_code(installed, tmp_path, origin):
    run = rerun(installed, tmp_path, origin, inputs={"base": "main; touch pwned", "head": "$(touch pwned)"})
    assert run.code == 2 and not list(tmp_path.rglob("pwned"))
