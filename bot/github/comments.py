"""The App's comments: review comments on the diff, pull request comments, reactions, minimizing."""
from __future__ import annotations

from bot.github import review_query
from bot.github.calls import RepoBase, operation
from bot.render.markdown import clip

MINIMIZE = """mutation($id: ID!) {
  minimizeComment(input: {subjectId: $id, classifier: OUTDATED}) { minimizedComment { isMinimized } }
}"""


class Comments(RepoBase):
    @operation("create_review")
    def create_review(self, pull, *, head_sha: str, body: str, comments: list[dict]):
        comments = [{**c, "body": clip(c["body"])} for c in comments]
        _headers, data = self._client.requester.requestJsonAndCheck(
            "POST", f"{self._repo.url}/pulls/{int(pull.number)}/reviews",
            input={"commit_id": head_sha, "body": clip(body), "event": "COMMENT", "comments": comments})
        return data

    @operation("create_file_comment")
    def create_file_comment(self, pull, *, head_sha: str, path: str, body: str):
        _headers, data = self._client.requester.requestJsonAndCheck(
            "POST", f"{self._repo.url}/pulls/{int(pull.number)}/comments",
            input={"body": clip(body), "commit_id": head_sha, "path": path, "subject_type": "file"})
        return data

    @operation("edit_review_comment")
    def edit_review_comment(self, comment_id: int, body: str) -> None:
        self._client.requester.requestJsonAndCheck(
            "PATCH", f"{self._repo.url}/pulls/comments/{int(comment_id)}", input={"body": clip(body)})

    @operation("review_comments", reads=True)
    def review_comments(self, number: int) -> list[review_query.Posted]:
        """The pull request's review comments that start a thread (the App's always do)."""
        return [_posted(c) for c in self._repo.get_pull(number).get_review_comments()
                if c.in_reply_to_id is None]

    @operation("issue_comments")
    def issue_comments(self, number: int) -> list[review_query.Posted]:
        return [_posted(c) for c in self._repo.get_issue(number).get_comments()]

    @operation("issue_comment", reads=True)
    def issue_comment(self, comment_id: int) -> dict | None:
        """One conversation comment as GitHub has it now; None when it was deleted."""
        return self._get_json(f"{self._repo.url}/issues/comments/{int(comment_id)}")

    @operation("comment")
    def comment(self, number: int, body: str):
        return self._repo.get_issue(number).create_comment(clip(body))

    @operation("edit_comment")
    def edit_comment(self, comment_id: int, body: str) -> None:
        self._client.requester.requestJsonAndCheck(
            "PATCH", f"{self._repo.url}/issues/comments/{int(comment_id)}", input={"body": clip(body)})

    @operation("react")
    def react(self, comment_id: int, content: str) -> None:
        self._client.requester.requestJsonAndCheck(
            "POST", f"{self._repo.url}/issues/comments/{int(comment_id)}/reactions", input={"content": content})

    @operation("minimize")
    def minimize(self, node_id: str) -> None:
        self._graphql(MINIMIZE, {"id": node_id})


def _posted(comment) -> review_query.Posted:
    user = comment.user
    return review_query.Posted(id=comment.id, node_id=comment.node_id or "", body=comment.body or "",
                               login=user.login if user else "", is_bot=bool(user and user.type == "Bot"),
                               created_at=comment.created_at.isoformat() if comment.created_at else "",
                               edited=comment.updated_at != comment.created_at)
