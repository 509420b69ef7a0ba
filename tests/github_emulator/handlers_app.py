"""App-level endpoints: the App, installations, tokens, deliveries, rate limit, people."""
from __future__ import annotations

from datetime import datetime, timezone
from urllib.parse import urlencode

from . import shapes
from .ops import DOCS, NOT_FOUND, ApiError, Ctx, Reply, operation, paginate


def _installation(ctx: Ctx, installation_id) -> tuple[str, int]:
    for owner, known in ctx.state.installations.items():
        if known == int(installation_id):
            return owner, known
    raise ApiError(404, NOT_FOUND, doc=f"{DOCS}/apps/apps#get-an-installation-for-the-authenticated-app")


def _installation_json(ctx: Ctx, owner: str, installation_id: int) -> dict:
    creds = ctx.state.creds
    return shapes.installation(ctx.api, installation_id, owner, creds.app_id, ctx.state.app_slug)


@operation("apps/get-authenticated")
def get_app(ctx: Ctx) -> Reply:
    body = shapes.app(ctx.api, ctx.state.creds.app_id, ctx.state.app_slug)
    return Reply(200, {**body, "installations_count": len(ctx.state.installations)})


@operation("apps/list-installations")
def list_installations(ctx: Ctx) -> Reply:
    items = [_installation_json(ctx, o, i) for o, i in ctx.state.installations.items()]
    return paginate(ctx, items)


@operation("apps/get-installation")
def get_installation(ctx: Ctx, installation_id) -> Reply:
    return Reply(200, _installation_json(ctx, *_installation(ctx, installation_id)))


@operation("apps/get-repo-installation")
def get_repo_installation(ctx: Ctx, owner: str, repo: str) -> Reply:
    found = ctx.repo(owner, repo)
    return Reply(200, _installation_json(ctx, found.owner.lower(), found.installation_id))


@operation("apps/create-installation-access-token")
def create_token(ctx: Ctx, installation_id) -> Reply:
    owner, known = _installation(ctx, installation_id)
    names = ctx.json("repositories")
    token = ctx.state.creds.issue(known, permissions=ctx.json("permissions"), repositories=names)
    expires = datetime.fromtimestamp(token.expires_at, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    body = {"token": token.value, "expires_at": expires,
            "permissions": token.permissions or shapes.app(ctx.api, 0, "")["permissions"],
            "repository_selection": "selected" if names else "all"}
    if names:
        body["repositories"] = [shapes.repository(ctx.api, r) for r in ctx.state.installation_repos(known)
                                if r.name in names]
    return Reply(201, body)


@operation("apps/list-repos-accessible-to-installation")
def installation_repositories(ctx: Ctx) -> Reply:
    repos = [shapes.repository(ctx.api, r) for r in ctx.state.installation_repos(ctx.token.installation_id)]
    page = paginate(ctx, repos)
    page.body = {"total_count": len(repos), "repositories": page.body}
    return page


def _delivery(item) -> dict:
    return {"id": item.id, "guid": item.guid, "delivered_at": item.delivered_at,
            "redelivery": item.redelivery, "duration": 0.05, "status": item.status,
            "status_code": item.status_code, "event": item.event, "action": item.action,
            "installation_id": item.installation_id, "repository_id": item.repository_id}


@operation("apps/list-webhook-deliveries")
def list_deliveries(ctx: Ctx) -> Reply:
    items = sorted(ctx.state.deliveries, key=lambda d: d.id, reverse=True)
    wanted = ctx.query.get("status")
    if wanted:
        items = [d for d in items if (200 <= d.status_code < 300) == (wanted == "success")]
    per_page = min(int(ctx.query.get("per_page") or 30), 100)
    start = int(ctx.query.get("cursor") or 0)
    chunk = items[start:start + per_page]
    headers = {}
    # GitHub pages deliveries with an opaque cursor instead of page numbers.
    if start + per_page < len(items):
        query = urlencode({"per_page": per_page, "cursor": str(start + per_page)})
        headers["Link"] = f'<{ctx.api}{ctx.path}?{query}>; rel="next"'
    return Reply(200, [_delivery(d) for d in chunk], headers)


@operation("apps/get-webhook-delivery")
def get_delivery(ctx: Ctx, delivery_id) -> Reply:
    for item in ctx.state.deliveries:
        if item.id == int(delivery_id):
            body = {**_delivery(item), "url": "", "request": {"headers": {}, "payload": {}},
                    "response": {"headers": {}, "payload": None}}
            return Reply(200, body)
    raise ApiError(404, NOT_FOUND)


@operation("apps/redeliver-webhook-delivery")
def redeliver(ctx: Ctx, delivery_id) -> Reply:
    if not any(d.id == int(delivery_id) for d in ctx.state.deliveries):
        raise ApiError(404, NOT_FOUND)
    ctx.state.redeliveries.append(int(delivery_id))
    return Reply(202, {})


@operation("rate-limit/get")
def rate_limit(ctx: Ctx) -> Reply:
    core = rate_numbers(ctx.state)
    resources = {"core": core, "search": {**core, "limit": 30, "remaining": 30, "used": 0},
                 "graphql": {**core, "limit": 5000}}
    return Reply(200, {"resources": resources, "rate": core})


def rate_numbers(state) -> dict:
    reset = int(state.clock()) + 3600
    return {"limit": 5000, "remaining": state.rate_remaining, "reset": reset,
            "used": 5000 - state.rate_remaining}


@operation("repos/get-collaborator-permission-level")
def permission(ctx: Ctx, owner: str, repo: str, username: str) -> Reply:
    found = ctx.repo(owner, repo)
    level, role = ctx.state.permission(found, username)
    person = {**shapes.user(ctx.api, username), "role_name": role,
              "permissions": {"admin": level.value == "admin", "maintain": level.value in ("admin", "maintain"),
                              "push": level.legacy in ("admin", "write"), "triage": level.value != "none",
                              "pull": level.value != "none"}}
    return Reply(200, {"permission": level.legacy, "role_name": role, "user": person})


@operation("teams/get-membership-for-user-in-org")
def team_membership(ctx: Ctx, org: str, team_slug: str, username: str) -> Reply:
    found = ctx.state.team_members.get((org.lower(), team_slug.lower(), username.lower()))
    if found is None:
        raise ApiError(404, NOT_FOUND, doc=f"{DOCS}/teams/members#get-team-membership-for-a-user")
    url = f"{ctx.api}/organizations/1/team/1/memberships/{username}"
    return Reply(200, {"url": url, **found})
