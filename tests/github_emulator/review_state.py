"""GraphQL resolvers for a pull request's review state: the pull request, its conversation, its
review threads and a commit's check suites, with GitHub's cursor pagination.

GitHub spells a bot's login without the `[bot]` suffix in GraphQL (`schema-review`), unlike
REST (`schema-review[bot]`); the App must compare accordingly, so the emulator does the same.
"""
from __future__ import annotations

import base64

from .records import CheckRun, IssueComment, ReviewComment

BOT_SUFFIX = "[bot]"
MAX_PAGE = 100
PAGE_TOO_LARGE = "Requesting {count} records on the `{field}` connection exceeds the `first` limit of 100 records."
NEEDS_BOUND = "You must provide a `first` or `last` value to properly paginate the `{field}` connection."


class PaginationError(Exception):
    pass


def actor(login: str, kind: str) -> dict:
    if kind == "Bot":
        return {"__typename": "Bot", "id": f"BOT_emu{login}", "login": login.removesuffix(BOT_SUFFIX)}
    return {"__typename": "User", "id": f"U_emu{login}", "login": login}


def comment(kind: str, item: IssueComment | ReviewComment) -> dict:
    out = {"__typename": kind, "id": item.node_id, "databaseId": item.id, "body": item.body,
           "isMinimized": item.is_minimized, "minimizedReason": item.minimized_reason,
           "viewerCanMinimize": True, "author": actor(item.user, item.user_type),
           "createdAt": item.created_at, "lastEditedAt": item.last_edited_at, "_item": item}
    if isinstance(item, ReviewComment):
        out["path"] = item.path
    return out


def connection(items: list, field: str, *, first=None, last=None, after=None, before=None) -> dict:
    """GitHub's cursor pagination over `items` (oldest first): `first`/`after` forwards,
    `last`/`before` backwards; one of `first` and `last` is required, at most 100."""
    if first is None and last is None:
        raise PaginationError(NEEDS_BOUND.format(field=field))
    for count in (first, last):
        if count is not None and count > MAX_PAGE:
            raise PaginationError(PAGE_TOO_LARGE.format(count=count, field=field))
    start, end = 0, len(items)
    if after is not None:
        start = max(start, _index(after) + 1)
    if before is not None:
        end = min(end, _index(before))
    if first is not None:
        end = min(end, start + first)
    if last is not None:
        start = max(start, end - last)
    window = items[start:end]
    return {"totalCount": len(items), "nodes": window,
            "pageInfo": {"hasPreviousPage": start > 0, "hasNextPage": end < len(items),
                         "startCursor": _cursor(start) if window else None,
                         "endCursor": _cursor(end - 1) if window else None}}


def _cursor(index: int) -> str:
    return base64.b64encode(f"cursor:v2:{index}".encode()).decode()


def _index(cursor: str) -> int:
    try:
        return int(base64.b64decode(cursor).decode().rpartition(":")[2])
    except (ValueError, UnicodeDecodeError):
        raise PaginationError(f"`{cursor}` does not appear to be a valid cursor.") from None


def pull_requests(parent, info, states=None, orderBy=None, **page):
    """The repository's pull requests (forks' included: they are the base repository's), oldest
    first, or by `orderBy`."""
    repo, state = parent["_repo"], info.context.state
    found = [pr for (key, _), pr in sorted(state.pulls.items())
             if key == repo.full_name.lower() and (not states or pr.graphql_state in states)]
    if orderBy and orderBy.get("direction") == "DESC":
        found.reverse()
    return connection([_pull(pr) for pr in found], "pullRequests", **page)


def pull_request(parent, info, number):
    repo = parent["_repo"]
    pr = info.context.state.pull(repo, number)
    if pr is None:
        return None
    return _pull(pr)


