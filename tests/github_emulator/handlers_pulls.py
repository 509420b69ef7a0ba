"""Pull request endpoints: pulls, their files and commits, and reviews."""
from __future__ import annotations

from . import anchors, shapes
from . import shapes_pulls as sp
from .ops import DOCS, NOT_FOUND, ApiError, Ctx, Reply, operation, paginate, require
from .records import Review, ReviewComment

REVIEW_STATES = {"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED"}
COMMIT_NOT_IN_PULL = "The commitOID is not part of the pull request"
ONE_PENDING_REVIEW = "User can only have one pending review per pull request"
PENDING_ONLY = "Can not {verb} a non-pending pull request review"


def author(ctx: Ctx) -> tuple[str, str]:
    """Who is acting: the App's bot user for installation tokens (the only way the bot writes)."""
    return ctx.state.bot_login, "Bot"


@operation("pulls/list")
def list_pulls(ctx: Ctx, owner: str, repo: str) -> Reply:
    found = ctx.repo(owner, repo)
    wanted = ctx.query.get("state") or "open"
    items = [p for (key, _), p in sorted(ctx.state.pulls.items()) if key == found.full_name.lower()
             and wanted in ("all", p.state)
             and ctx.query.get("base") in (None, p.base)
             and ctx.query.get("head") in (None, p.head, f"{found.owner}:{p.head}")]
    page = paginate(ctx, items)
    page.body = [sp.pull(ctx.api, p) for p in page.body]
    return page


@operation("pulls/get")
def get_pull(ctx: Ctx, owner: str, repo: str, pull_number) -> Reply:
    return Reply(200, sp.pull(ctx.api, ctx.pull(owner, repo, pull_number)))


@operation("pulls/list-files")
def list_files(ctx: Ctx, owner: str, repo: str, pull_number) -> Reply:
    pr = ctx.pull(owner, repo, pull_number)
    head = pr.head_sha
    return paginate(ctx, [shapes.diff_entry(ctx.api, pr.repo, head, f) for f in pr.files(head)])


@operation("pulls/list-commits")
def list_pull_commits(ctx: Ctx, owner: str, repo: str, pull_number) -> Reply:
    pr = ctx.pull(owner, repo, pull_number)
    page = paginate(ctx, pr.commits())
    page.body = [shapes.commit(ctx.api, pr.repo, sha) for sha in page.body]
    return page


@operation("pulls/create-review")
def create_review(ctx: Ctx, owner: str, repo: str, pull_number) -> Reply:
    pr = ctx.pull(owner, repo, pull_number)
    login, kind = author(ctx)
    commit_id = ctx.json("commit_id") or pr.head_sha
    require(commit_id in pr.commits(), 422, anchors.UNPROCESSABLE, errors=[COMMIT_NOT_IN_PULL],
            doc=anchors.REVIEW_DOC)
    event = ctx.json("event")
    pending = [r for r in _reviews(ctx, pr) if r.state == "PENDING" and r.user == login]
    require(event or not pending, 422, anchors.UNPROCESSABLE, errors=[ONE_PENDING_REVIEW],
            doc=anchors.REVIEW_DOC)
    files = {f.filename: f for f in pr.files(commit_id)}
    resolved = [anchors.resolve(c, files) for c in ctx.json("comments") or []]
    problems = [r for r in resolved if isinstance(r, str)]
    # GitHub creates a review all-or-nothing: one unanchorable comment rejects the whole review.
    require(not problems, 422, anchors.UNPROCESSABLE, errors=[anchors.sentence(problems)],
            doc=anchors.REVIEW_DOC)
    now = ctx.state.now()
    review = Review(ctx.state.next_id(), pr.repo.full_name, pr.number, login, ctx.json("body") or "",
                    REVIEW_STATES.get(event, "PENDING"), commit_id, now if event else None)
    ctx.state.reviews[review.id] = review
    for anchor, comment in zip(resolved, ctx.json("comments") or []):
        item = ReviewComment(ctx.state.next_id(), pr.repo.full_name, pr.number, review.id, login,
                             comment["body"], anchor.path, commit_id, now, now, anchor.line,
                             anchor.side, anchor.start_line, anchor.start_side, anchor.position,
                             anchor.diff_hunk, anchor.subject_type, user_type=kind)
        ctx.state.review_comments[item.id] = item
    return Reply(200, sp.review(ctx.api, review, kind))


