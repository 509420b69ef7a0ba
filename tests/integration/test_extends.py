"""`_extends`: an organisation's `.github` repository holds defaults that a repository's file refines."""
from __future__ import annotations

import itertools
import json

import pytest

from tests.harness.flow import AVRO_BASE, AVRO_BREAKING
from tests.integration.conftest import SECRET, settle, wait_for_check

_owners = itertools.count()
CONFIG = ".github/schema-review.yml"
# The organisation's defaults: the breaking change of AVRO_BREAKING is only a warning, legacy/ is skipped.
ORG_DEFAULTS = """# organisation-wide defaults
rules:
  AVRO_FIELD_ADDED_WITHOUT_DEFAULT: warning
exclude: ["legacy/**"]
"""
LENIENT = "rules:\n  AVRO_FIELD_ADDED_WITHOUT_DEFAULT: off\n"


def org_with_defaults(github, defaults: str, *, base_repo: str = ".github") -> str:
    owner = f"extorg{next(_owners)}"
    github.create_repo(owner, base_repo, {CONFIG: defaults})
    return owner


def review(github, app_url, owner: str, repo_config: str | None):
    files = {"schemas/user.avsc": AVRO_BASE, "legacy/old.avsc": AVRO_BASE}
    if repo_config is not None:
        files[CONFIG] = repo_config
    repo = github.create_repo(owner, f"svc-{next(_owners)}", files)
    repo.commit("feature", {"schemas/user.avsc": AVRO_BREAKING, "legacy/old.avsc": AVRO_BREAKING},
                "Change", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Change")
    response = github.deliver(app_url + "/webhook", "pull_request", github.pull_request_event("opened", pull), SECRET)
    assert response.status_code == 202, response.text
    (run,) = wait_for_check(github, repo, pull.head_sha, timeout=90)
    settle(github)
    return run


def base_reads(github, owner: str) -> list[str]:
    """The GraphQL expressions and REST paths the App used to read the base repository."""
    out = []
    for call in github.calls:
        variables = (call.json or {}).get("variables") or {} if call.operation == "graphql" else {}
        if call.path.startswith(f"/repos/{owner}/.github"):
            out.append(call.path)
        elif (variables.get("owner"), variables.get("name")) == (owner, ".github"):
            out.append(json.dumps(variables))
    return out


@pytest.mark.parametrize("written", [".github", "extorg{n}/.github"])
def test_the_org_defaults_apply_under_a_repository_that_extends_them(github, app_url, written):
    owner = org_with_defaults(github, ORG_DEFAULTS)
    run = review(github, app_url, owner, f"_extends: {written.format(n=owner.removeprefix('extorg'))}\n")
    assert run.conclusion == "success", run.output
    assert "legacy/old.avsc" not in json.dumps(run.output)  # the base's exclude applies too
    reads = base_reads(github, owner)
    assert any("refs/heads/main:.github/schema-review.yml" in read for read in reads), reads


def test_the_repository_wins_key_by_key(github, app_url):
    owner = org_with_defaults(github, ORG_DEFAULTS)
    run = review(github, app_url, owner, "_extends: .github\nrules:\n  AVRO_FIELD_ADDED_WITHOUT_DEFAULT: error\n")
    assert run.conclusion == "failure"
    text = json.dumps(run.output)
    assert "schemas/user.avsc" in text and "legacy/old.avsc" not in text


def test_without_extends_the_org_file_is_not_read(github, app_url):
    owner = org_with_defaults(github, LENIENT)
    assert review(github, app_url, owner, "compatibility: backward\n").conclusion == "failure"
    assert base_reads(github, owner) == []


def test_the_base_is_read_at_the_branch_not_a_tag_of_the_same_name(github, app_url):
    owner = org_with_defaults(github, ORG_DEFAULTS.replace("warning", "error"))
    base = github.repo(owner, ".github")
    lenient = base.commit("lenient", {CONFIG: LENIENT}, "A branch anyone with push may create", base="main")
    base.git.run("tag", "main", lenient)  # git prefers refs/tags/main when asked for plain `main`
    assert review(github, app_url, owner, "_extends: .github\n").conclusion == "failure"


@pytest.mark.parametrize("repo_config, base_config, expected", [
    ("_extends: nowhere\n", None, "extorg{n}/nowhere has no .github/schema-review.yml"),
    ("version: 1\n_extends: someone-else/.github\n", None, "_extends: a base from another owner"),
    ("_extends: .github\n", "_extends: other\n", "extorg{n}/.github:.github/schema-review.yml:1: _extends: the base"),
    ("_extends: .github\n", "rules:\n  AVRO_FIELD_ADDED_WITHOUT_DEFAULT: sometimes\n",
     "extorg{n}/.github:.github/schema-review.yml:2: rules.AVRO_FIELD_ADDED_WITHOUT_DEFAULT"),
    ("# shared\n_extends: [1]\n", None, ".github/schema-review.yml:2: _extends: expected text"),
])
def test_a_base_that_cannot_be_used_fails_the_check_naming_file_and_line(github, app_url, repo_config,
                                                                         base_config, expected):
    owner = org_with_defaults(github, base_config or ORG_DEFAULTS)
    run = review(github, app_url, owner, repo_config)
    assert run.conclusion == "failure"
    assert expected.format(n=owner.removeprefix("extorg")) in run.output["summary"], run.output["summary"]
