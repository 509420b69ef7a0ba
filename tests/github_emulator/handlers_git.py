"""Repository and git data endpoints: repo, contents, blobs, trees, commits, history, compare."""
from __future__ import annotations

from urllib.parse import quote

from . import shapes
from .diffs import diff_files
from .ops import DOCS, NOT_FOUND, ApiError, Ctx, Reply, operation, paginate
from .repos import Repo

# GitHub's contents API inlines files up to 1 MB; larger ones come back with empty content
# and encoding "none" (the blob API or raw media type must be used instead).
CONTENTS_INLINE_LIMIT = 1024 * 1024
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
NO_COMMIT = "No commit found for the ref {ref}"
CONTENTS_DOC = f"{DOCS}/repos/contents#get-repository-content"


def _sha(ctx: Ctx, repo: Repo, ref: str | None) -> str:
    sha = repo.git.resolve(ref or repo.default_branch)
    if sha is None:
        raise ApiError(404 if ref else 409, NO_COMMIT.format(ref=ref) if ref else "Git Repository is empty.")
    return sha


@operation("repos/get")
def get_repo(ctx: Ctx, owner: str, repo: str) -> Reply:
    return Reply(200, shapes.repository(ctx.api, ctx.repo(owner, repo)))


def _entry_json(ctx: Ctx, repo: Repo, sha: str, entry) -> dict:
    kind = {"blob": "file", "tree": "dir", "commit": "submodule"}.get(entry.type, entry.type)
    web = ctx.api.removesuffix("/api/v3")
    url = f"{ctx.api}/repos/{repo.full_name}/contents/{quote(entry.path)}?ref={sha}"
    git_url = f"{ctx.api}/repos/{repo.full_name}/git/{'blobs' if kind == 'file' else 'trees'}/{entry.sha}"
    html = f"{web}/{repo.full_name}/blob/{sha}/{quote(entry.path)}"
    return {"type": kind, "name": entry.path.rsplit("/", 1)[-1], "path": entry.path, "sha": entry.sha,
            "size": entry.size or 0, "url": url, "git_url": git_url, "html_url": html,
            "download_url": f"{web}/{repo.full_name}/raw/{sha}/{quote(entry.path)}" if kind == "file" else None,
            "_links": {"self": url, "git": git_url, "html": html}}


@operation("repos/get-content")
def get_content(ctx: Ctx, owner: str, repo: str, path: str) -> Reply:
    found = ctx.repo(owner, repo)
    sha = _sha(ctx, found, ctx.query.get("ref"))
    entry = found.git.entry(sha, path)
    if entry is None:
        raise ApiError(404, NOT_FOUND, doc=CONTENTS_DOC)
    if entry.type == "tree":
        items = [_entry_json(ctx, found, sha, e) for e in found.git.list_tree(sha, path)]
        return Reply(200, items)
    data = found.git.blob(entry.sha)
    if "raw" in ctx.headers.get("Accept", ""):
        return Reply(200, data, {"Content-Type": "application/vnd.github.raw; charset=utf-8"})
    body = _entry_json(ctx, found, sha, entry)
    large = len(data) > CONTENTS_INLINE_LIMIT
    body.update(content="" if large else shapes.encoded(data), encoding="none" if large else "base64")
    return Reply(200, body)


@operation("git/get-blob")
def get_blob(ctx: Ctx, owner: str, repo: str, file_sha: str) -> Reply:
    found = ctx.repo(owner, repo)
    if found.git.object_type(file_sha) != "blob":
        raise ApiError(404, NOT_FOUND, doc=f"{DOCS}/git/blobs#get-a-blob")
    data = found.git.blob(file_sha)
    return Reply(200, {"sha": file_sha, "node_id": f"B_emu{file_sha[:12]}", "size": len(data),
                       "url": f"{ctx.api}/repos/{found.full_name}/git/blobs/{file_sha}",
                       "content": shapes.encoded(data), "encoding": "base64"})


