"""Hostile pull requests: oversized schemas and path tricks end in a clear check, never a crash."""
import builtins
import os

import rules
from rules import Format, SchemaError, Source
from rules.limits import MAX_SCHEMA_BYTES

from tests.harness.flow import AVRO_BASE, completed_run, deliver, runs, settle


def test_a_schema_over_the_size_limit_gets_a_neutral_explanation(github, app_url):
    big = AVRO_BASE.replace('"UserEvent"', '"UserEvent", "doc": "' + "x" * (MAX_SCHEMA_BYTES + 10) + '"')
    repo = github.create_repo("acme", "hostile-size", {"schemas/user.avsc": AVRO_BASE})
    repo.commit("feature", {"schemas/user.avsc": big}, "Huge", base="main")
    pull = github.open_pull(repo.owner, repo.name, "feature", "main", "Huge")
    deliver(github, app_url, github.pull_request_event("opened", pull))
    run = completed_run(github, repo, pull.head_sha)
    settle(github)
    assert run.conclusion in ("neutral", "failure") and len(runs(github, repo, pull.head_sha)) == 1
    assert "limit" in (run.output.get("summary", "") + run.output.get("title", ""))


def test_paths_and_imports_from_a_pull_request_never_reach_the_local_filesystem(tmp_path, monkeypatch):
    opened = []
    real_open = builtins.open

    def spy(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy)
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "pwned.proto"
    evil = {"../../../../../../" + str(target).lstrip("/"): 'syntax = "proto3";', str(target): "x",
            "/etc/passwd": "x", "..\\..\\win.proto": "x"}
    proto = 'syntax = "proto3";\nimport "../../../../../../etc/passwd";\nmessage A { string a = 1; }\n'
    for path in ("../../../../etc/shadow.proto", "/etc/passwd.proto"):
        try:
            rules.check(Source(path, proto, imports=evil), Source(path, proto, imports=evil), format=Format.PROTOBUF)
        except SchemaError as error:
            assert "import" in str(error) or "path" in str(error)
    assert not target.exists()
    assert not any(p.startswith(("/etc", "..")) or "pwned" in p for p in opened), opened
    assert os.listdir(tmp_path) == []
