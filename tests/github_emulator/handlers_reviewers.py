"""Review requests: `POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers`.

As GitHub answers it: a user must be a collaborator, a team must have access to the repository
(`GitHubEmulator.grant_team`), the author can never be asked; one reviewer it cannot request
refuses the whole request (422) and requests nobody.
"""
from __future__ import annotations

from . import shapes_pulls as sp
from .shapes import user
from .ops import DOCS, Ctx, Reply, operation, require
from .records import Permission

DOC = f"{DOCS}/pulls/review-requests#request-reviewers-for-a-pull-request"
NOT_COLLABORATOR = ("Reviews may only be requested from collaborators. One or more of the users or "
                    "teams you specified is not a collaborator of the {repo} repository.")
AUTHOR = "Review cannot be requested from pull request author."


@operation("pulls/request-reviewers")
def request_reviewers(ctx: Ctx, owner: str, repo: str, pull_number) -> Reply:
    pr = ctx.pull(owner, repo, pull_number)
    users = list(ctx.json("reviewers") or [])
    teams = list(ctx.json("team_reviewers") or [])
    require(pr.user.lower() not in {u.lower() for u in users}, 422, AUTHOR, doc=DOC)
    key = pr.repo.full_name.lower()
    strangers = [u for u in users if ctx.state.permission(pr.repo, u)[0] is Permission.NONE]
    hidden = [t for t in teams if (key, t.lower()) not in ctx.state.repo_teams]
    require(not strangers and not hidden, 422, NOT_COLLABORATOR.format(repo=pr.repo.full_name), doc=DOC)
    requested = ctx.state.requested.setdefault((key, pr.number), {"users": [], "teams": []})
    for kind, names in (("users", users), ("teams", teams)):
        requested[kind] += [n for n in names if n.lower() not in {m.lower() for m in requested[kind]}]
    body = sp.pull(ctx.api, pr)
    body["requested_reviewers"] = [user(ctx.api, u) for u in requested["users"]]
    body["requested_teams"] = [sp.team(ctx.api, pr.repo.owner, t) for t in requested["teams"]]
    return Reply(201, body)
