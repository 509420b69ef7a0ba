"""Labels on pull requests and reactions on issue and review comments."""
from __future__ import annotations

from . import shapes_pulls as sp
from .handlers_comments import issue_comment, review_comment
from .handlers_pulls import author
from .ops import NOT_FOUND, Ctx, Reply, operation, paginate, require
from .records import Reaction


@operation("issues/list-labels-on-issue")
def list_labels(ctx: Ctx, owner: str, repo: str, issue_number) -> Reply:
    pr = ctx.pull(owner, repo, issue_number)
    return paginate(ctx, [_label(ctx, pr, n) for n in pr.labels])


@operation("issues/add-labels")
def add_labels(ctx: Ctx, owner: str, repo: str, issue_number) -> Reply:
    pr = ctx.pull(owner, repo, issue_number)
    names = ctx.json("labels") if isinstance(ctx.body, dict) else ctx.body
    for name in names or []:
        name = name["name"] if isinstance(name, dict) else name
        if name not in pr.labels:
            pr.labels.append(name)
    return Reply(200, [_label(ctx, pr, n) for n in pr.labels])


@operation("issues/remove-label")
def remove_label(ctx: Ctx, owner: str, repo: str, issue_number, name: str) -> Reply:
    pr = ctx.pull(owner, repo, issue_number)
    require(name in pr.labels, 404, "Label does not exist")
    pr.labels.remove(name)
    return Reply(200, [_label(ctx, pr, n) for n in pr.labels])


def _label(ctx: Ctx, pr, name: str) -> dict:
    return {"id": abs(hash(name)) % 10**8, "node_id": f"LA_emu{name}", "name": name, "color": "ededed",
            "default": False, "description": None,
            "url": f"{ctx.api}/repos/{pr.repo.full_name}/labels/{name}"}


def _react(ctx: Ctx, subject: str, comment_id: int) -> Reply:
    login, kind = author(ctx)
    content = ctx.json("content")
    for item in ctx.state.reactions.values():
        # The same reaction twice is not an error on GitHub: it answers 200 with the first one.
        if (item.subject, item.comment_id, item.user, item.content) == (subject, comment_id, login, content):
            return Reply(200, sp.reaction(ctx.api, item))
    item = Reaction(ctx.state.next_id(), subject, comment_id, login, content, ctx.state.now(), kind)
    ctx.state.reactions[item.id] = item
    return Reply(201, sp.reaction(ctx.api, item))


def _reactions(ctx: Ctx, subject: str, comment_id: int) -> Reply:
    items = [r for r in ctx.state.reactions.values() if (r.subject, r.comment_id) == (subject, comment_id)
             and ctx.query.get("content") in (None, r.content)]
    page = paginate(ctx, sorted(items, key=lambda r: r.id))
    page.body = [sp.reaction(ctx.api, r) for r in page.body]
    return page


@operation("reactions/create-for-issue-comment")
def react_issue_comment(ctx: Ctx, owner: str, repo: str, comment_id) -> Reply:
    return _react(ctx, "issue_comment", issue_comment(ctx, owner, repo, comment_id).id)


@operation("reactions/list-for-issue-comment")
def list_issue_comment_reactions(ctx: Ctx, owner: str, repo: str, comment_id) -> Reply:
    return _reactions(ctx, "issue_comment", issue_comment(ctx, owner, repo, comment_id).id)


@operation("reactions/delete-for-issue-comment")
def delete_issue_comment_reaction(ctx: Ctx, owner: str, repo: str, comment_id, reaction_id) -> Reply:
    issue_comment(ctx, owner, repo, comment_id)
    require(ctx.state.reactions.pop(int(reaction_id), None) is not None, 404, NOT_FOUND)
    return Reply(204)


@operation("reactions/create-for-pull-request-review-comment")
def react_review_comment(ctx: Ctx, owner: str, repo: str, comment_id) -> Reply:
    return _react(ctx, "review_comment", review_comment(ctx, owner, repo, comment_id).id)


@operation("reactions/list-for-pull-request-review-comment")
def list_review_comment_reactions(ctx: Ctx, owner: str, repo: str, comment_id) -> Reply:
    return _reactions(ctx, "review_comment", review_comment(ctx, owner, repo, comment_id).id)