def associated_pull_requests(parent, info, orderBy=None, **page):
    """The merged pull request that brought the commit to its base; for a commit not on the
    default branch, also the open ones that hold it. Oldest first, or by `orderBy`."""
    ctx, repo, sha = info.context, parent["_repo"], parent["oid"]
    found = [pr for (key, _), pr in sorted(ctx.state.pulls.items()) if key == repo.full_name.lower()
             and (sha in pr.landed or (pr.state == "open" and sha in _off_default(ctx, pr)))]
    if orderBy and orderBy.get("direction") == "DESC":
        found.reverse()
    return connection([_pull(pr) for pr in found], "associatedPullRequests", **page)


def _off_default(ctx, pr) -> frozenset[str]:
    """An open pull request's commits that are not on the default branch, once per request (a
    file's history asks about every commit in it)."""
    key = ("off_default", pr.id)
    if key not in ctx.memo:
        git, default = pr.repo.git, pr.repo.sha(pr.repo.default_branch)
        ctx.memo[key] = frozenset(git.text("rev-list", pr.head_sha, f"^{pr.base_sha}", f"^{default}").split())
    return ctx.memo[key]


def _pull(pr) -> dict:
    return {"__typename": "PullRequest", "id": f"PR_emu{pr.id}", "number": pr.number,
            "state": pr.graphql_state, "merged": pr.merged, "mergedAt": pr.merged_at,
            "title": pr.title, "headRefOid": pr.head_sha, "baseRefOid": pr.base_sha,
            "headRefName": pr.head, "baseRefName": pr.base,
            "changedFiles": lambda _info: len(pr.files()),  # a diff: computed only when asked
            "author": actor(pr.user, "User"), "_pr": pr}


def conversation(parent, info, **page):
    pr = parent["_pr"]
    items = sorted((c for c in info.context.state.issue_comments.values()
                    if c.repo.lower() == pr.repo.full_name.lower() and c.issue_number == pr.number),
                   key=lambda c: c.id)
    return connection([comment("IssueComment", c) for c in items], "comments", **page)


def threads(parent, info, **page):
    """A thread per top-level review comment, with its replies (GitHub's in_reply_to chain)."""
    pr = parent["_pr"]
    items = sorted((c for c in info.context.state.review_comments.values()
                    if c.repo.lower() == pr.repo.full_name.lower() and c.pull_number == pr.number),
                   key=lambda c: c.id)
    roots = [c for c in items if c.in_reply_to_id is None]
    nodes = [{"__typename": "PullRequestReviewThread", "id": f"PRRT_emu{root.id}",
              "_comments": [root, *(c for c in items if c.in_reply_to_id == root.id)]} for root in roots]
    return connection(nodes, "reviewThreads", **page)


def thread_comments(parent, info, **page):
    return connection([comment("PullRequestReviewComment", c) for c in parent["_comments"]],
                      "comments", **page)


def check_suites(parent, info, filterBy=None, **page):
    """The App's suite on the commit (the emulator has one App); other apps' would be filtered."""
    state, repo, sha = info.context.state, parent["_repo"], parent["oid"]
    runs = sorted((r for r in state.check_runs.values()
                   if r.repo.lower() == repo.full_name.lower() and r.head_sha == sha), key=lambda r: r.id)
    app_id = state.creds.app_id
    wanted = (filterBy or {}).get("appId")
    suites = [] if not runs or (wanted is not None and wanted != app_id) else [
        {"__typename": "CheckSuite", "id": f"CS_emu{repo.id}_{sha}", "_runs": runs,
         "app": {"__typename": "App", "id": f"A_emu{app_id}", "databaseId": app_id, "slug": state.app_slug}}]
    return connection(suites, "checkSuites", **page)


def check_runs(parent, info, filterBy=None, **page):
    name = (filterBy or {}).get("checkName")
    runs = [_run(r) for r in parent["_runs"] if name is None or r.name == name]
    return connection(runs, "checkRuns", **page)


def _run(run: CheckRun) -> dict:
    return {"__typename": "CheckRun", "id": f"CR_emu{run.id}", "databaseId": run.id, "name": run.name,
            "status": run.status.upper(), "conclusion": run.conclusion.upper() if run.conclusion else None,
            "title": run.output.get("title"), "summary": run.output.get("summary"),
            "text": run.output.get("text")}
