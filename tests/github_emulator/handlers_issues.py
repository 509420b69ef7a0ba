"""Issues that are not pull requests: list, create, get, update (the App's tracking issues).

Issues and pull requests share a repository's numbers; `GET .../issues` lists both, as GitHub
does (a pull request carries a `pull_request` key), newest first.
"""
from __future__ import annotations

from .handlers_pulls import author
from .ops import DOCS, NOT_FOUND, ApiError, Ctx, Reply, operation, paginate
from .records import Issue
from .shapes import _web, user

DOC = f"{DOCS}/issues/issues#get-an-issue"


def issue_shape(api: str, item: Issue) -> dict:
    url = f"{api}/repos/{item.repo}/issues/{item.number}"
    return {"id": item.id, "node_id": f"I_emu{item.id}", "number": item.number, "title": item.title,
            "state": item.state, "body": item.body or None, "user": user(api, item.user, item.user_type),
            "url": url, "html_url": f"{_web(api)}/{item.repo}/issues/{item.number}",
            "comments_url": f"{url}/comments", "created_at": item.created_at,
            "updated_at": item.updated_at, "closed_at": item.closed_at}


def find(ctx: Ctx, owner: str, repo: str, number) -> Issue:
    found = ctx.state.issues.get((ctx.repo(owner, repo).full_name.lower(), int(number)))
    if found is None:
        raise ApiError(404, NOT_FOUND, doc=DOC)
    return found


def _pull_as_issue(ctx: Ctx, pr) -> dict:
    shown = {"id": pr.id, "node_id": f"PR_emu{pr.id}", "number": pr.number, "title": pr.title,
             "state": pr.state, "body": pr.body or None, "user": user(ctx.api, pr.user),
             "url": f"{ctx.api}/repos/{pr.repo.full_name}/issues/{pr.number}",
             "html_url": f"{_web(ctx.api)}/{pr.repo.full_name}/pull/{pr.number}",
             "created_at": pr.created_at, "updated_at": pr.merged_at or pr.created_at,
             "closed_at": pr.merged_at}
    shown["pull_request"] = {"url": f"{ctx.api}/repos/{pr.repo.full_name}/pulls/{pr.number}"}
    return shown


@operation("issues/list-for-repo")
def list_issues(ctx: Ctx, owner: str, repo: str) -> Reply:
    key = ctx.repo(owner, repo).full_name.lower()
    wanted, creator = ctx.query.get("state") or "open", ctx.query.get("creator")
    items = [(i.number, issue_shape(ctx.api, i)) for (k, _n), i in ctx.state.issues.items() if k == key]
    items += [(p.number, _pull_as_issue(ctx, p)) for (k, _n), p in ctx.state.pulls.items() if k == key]
    shown = [body for _n, body in sorted(items, key=lambda item: -item[0])
             if wanted in ("all", body["state"]) and creator in (None, body["user"]["login"])]
    return paginate(ctx, shown)


@operation("issues/create")
def create_issue(ctx: Ctx, owner: str, repo: str) -> Reply:
    login, kind = author(ctx)
    item = ctx.state.add_issue(ctx.repo(owner, repo), title=ctx.json("title"), body=ctx.json("body") or "",
                               user=login, user_type=kind)
    return Reply(201, issue_shape(ctx.api, item))


@operation("issues/get")
def get_issue(ctx: Ctx, owner: str, repo: str, issue_number) -> Reply:
    return Reply(200, issue_shape(ctx.api, find(ctx, owner, repo, issue_number)))


@operation("issues/update")
def update_issue(ctx: Ctx, owner: str, repo: str, issue_number) -> Reply:
    item = find(ctx, owner, repo, issue_number)
    now = ctx.state.now()
    if "title" in (ctx.body or {}):
        item.title = ctx.json("title")
    if "body" in (ctx.body or {}):
        item.body = ctx.json("body") or ""
    state = ctx.json("state")
    if state in ("open", "closed") and state != item.state:
        item.state, item.closed_at = state, now if state == "closed" else None
    item.updated_at = now
    return Reply(200, issue_shape(ctx.api, item))


def thread(ctx: Ctx, owner: str, repo: str, number) -> tuple[str, int]:
    """(repository, number) of the pull request or issue a conversation comment belongs to."""
    found = ctx.state.repo(owner, repo)
    if found is not None and (found.full_name.lower(), int(number)) in ctx.state.issues:
        item = find(ctx, owner, repo, number)
        return item.repo, item.number
    pr = ctx.pull(owner, repo, number)
    return pr.repo.full_name, pr.number
