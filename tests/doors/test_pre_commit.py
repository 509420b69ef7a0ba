"""The pre-commit hook, installed by the real pre-commit from this tree and run by `git commit`."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.localgit import GIT, git, make_repo, write

from .conftest import base_env, offline_pip_env

USER = '{"type": "record", "name": "User", "fields": [\n  {"name": "id", "type": "string"}\n]}\n'
BREAKING = USER.replace('"string"}', '"string"},\n  {"name": "level", "type": "int"}')
OPTIONAL = USER.replace('"string"}', '"string"},\n  {"name": "level", "type": ["null", "int"], "default": null}')
CONFIG = "repos:\n  - repo: {repo}\n    rev: {rev}\n    hooks:\n      - id: schema-review\n{extra}"


@pytest.fixture(scope="module")
def environ(tmp_path_factory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("home")
    return {**base_env(home), **offline_pip_env(), "PRE_COMMIT_HOME": str(home / "pre-commit"),
            "VIRTUALENV_NO_PERIODIC_UPDATE": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@invalid",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@invalid"}


def clone(tmp_path: Path, project: Path, environ, *, extra: str = "", files=None) -> Path:
    """A developer's clone (origin/HEAD is main) with the hook installed into git."""
    origin = make_repo(tmp_path / "origin", {"events/user.avsc": USER, **(files or {})}, {},
                       branch="main-copy")
    git(origin, "checkout", "-q", "main")
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", str(origin), "work")
    git(work, "checkout", "-q", "-b", "change")
    rev = git(project, "rev-parse", "HEAD")
    (work / ".pre-commit-config.yaml").write_text(CONFIG.format(repo=project, rev=rev, extra=extra))
    subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=work, env=environ,
                   check=True, capture_output=True, timeout=120)
    return work


def commit(work: Path, environ) -> subprocess.CompletedProcess:
    return subprocess.run([*GIT, "commit", "-m", "change"], cwd=work, env=environ,
                          capture_output=True, text=True, timeout=900)


def test_a_breaking_commit_is_refused_and_a_compatible_one_passes(tmp_path, project, environ):
    work = clone(tmp_path, project, environ)
    write(work, {"events/user.avsc": BREAKING})
    (work / "events" / "unstaged.avsc").write_text("not staged, not reviewed")
    refused = commit(work, environ)
    out = refused.stdout + refused.stderr
    assert refused.returncode == 1, out
    assert "schema-review" in out and "Failed" in out
    assert "events/user.avsc:3: error AVRO_FIELD_ADDED_WITHOUT_DEFAULT" in out
    assert "unstaged" not in out
    assert git(work, "rev-list", "--count", "HEAD") == "1"  # nothing was committed

    (work / "events" / "user.avsc").write_text(OPTIONAL)
    git(work, "add", "events/user.avsc")
    accepted = commit(work, environ)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert git(work, "rev-list", "--count", "HEAD") == "2"
    assert git(work, "status", "--porcelain") == "?? events/unstaged.avsc"


def test_the_base_branch_is_configurable(tmp_path, project, environ):
    work = clone(tmp_path, project, environ, extra="        args: [--base, origin/nope]\n")
    write(work, {"events/user.avsc": OPTIONAL})
    refused = commit(work, environ)
    assert refused.returncode == 1
    assert ("error: git merge-base failed: fatal: Not a valid object name origin/nope"
            in refused.stdout + refused.stderr)


def test_a_clone_without_origin_head_is_told_how_to_set_it(tmp_path, project, environ):
    """The hook's default base is origin/HEAD, which only `git clone` records."""
    work = clone(tmp_path, project, environ)
    git(work, "remote", "set-head", "origin", "--delete")
    write(work, {"events/user.avsc": OPTIONAL})
    refused = commit(work, environ)
    out = refused.stdout + refused.stderr
    assert refused.returncode == 1 and "exit code: 2" in out, out
    assert "error: origin/HEAD is not set in this clone" in out
    assert "run `git remote set-head origin --auto` once, or pass --base" in out
    assert "Not a valid object name" not in out
    assert git(work, "rev-list", "--count", "HEAD") == "1"


def test_a_staged_config_change_cannot_switch_the_hook_off(tmp_path, project, environ):
    """--config names a file on the base branch: the commit being made cannot relax it."""
    work = clone(tmp_path, project, environ, files={"ci/review.yml": "compatibility: backward\n"},
                 extra="        args: [--base, origin/HEAD, --config, ci/review.yml]\n")
    write(work, {"events/user.avsc": BREAKING, "ci/review.yml": "paths:\n  avro: []\n"})
    refused = commit(work, environ)
    out = refused.stdout + refused.stderr
    assert refused.returncode == 1, out
    assert "events/user.avsc:3: error AVRO_FIELD_ADDED_WITHOUT_DEFAULT" in out
    assert git(work, "rev-list", "--count", "HEAD") == "1"
