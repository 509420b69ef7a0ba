"""What a review produced, rendered for GitHub: the conclusion, the check run's text, the comments
placed on the diff, and the fingerprints of every finding (to update earlier comments)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from rules import Finding, Severity

from bot.render import check_run
from bot.render.comments import place
from bot.render.fingerprint import of as fingerprint_of
from bot.render.model import Comment, Conclusion, FileComment, FileReview, InlineComment


@dataclass(frozen=True)
class ReviewResult:
    conclusion: Conclusion
    title: str
    summary: str
    text: str
    annotations: tuple[dict, ...]
    comments: tuple[Comment, ...]
    fingerprints: frozenset[str]  # of every current finding, placed inline or not
    files: tuple[FileReview, ...]

    @property
    def inline_comments(self) -> list[InlineComment]:
        return [c for c in self.comments if isinstance(c, InlineComment)]

    @property
    def file_comments(self) -> list[FileComment]:
        return [c for c in self.comments if isinstance(c, FileComment)]

    @property
    def findings(self) -> dict[str, tuple[Finding, ...]]:
        return {file.path: file.findings for file in self.files}


def result_of(files: Sequence[FileReview]) -> ReviewResult:
    """Render the reviewed files: check run text, annotations and the comments to place."""
    comments, not_inline, fingerprints = _place(files)
    return ReviewResult(conclusion=_conclusion(files), title=check_run.title(files),
                        summary=check_run.summary(files, not_inline=not_inline),
                        text=check_run.text(files),
                        annotations=tuple(check_run.annotations(files)),
                        comments=tuple(comments), fingerprints=frozenset(fingerprints),
                        files=tuple(files))


def new_comments(result: ReviewResult, already_posted: Iterable[str]) -> list[Comment]:
    """The comments to post: findings not already commented on by an earlier run."""
    posted = set(already_posted)
    return [comment for comment in result.comments if comment.fingerprint not in posted]


def stale_fingerprints(result: ReviewResult, posted: Iterable[str]) -> set[str]:
    """Fingerprints of our earlier comments whose findings are gone (to minimize them)."""
    return set(posted) - result.fingerprints


def _place(files: Sequence[FileReview]) -> tuple[list[Comment], list, list[str]]:
    comments: list[Comment] = []
    not_inline: list[tuple[FileReview, Finding]] = []
    fingerprints: dict[str, None] = {}  # ordered, and O(1) to look up
    for file in files:
        for finding in file.findings:
            value = fingerprint_of(finding, file)
            if value in fingerprints:
                continue  # the same rule on the same element (old and new side): one comment
            fingerprints[value] = None
            if not file.reviewed:
                continue  # listed in the check run's files table: a comment each would be spam
            comment = place(finding, file=file, fingerprint=value)
            if comment is not None:
                comments.append(comment)
            if not isinstance(comment, InlineComment):
                not_inline.append((file, finding))
    return comments, not_inline, list(fingerprints)


def _conclusion(files: Sequence[FileReview]) -> Conclusion:
    # An unreviewed file carries a SCHEMA_NOT_REVIEWED error, so it fails here too (fail closed).
    if any(f.severity is Severity.ERROR for file in files for f in file.findings):
        return Conclusion.FAILURE
    return Conclusion.SUCCESS