def _reviews(ctx: Ctx, pr) -> list[Review]:
    return [r for r in ctx.state.reviews.values()
            if r.repo == pr.repo.full_name and r.pull_number == pr.number]


def _review(ctx: Ctx, owner, repo, pull_number, review_id) -> Review:
    pr = ctx.pull(owner, repo, pull_number)
    found = ctx.state.reviews.get(int(review_id))
    if found is None or found.repo != pr.repo.full_name or found.pull_number != pr.number:
        raise ApiError(404, NOT_FOUND, doc=f"{DOCS}/pulls/reviews#get-a-review-for-a-pull-request")
    return found


def _kind(ctx: Ctx, login: str) -> str:
    return "Bot" if login.endswith("[bot]") else "User"


@operation("pulls/list-reviews")
def list_reviews(ctx: Ctx, owner: str, repo: str, pull_number) -> Reply:
    page = paginate(ctx, sorted(_reviews(ctx, ctx.pull(owner, repo, pull_number)), key=lambda r: r.id))
    page.body = [sp.review(ctx.api, r, _kind(ctx, r.user)) for r in page.body]
    return page


@operation("pulls/get-review")
def get_review(ctx: Ctx, owner: str, repo: str, pull_number, review_id) -> Reply:
    found = _review(ctx, owner, repo, pull_number, review_id)
    return Reply(200, sp.review(ctx.api, found, _kind(ctx, found.user)))


@operation("pulls/update-review")
def update_review(ctx: Ctx, owner: str, repo: str, pull_number, review_id) -> Reply:
    found = _review(ctx, owner, repo, pull_number, review_id)
    found.body = ctx.json("body")
    return Reply(200, sp.review(ctx.api, found, _kind(ctx, found.user)))


@operation("pulls/submit-review")
def submit_review(ctx: Ctx, owner: str, repo: str, pull_number, review_id) -> Reply:
    found = _review(ctx, owner, repo, pull_number, review_id)
    require(found.state == "PENDING", 422, PENDING_ONLY.format(verb="submit"))
    found.state, found.submitted_at = REVIEW_STATES[ctx.json("event")], ctx.state.now()
    found.body = ctx.json("body", found.body)
    return Reply(200, sp.review(ctx.api, found, _kind(ctx, found.user)))


@operation("pulls/delete-pending-review")
def delete_pending_review(ctx: Ctx, owner: str, repo: str, pull_number, review_id) -> Reply:
    found = _review(ctx, owner, repo, pull_number, review_id)
    require(found.state == "PENDING", 422, PENDING_ONLY.format(verb="delete"))
    del ctx.state.reviews[found.id]
    for key in [k for k, c in ctx.state.review_comments.items() if c.review_id == found.id]:
        del ctx.state.review_comments[key]
    return Reply(200, sp.review(ctx.api, found, _kind(ctx, found.user)))


@operation("pulls/dismiss-review")
def dismiss_review(ctx: Ctx, owner: str, repo: str, pull_number, review_id) -> Reply:
    found = _review(ctx, owner, repo, pull_number, review_id)
    found.state = "DISMISSED"
    return Reply(200, sp.review(ctx.api, found, _kind(ctx, found.user)))


@operation("pulls/list-comments-for-review")
def list_review_comments_of_review(ctx: Ctx, owner: str, repo: str, pull_number, review_id) -> Reply:
    found = _review(ctx, owner, repo, pull_number, review_id)
    items = sorted((c for c in ctx.state.review_comments.values() if c.review_id == found.id),
                   key=lambda c: c.id)
    page = paginate(ctx, items)
    page.body = [sp.review_comment(ctx.api, c) for c in page.body]
    return page
