"""PR files, contents, history and compare through PyGithub match the real git repository."""
import subprocess

from github import Github

from .conftest import NEW_SCHEMA, client_for


def git_hunks(repo, base: str, head: str, path: str) -> str:
    """`git diff` of one file with its four header lines cut, computed outside the emulator."""
    out = subprocess.run(["git", "--git-dir", str(repo.git.path), "diff", f"{base}...{head}", "--", path],
                         capture_output=True, text=True, check=True).stdout
    return out[out.index("\n@@") + 1:].rstrip("\n")


def test_pr_files_carry_the_genuine_git_hunks(github, scenario):
    repo, pull = scenario
    pr = client_for(github, repo).get_repo("acme/contracts").get_pull(pull.number)
    files = {f.filename: f for f in pr.get_files()}
    assert set(files) == {"schemas/user.avsc", "schemas/new.avsc", "schemas/gone.proto", "schemas/moved_to.json"}
    user = files["schemas/user.avsc"]
    assert user.status == "modified" and (user.additions, user.deletions, user.changes) == (2, 1, 3)
    assert user.patch == git_hunks(repo, pull.base_sha, pull.head_sha, "schemas/user.avsc")
    assert user.patch.startswith("@@ -1,6 +1,6 @@") and user.patch.count("@@ -") == 2
    assert files["schemas/gone.proto"].status == "removed"
    assert files["schemas/new.avsc"].status == "added"
    moved = files["schemas/moved_to.json"]
    assert moved.status == "renamed" and moved.previous_filename == "schemas/moved_from.json"
    assert user.raw_url.endswith(f"/raw/{pull.head_sha}/schemas/user.avsc")
    assert pr.head.sha == pull.head_sha and pr.base.sha == pull.base_sha


def test_pr_files_paginate_with_link_headers_on_both_url_layouts(github):
    repo = github.create_repo("acme", "many", {"README.md": "hi\n"})
    repo.commit("wide", {f"s/f{i:02}.avsc": f"{i}\n" for i in range(7)}, "Seven files")
    pull = github.open_pull("acme", "many", "wide", "main", "Wide")
    for base_url in (github.url, github.api_url):
        pr = client_for(github, repo, base_url=base_url, per_page=3).get_repo("acme/many").get_pull(pull.number)
        assert [f.filename for f in pr.get_files()] == [f"s/f{i:02}.avsc" for i in range(7)]
    pages = github.calls_to("GET", r"/pulls/1/files$")
    assert [c.query.get("page") for c in pages] == [None, "2", "3"] * 2
    first = client_for(github, repo)._Github__requester.requestJsonAndCheck(
        "GET", "/repos/acme/many/pulls/1/files", parameters={"per_page": 3})[0]
    assert first["link"].count('rel="next"') == 1 and "page=3" in first["link"]


def test_contents_blobs_history_and_compare(github, scenario):
    repo, pull = scenario
    gh = client_for(github, repo).get_repo("acme/contracts")
    assert gh.get_contents("schemas/user.avsc", ref="feature").decoded_content.decode() == NEW_SCHEMA
    assert gh.get_git_blob(repo.git.blob_at("feature", "schemas/user.avsc")[0]).size == len(NEW_SCHEMA)
    try:
        gh.get_contents("schemas/user.avsc", ref="nope")
        raise AssertionError("expected a 404")
    except Exception as error:
        assert getattr(error, "status", None) == 404
    history = gh.get_commits(sha="feature", path="schemas/user.avsc")
    assert [c.sha for c in history] == [pull.head_sha, pull.base_sha]
    assert history[0].commit.author.date >= history[1].commit.author.date
    comparison = gh.compare("main", "feature")
    assert comparison.status == "ahead" and comparison.ahead_by == 1
    assert {f.filename for f in comparison.files} >= {"schemas/user.avsc"}
    assert gh.get_commit(pull.head_sha).files[0].patch


def test_history_reports_the_author_dates_tests_chose(github):
    repo = github.create_repo("acme", "dated", {"a.avsc": "1\n"})
    for n, day in ((2, "2024-03-02"), (3, "2024-03-03")):
        repo.commit("main", {"a.avsc": f"{n}\n"}, f"v{n}", author_date=f"{day}T10:00:00Z")
    repo.commit("main", {"b.txt": "unrelated\n"}, "other file", author_date="2024-03-04T10:00:00Z")
    history = client_for(github, repo).get_repo("acme/dated").get_commits(path="a.avsc")
    assert [c.commit.message for c in history] == ["v3", "v2", "Initial commit"]
    assert history[0].commit.author.date.isoformat() == "2024-03-03T10:00:00+00:00"


def test_large_file_comes_back_without_inline_content(github):
    big = "x" * (1024 * 1024 + 10)
    repo = github.create_repo("acme", "big", {"huge.json": big})
    client = client_for(github, repo)
    raw = client._Github__requester.requestJsonAndCheck("GET", "/repos/acme/big/contents/huge.json")[1]
    assert raw["encoding"] == "none" and raw["content"] == "" and raw["size"] == len(big)


def test_empty_repository_has_no_default_branch_commit(github):
    repo = github.create_repo("acme", "empty", {})
    assert repo.git.resolve("main") is None
    repo.commit("main", {"a.txt": "a\n"}, "first")
    assert repo.read("main", "a.txt") == b"a\n"
    assert isinstance(client_for(github, repo), Github)
