"""Comment endpoints: PR review comments and replies, issue comments."""
from __future__ import annotations

from . import anchors
from . import shapes_pulls as sp
from .handlers_issues import thread
from .handlers_pulls import author
from .ops import DOCS, NOT_FOUND, ApiError, Ctx, Reply, operation, paginate, require
from .records import IssueComment, Review, ReviewComment

COMMENT_DOC = f"{DOCS}/pulls/comments#create-a-review-comment-for-a-pull-request"


def review_comment(ctx: Ctx, owner: str, repo: str, comment_id) -> ReviewComment:
    found = ctx.state.review_comments.get(int(comment_id))
    if found is None or found.repo.lower() != ctx.repo(owner, repo).full_name.lower():
        raise ApiError(404, NOT_FOUND, doc=f"{DOCS}/pulls/comments#get-a-review-comment-for-a-pull-request")
    return found


def issue_comment(ctx: Ctx, owner: str, repo: str, comment_id) -> IssueComment:
    found = ctx.state.issue_comments.get(int(comment_id))
    if found is None or found.repo.lower() != ctx.repo(owner, repo).full_name.lower():
        raise ApiError(404, NOT_FOUND, doc=f"{DOCS}/issues/comments#get-an-issue-comment")
    return found


@operation("pulls/list-review-comments")
def list_review_comments(ctx: Ctx, owner: str, repo: str, pull_number) -> Reply:
    pr = ctx.pull(owner, repo, pull_number)
    items = sorted((c for c in ctx.state.review_comments.values()
                    if c.repo == pr.repo.full_name and c.pull_number == pr.number), key=lambda c: c.id)
    page = paginate(ctx, items)
    page.body = [sp.review_comment(ctx.api, c) for c in page.body]
    return page


def _new_review_comment(ctx: Ctx, pr, anchor, parent: ReviewComment | None, commit_id: str) -> Reply:
    login, kind = author(ctx)
    now = ctx.state.now()
    # A lone comment (or reply) still belongs to a review GitHub creates on the fly.
    review = Review(ctx.state.next_id(), pr.repo.full_name, pr.number, login, "", "COMMENTED",
                    commit_id, now)
    ctx.state.reviews[review.id] = review
    item = ReviewComment(ctx.state.next_id(), pr.repo.full_name, pr.number, review.id, login,
                         ctx.json("body"), anchor.path, commit_id, now, now, anchor.line, anchor.side,
                         anchor.start_line, anchor.start_side, anchor.position, anchor.diff_hunk,
                         anchor.subject_type, parent.id if parent else None, user_type=kind)
    ctx.state.review_comments[item.id] = item
    return Reply(201, sp.review_comment(ctx.api, item))


@operation("pulls/create-review-comment")
def create_review_comment(ctx: Ctx, owner: str, repo: str, pull_number) -> Reply:
    pr = ctx.pull(owner, repo, pull_number)
    parent_id = ctx.json("in_reply_to")
    if parent_id is not None:
        return _reply(ctx, pr, review_comment(ctx, owner, repo, parent_id))
    commit_id = ctx.json("commit_id") or pr.head_sha
    anchor = anchors.resolve(ctx.body, {f.filename: f for f in pr.files(commit_id)})
    require(not isinstance(anchor, str), 422, anchors.UNPROCESSABLE,
            errors=[anchor] if isinstance(anchor, str) else None, doc=COMMENT_DOC)
    return _new_review_comment(ctx, pr, anchor, None, commit_id)


def _reply(ctx: Ctx, pr, parent: ReviewComment) -> Reply:
    anchor = anchors.Anchor(parent.path, parent.subject_type, parent.line, parent.side,
                            parent.start_line, parent.start_side, parent.position, parent.diff_hunk)
    return _new_review_comment(ctx, pr, anchor, parent, parent.commit_id)


@operation("pulls/create-reply-for-review-comment")
def reply(ctx: Ctx, owner: str, repo: str, pull_number, comment_id) -> Reply:
    pr = ctx.pull(owner, repo, pull_number)
    parent = review_comment(ctx, owner, repo, comment_id)
    require(parent.pull_number == pr.number, 404, NOT_FOUND)
    return _reply(ctx, pr, parent)


@operation("pulls/get-review-comment")
def get_review_comment(ctx: Ctx, owner: str, repo: str, comment_id) -> Reply:
    return Reply(200, sp.review_comment(ctx.api, review_comment(ctx, owner, repo, comment_id)))


@operation("pulls/update-review-comment")
def update_review_comment(ctx: Ctx, owner: str, repo: str, comment_id) -> Reply:
    found = review_comment(ctx, owner, repo, comment_id)
    found.body = ctx.json("body")
    found.updated_at = found.last_edited_at = ctx.state.now()
    return Reply(200, sp.review_comment(ctx.api, found))


@operation("pulls/delete-review-comment")
def delete_review_comment(ctx: Ctx, owner: str, repo: str, comment_id) -> Reply:
    del ctx.state.review_comments[review_comment(ctx, owner, repo, comment_id).id]
    return Reply(204)


@operation("issues/list-comments")
def list_issue_comments(ctx: Ctx, owner: str, repo: str, issue_number) -> Reply:
    full_name, number = thread(ctx, owner, repo, issue_number)
    items = sorted((c for c in ctx.state.issue_comments.values()
                    if c.repo == full_name and c.issue_number == number), key=lambda c: c.id)
    page = paginate(ctx, items)
    page.body = [sp.issue_comment(ctx.api, c) for c in page.body]
    return page


@operation("issues/create-comment")
def create_issue_comment(ctx: Ctx, owner: str, repo: str, issue_number) -> Reply:
    full_name, number = thread(ctx, owner, repo, issue_number)
    login, kind = author(ctx)
    now = ctx.state.now()
    item = IssueComment(ctx.state.next_id(), full_name, number, login, ctx.json("body"),
                        now, now, user_type=kind)
    ctx.state.issue_comments[item.id] = item
    return Reply(201, sp.issue_comment(ctx.api, item))


@operation("issues/get-comment")
def get_issue_comment(ctx: Ctx, owner: str, repo: str, comment_id) -> Reply:
    return Reply(200, sp.issue_comment(ctx.api, issue_comment(ctx, owner, repo, comment_id)))


@operation("issues/update-comment")
def update_issue_comment(ctx: Ctx, owner: str, repo: str, comment_id) -> Reply:
    found = issue_comment(ctx, owner, repo, comment_id)
    found.body = ctx.json("body")
    found.updated_at = found.last_edited_at = ctx.state.now()
    return Reply(200, sp.issue_comment(ctx.api, found))


@operation("issues/delete-comment")
def delete_issue_comment(ctx: Ctx, owner: str, repo: str, comment_id) -> Reply:
    del ctx.state.issue_comments[issue_comment(ctx, owner, repo, comment_id).id]
    return Reply(204)