@operation("git/get-tree")
def get_tree(ctx: Ctx, owner: str, repo: str, tree_sha: str) -> Reply:
    found = ctx.repo(owner, repo)
    sha = _sha(ctx, found, tree_sha)
    recursive = ctx.query.get("recursive") not in (None, "", "0", "false")
    # GitHub gives a size for blobs only; a subtree's entry has none (not even null).
    entries = [{"path": e.path, "mode": e.mode, "type": e.type, "sha": e.sha,
                **({"size": e.size} if e.type == "blob" else {}),
                "url": f"{ctx.api}/repos/{found.full_name}/git/{e.type}s/{e.sha}"}
               for e in found.git.list_tree(sha, recursive=recursive)]
    tree = found.git.info(sha).tree
    return Reply(200, {"sha": tree, "url": f"{ctx.api}/repos/{found.full_name}/git/trees/{tree}",
                       "truncated": False, "tree": entries})


@operation("git/get-commit")
def get_git_commit(ctx: Ctx, owner: str, repo: str, commit_sha: str) -> Reply:
    found = ctx.repo(owner, repo)
    full = shapes.commit(ctx.api, found, _sha(ctx, found, commit_sha))
    return Reply(200, {**full["commit"], "sha": full["sha"], "node_id": full["node_id"],
                       "html_url": full["html_url"], "parents": full["parents"]})


@operation("repos/get-commit")
def get_commit(ctx: Ctx, owner: str, repo: str, ref: str) -> Reply:
    found = ctx.repo(owner, repo)
    sha = _sha(ctx, found, ref)
    parents = found.git.info(sha).parents
    files = diff_files(found.git, parents[0] if parents else EMPTY_TREE, sha)
    return Reply(200, shapes.commit(ctx.api, found, sha, files))


@operation("repos/list-commits")
def list_commits(ctx: Ctx, owner: str, repo: str) -> Reply:
    found = ctx.repo(owner, repo)
    sha = _sha(ctx, found, ctx.query.get("sha"))
    history = found.git.log(sha, path=ctx.query.get("path"))
    page = paginate(ctx, history)
    page.body = [shapes.commit(ctx.api, found, s) for s in page.body]
    return page


@operation("repos/compare-commits-with-basehead")
def compare(ctx: Ctx, owner: str, repo: str, basehead: str) -> Reply:
    found = ctx.repo(owner, repo)
    base_ref, sep, head_ref = basehead.partition("...")
    if not sep:
        raise ApiError(404, NOT_FOUND, doc=f"{DOCS}/commits/commits#compare-two-commits")
    base, head = _sha(ctx, found, base_ref), _sha(ctx, found, head_ref)
    merge_base = found.git.merge_base(base, head) or base
    ahead = list(reversed(found.git.log(head, exclude=base)))
    behind = found.git.log(base, exclude=head)
    status = ("identical" if base == head else "ahead" if not behind else
              "behind" if not ahead else "diverged")
    files = diff_files(found.git, merge_base, head)
    web = ctx.api.removesuffix("/api/v3")
    return Reply(200, {
        "url": f"{ctx.api}/repos/{found.full_name}/compare/{basehead}",
        "html_url": f"{web}/{found.full_name}/compare/{basehead}",
        "permalink_url": f"{web}/{found.full_name}/compare/{base}...{head}",
        "diff_url": f"{web}/{found.full_name}/compare/{basehead}.diff",
        "patch_url": f"{web}/{found.full_name}/compare/{basehead}.patch",
        "base_commit": shapes.commit(ctx.api, found, base),
        "merge_base_commit": shapes.commit(ctx.api, found, merge_base),
        "status": status, "ahead_by": len(ahead), "behind_by": len(behind),
        "total_commits": len(ahead), "commits": [shapes.commit(ctx.api, found, s) for s in ahead],
        "files": [shapes.diff_entry(ctx.api, found, head, f) for f in files]})


@operation("repos/get-status-checks-protection")
def status_checks_protection(ctx: Ctx, owner: str, repo: str, branch: str) -> Reply:
    ctx.repo(owner, repo)
    raise ApiError(404, "Branch not protected", doc=f"{DOCS}/branches/branch-protection")


@operation("repos/get-branch-rules")
def branch_rules(ctx: Ctx, owner: str, repo: str, branch: str) -> Reply:
    ctx.repo(owner, repo)
    return paginate(ctx, [])
