"""JSON for users, the App, repositories, commits and diff entries, shaped like GitHub's."""
from __future__ import annotations

import base64
import zlib
from urllib.parse import quote

from .diffs import FileDiff
from .gitstore import NOREPLY
from .repos import Repo


def user_id(login: str) -> int:
    return zlib.crc32(login.lower().encode()) % 10_000_000 + 1


def user(api: str, login: str, kind: str = "User") -> dict:
    return {"login": login, "id": user_id(login), "node_id": f"U_emu{user_id(login)}",
            "type": kind, "site_admin": False, "url": f"{api}/users/{quote(login)}",
            "html_url": f"{_web(api)}/{quote(login)}", "avatar_url": f"{_web(api)}/{quote(login)}.png",
            "gravatar_id": "", "repos_url": f"{api}/users/{quote(login)}/repos"}


def account(api: str, login: str) -> dict:
    # Owners named like an organisation are reported as one; tests mostly use "acme" orgs.
    return user(api, login, "Organization" if login.lower() != "octocat" else "User")


def app(api: str, app_id: int, slug: str, owner: str = "acme") -> dict:
    return {"id": app_id, "slug": slug, "node_id": f"A_emu{app_id}", "name": slug,
            "client_id": f"Iv1.emu{app_id}", "owner": account(api, owner), "description": "",
            "external_url": f"{_web(api)}/apps/{slug}", "html_url": f"{_web(api)}/apps/{slug}",
            "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-01T00:00:00Z",
            "permissions": {"checks": "write", "contents": "read", "pull_requests": "write",
                            "issues": "write", "metadata": "read", "members": "read"},
            "events": ["check_run", "issue_comment", "pull_request"]}


def installation(api: str, installation_id: int, owner: str, app_id: int, slug: str) -> dict:
    return {"id": installation_id, "account": account(api, owner), "app_id": app_id, "app_slug": slug,
            "target_id": user_id(owner), "target_type": account(api, owner)["type"],
            "repository_selection": "selected", "permissions": app(api, app_id, slug)["permissions"],
            "events": app(api, app_id, slug)["events"], "access_tokens_url":
            f"{api}/app/installations/{installation_id}/access_tokens",
            "repositories_url": f"{api}/installation/repositories",
            "html_url": f"{_web(api)}/settings/installations/{installation_id}",
            "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-01T00:00:00Z",
            "single_file_name": None, "suspended_at": None, "suspended_by": None}


def repository(api: str, repo: Repo) -> dict:
    base = f"{api}/repos/{repo.full_name}"
    return {"id": repo.id, "node_id": f"R_emu{repo.id}", "name": repo.name,
            "full_name": repo.full_name, "owner": account(api, repo.owner), "private": True,
            "html_url": f"{_web(api)}/{repo.full_name}", "url": base, "fork": False,
            "default_branch": repo.default_branch, "visibility": "private", "archived": False,
            "disabled": False, "description": None,
            "pulls_url": base + "/pulls{/number}", "contents_url": base + "/contents/{+path}",
            "permissions": {"admin": False, "maintain": False, "push": False, "triage": False,
                            "pull": True}}


def commit(api: str, repo: Repo, sha: str, files: list[FileDiff] | None = None) -> dict:
    info = repo.git.info(sha)
    base = f"{api}/repos/{repo.full_name}"
    author, committer = _linked(info.author_email), _linked(info.committer_email)
    out = {"sha": info.sha, "node_id": f"C_emu{info.sha[:12]}", "url": f"{base}/commits/{info.sha}",
           "html_url": f"{_web(api)}/{repo.full_name}/commit/{info.sha}",
           "comments_url": f"{base}/commits/{info.sha}/comments",
           "commit": {"message": info.message, "url": f"{base}/git/commits/{info.sha}",
                      "author": {**_person(info.author_email), "date": info.author_date},
                      "committer": {**_person(info.committer_email), "date": info.committer_date},
                      "tree": {"sha": info.tree, "url": f"{base}/git/trees/{info.tree}"},
                      "comment_count": 0,
                      "verification": {"verified": False, "reason": "unsigned", "payload": None,
                                       "signature": None, "verified_at": None}},
           # GitHub links an email to the account that verified it (here: noreply addresses).
           "author": author and user(api, author), "committer": committer and user(api, committer),
           "parents": [{"sha": p, "url": f"{base}/commits/{p}",
                        "html_url": f"{_web(api)}/{repo.full_name}/commit/{p}"} for p in info.parents]}
    if files is not None:
        adds = sum(f.additions for f in files)
        dels = sum(f.deletions for f in files)
        out["stats"] = {"additions": adds, "deletions": dels, "total": adds + dels}
        out["files"] = [diff_entry(api, repo, sha, f) for f in files]
    return out


def _linked(email: str) -> str | None:
    """The login a commit email belongs to, or None (GitHub's `author: null`)."""
    login = email.removesuffix(NOREPLY)
    return login if login != email and login else None


def _person(email: str) -> dict:
    login = _linked(email)
    return {"name": "Octo Cat" if login == "octocat" else login or email, "email": email}


def diff_entry(api: str, repo: Repo, sha: str, diff: FileDiff) -> dict:
    path = quote(diff.filename)
    out = {"sha": diff.sha, "filename": diff.filename, "status": diff.status,
           "additions": diff.additions, "deletions": diff.deletions, "changes": diff.changes,
           "blob_url": f"{_web(api)}/{repo.full_name}/blob/{sha}/{path}",
           "raw_url": f"{_web(api)}/{repo.full_name}/raw/{sha}/{path}",
           "contents_url": f"{api}/repos/{repo.full_name}/contents/{path}?ref={sha}"}
    if diff.patch is not None:
        out["patch"] = diff.patch
    if diff.previous_filename:
        out["previous_filename"] = diff.previous_filename
    return out


def encoded(data: bytes) -> str:
    """Base64 wrapped at 60 characters with a trailing newline, the way GitHub sends content."""
    text = base64.b64encode(data).decode()
    return "".join(text[i:i + 60] + "\n" for i in range(0, len(text), 60))


def _web(api: str) -> str:
    return api.removesuffix("/api/v3")
