"""JSON for pull requests, reviews, comments, reactions and check runs, shaped like GitHub's."""
from __future__ import annotations

from .records import CheckRun, IssueComment, Reaction, Review, ReviewComment
from .repos import PullRequest
from .shapes import _web, app, repository, user, user_id

OMITTED_WHEN_NULL = {"position", "original_position", "in_reply_to_id", "line", "original_line", "side"}


def pull(api: str, pr: PullRequest) -> dict:
    repo = pr.repo
    base = f"{api}/repos/{repo.full_name}"
    html = f"{_web(api)}/{repo.full_name}/pull/{pr.number}"
    files = pr.files()
    side = lambda ref, sha: {"label": f"{repo.owner}:{ref}", "ref": ref, "sha": sha,
                             "user": user(api, repo.owner), "repo": repository(api, repo)}
    return {"id": pr.id, "node_id": f"PR_emu{pr.id}", "number": pr.number, "state": pr.state,
            "title": pr.title, "body": pr.body or None, "user": user(api, pr.user), "draft": pr.draft,
            "locked": False, "url": f"{base}/pulls/{pr.number}", "html_url": html,
            "diff_url": html + ".diff", "patch_url": html + ".patch",
            "issue_url": f"{base}/issues/{pr.number}", "commits_url": f"{base}/pulls/{pr.number}/commits",
            "review_comments_url": f"{base}/pulls/{pr.number}/comments",
            "review_comment_url": f"{base}/pulls/comments{{/number}}",
            "comments_url": f"{base}/issues/{pr.number}/comments",
            "statuses_url": f"{base}/statuses/{pr.head_sha}",
            "head": side(pr.head, pr.head_sha), "base": side(pr.base, pr.base_sha),
            "created_at": pr.created_at, "updated_at": pr.merged_at or pr.created_at,
            "closed_at": pr.merged_at, "merged_at": pr.merged_at,
            "merge_commit_sha": pr.merge_commit_sha, "merged": pr.merged, "mergeable": True,
            "labels": [{"name": n} for n in pr.labels], "author_association": "MEMBER",
            "commits": len(pr.commits()), "changed_files": len(files),
            "additions": sum(f.additions for f in files), "deletions": sum(f.deletions for f in files),
            "_links": {k: {"href": v} for k, v in (("self", f"{base}/pulls/{pr.number}"), ("html", html))}}


def team(api: str, org: str, slug: str) -> dict:
    """A team as a review request lists it (the filler adds the fields that carry no meaning here)."""
    return {"id": user_id(f"{org}/{slug}"), "node_id": f"T_emu{slug}", "name": slug, "slug": slug,
            "description": None, "permission": "push", "type": "organization", "parent": None,
            "url": f"{api}/orgs/{org}/teams/{slug}", "html_url": f"{_web(api)}/orgs/{org}/teams/{slug}",
            "members_url": f"{api}/orgs/{org}/teams/{slug}/members{{/member}}",
            "repositories_url": f"{api}/orgs/{org}/teams/{slug}/repos"}


def review(api: str, item: Review, kind: str) -> dict:
    html = f"{_web(api)}/{item.repo}/pull/{item.pull_number}"
    return {"id": item.id, "node_id": f"PRR_emu{item.id}", "user": user(api, item.user, kind),
            "body": item.body, "state": item.state, "commit_id": item.commit_id,
            "html_url": f"{html}#pullrequestreview-{item.id}", "author_association": "NONE",
            "pull_request_url": f"{api}/repos/{item.repo}/pulls/{item.pull_number}",
            "submitted_at": item.submitted_at,
            "_links": {"html": {"href": html}, "pull_request": {"href": html}}}


def review_comment(api: str, item: ReviewComment) -> dict:
    html = f"{_web(api)}/{item.repo}/pull/{item.pull_number}#discussion_r{item.id}"
    url = f"{api}/repos/{item.repo}/pulls/comments/{item.id}"
    pull_url = f"{api}/repos/{item.repo}/pulls/{item.pull_number}"
    out = {"id": item.id, "node_id": item.node_id, "pull_request_review_id": item.review_id,
            "url": url, "html_url": html, "pull_request_url": pull_url, "diff_hunk": item.diff_hunk,
            "path": item.path, "position": item.position, "original_position": item.position,
            "commit_id": item.commit_id, "original_commit_id": item.commit_id,
            "in_reply_to_id": item.in_reply_to_id, "user": user(api, item.user, item.user_type),
            "body": item.body, "created_at": item.created_at, "updated_at": item.updated_at,
            "author_association": "NONE", "line": item.line, "original_line": item.line,
            "side": item.side, "start_line": item.start_line, "original_start_line": item.start_line,
            "start_side": item.start_side, "subject_type": item.subject_type,
            "_links": {"self": {"href": url}, "html": {"href": html}, "pull_request": {"href": pull_url}}}
    # GitHub leaves these keys out rather than sending null (file-level comments, non-replies).
    return {k: v for k, v in out.items() if v is not None or k not in OMITTED_WHEN_NULL}


def issue_comment(api: str, item: IssueComment) -> dict:
    html = f"{_web(api)}/{item.repo}/pull/{item.issue_number}#issuecomment-{item.id}"
    return {"id": item.id, "node_id": item.node_id, "body": item.body, "html_url": html,
            "url": f"{api}/repos/{item.repo}/issues/comments/{item.id}",
            "issue_url": f"{api}/repos/{item.repo}/issues/{item.issue_number}",
            "user": user(api, item.user, item.user_type), "created_at": item.created_at,
            "updated_at": item.updated_at, "author_association": "MEMBER"}


def reaction(api: str, item: Reaction) -> dict:
    return {"id": item.id, "node_id": f"REA_emu{item.id}", "content": item.content,
            "user": user(api, item.user, item.user_type), "created_at": item.created_at}


def check_run(api: str, run: CheckRun, *, app_id: int, slug: str) -> dict:
    url = f"{api}/repos/{run.repo}/check-runs/{run.id}"
    output = {"title": run.output.get("title"), "summary": run.output.get("summary"),
              "text": run.output.get("text"), "annotations_count": len(run.annotations),
              "annotations_url": f"{url}/annotations"}
    return {"id": run.id, "node_id": f"CR_emu{run.id}", "name": run.name, "head_sha": run.head_sha,
            "external_id": run.external_id, "url": url, "details_url": run.details_url,
            "html_url": f"{_web(api)}/{run.repo}/runs/{run.id}", "status": run.status,
            "conclusion": run.conclusion, "started_at": run.started_at,
            "completed_at": run.completed_at, "output": output, "check_suite": {"id": run.id},
            "app": app(api, app_id, slug), "pull_requests": []}


def annotation(item: dict) -> dict:
    out = {"path": item["path"], "start_line": item["start_line"], "end_line": item["end_line"],
           "start_column": item.get("start_column"), "end_column": item.get("end_column"),
           "annotation_level": item["annotation_level"], "title": item.get("title"),
           "message": item["message"], "raw_details": item.get("raw_details"), "blob_href": ""}
    return out
