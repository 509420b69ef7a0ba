"""Post only what is new, and mark comments on findings that are gone as resolved."""
from __future__ import annotations

import logging

from github import GithubException

from bot.render.fingerprint import found_in
from bot.render.escape import code
from bot.render.markdown import MAX_OUTPUT, clip
from bot.render.model import FileComment, InlineComment
from bot.review.review import ReviewResult, new_comments, stale_fingerprints
from bot.github.review_query import Posted

log = logging.getLogger("schema_review.publish")

RESOLVED_MARKER = "<!-- schema-review:resolved -->"
RESOLVED_NOTE = "\n\n---\n✅ Resolved in {sha}: this finding no longer appears.\n" + RESOLVED_MARKER
REVIEW_BODY = "schema-review found {count} new issue(s) in this push; the `schema-review` check has the full list."
MORE_NEXT_TIME = (" {more} more are listed in the check only: at most {limit} comments are posted "
                  "per push (the rest follow on later pushes if they remain).")
# Writes per push are bounded, whatever a pull request holds: GitHub's rate limit is shared by
# every repository of the installation, and its secondary limits on content creation are lower.
MAX_NEW_COMMENTS = 50  # inline ones go in one review request; file comments cost one each
MAX_RESOLVED = 25  # each costs two requests (minimize, mark resolved); the rest on later pushes
UNPLACEABLE = "\n\n<details><summary>Comments GitHub would not place inline</summary>\n\n{bodies}\n</details>"


def publish_comments(repo, pull, result: ReviewResult, *, head_sha: str, bot_login: str,
                     threads: list[Posted] | None = None) -> None:
    """One review per head with the new inline comments; stale ones minimized, then marked.

    `threads` are the first comments of the pull request's review threads, when the caller's
    review state query has them already (the App's comments always start their thread)."""
    if threads is None:
        threads = repo.review_comments(pull.number)
    # Only the App's own comments count: anyone (another App too) can paste a marker into theirs.
    ours = [c for c in threads if found_in(c.body) and c.is_bot and c.login == bot_login]
    # Resolved only when the App's own note ends the body (a suggestion may quote the marker).
    active = {found_in(c.body): c for c in ours if not (c.body or "").rstrip().endswith(RESOLVED_MARKER)}
    fresh = new_comments(result, active)
    posted, later = fresh[:MAX_NEW_COMMENTS], len(fresh) - MAX_NEW_COMMENTS
    inline = [c for c in posted if isinstance(c, InlineComment)]
    if inline:
        _create_review(repo, pull, head_sha, inline, more=max(later, 0))
    for comment in (c for c in posted if isinstance(c, FileComment)):
        repo.create_file_comment(pull, head_sha=head_sha, path=comment.path, body=comment.body)
    for fingerprint in sorted(stale_fingerprints(result, active))[:MAX_RESOLVED]:
        comment = active[fingerprint]
        repo.minimize(comment.node_id)
        note = RESOLVED_NOTE.format(sha=head_sha[:7])
        repo.edit_review_comment(comment.id, clip(comment.body, limit=MAX_OUTPUT - len(note.encode("utf-8"))) + note)


def _create_review(repo, pull, head_sha: str, inline: list[InlineComment], *, more: int = 0) -> None:
    body = REVIEW_BODY.format(count=len(inline))
    if more:
        body += MORE_NEXT_TIME.format(more=more, limit=MAX_NEW_COMMENTS)
    try:
        repo.create_review(pull, head_sha=head_sha, body=body, comments=[c.to_github() for c in inline])
    except GithubException as error:
        if error.status != 422:
            raise
        # The diff moved under us (a push between listing files and posting): GitHub rejects the
        # whole review, so fall back to one review whose body carries every comment.
        log.warning("review rejected (422); posting comments in the review body")
        bodies = "\n\n---\n\n".join(f"{code(c.path)} line {c.line}:\n\n{c.body}" for c in inline)
        repo.create_review(pull, head_sha=head_sha, body=body + UNPLACEABLE.format(bodies=bodies), comments=[])
