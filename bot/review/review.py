"""Review a pull request's schema changes: the one pure function the event handlers call.

Pure: it reads only the FileChanges it is given (bot/gather/ fetched them) and the clock; the caller
hands in how to ask "is this job still wanted?" and how to time its stages.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import time
from dataclasses import replace
from datetime import datetime
from typing import Callable, ContextManager, Iterable, Mapping

from rules import Finding, Mode, Side
from rules.once import once

from bot.config.config import SCHEMA_INVALID, Classification, Config
from bot.render.model import Conclusion, FileComment, FileReview, InlineComment
from bot.review import moves
from bot.review.duplicate_types import duplicated
from bot.review.broken_users import blamed
from bot.lifecycle.since import History
from bot.review.change import DeferredHistory, FileChange, FileStatus
from bot.review.file_review import file_review, not_reviewed, review_file
from bot.review.result import ReviewResult, new_comments, stale_fingerprints, result_of

__all__ = ["FileStatus", "FileChange", "ReviewResult", "review", "new_comments",
           "stale_fingerprints", "Conclusion", "InlineComment", "FileComment", "FileReview"]

PULL_BUDGET_USED = ("the pull request's review time ({seconds:g} s, `SCHEMA_REVIEW_PULL_BUDGET`) was "
                    "used up by the files before it")
_budget = {"pull_seconds": 120.0}
OVER_LIMIT = "over the limit of {limit} schema files per pull request (`max_files`)"
USER_UNREVIEWED = 'the file "{user}", which uses it, was not reviewed: {problem}'
USERS_UNCHECKED = "files that use it could not all be checked: {problem}"
# GitHub lists at most 3,000 files of a pull request; the rest may hold schemas nobody checked.
UNLISTED_PATH = "(files GitHub did not list)"
# Files whose migrations the summary charts: each costs a history lookup on GitHub.
MAX_CHARTED = 20


def _wanted() -> None:
    """No job to cancel (the CLI, tests): the review runs to the end."""


def _untimed(_name: str) -> ContextManager:
    return contextlib.nullcontext()


def review(changes: Iterable[FileChange], config: Config, *, now: datetime,
           unlisted: str | None = None, history_of: Callable[[str], History] | None = None,
           checkpoint: Callable[[], None] = _wanted,
           timed: Callable[[str], ContextManager] = _untimed) -> ReviewResult:
    """Check every changed schema file and render what the App posts about them.

    `unlisted` says why some changed files were never listed (GitHub's listing caps): they
    were not reviewed, which fails the check like any unreviewed file. `history_of(base path)`
    reads a changed file's base-branch history, only when a rule asks for it (a changed file
    without one of its own). `checkpoint` raises when
    a newer push made the review pointless (asked between files); `timed(name)` times a stage.
    """
    files: list[FileReview] = []
    with timed("rules"):
        files += _reviewed(changes, config, now=now, history_of=history_of, checkpoint=checkpoint)
    if unlisted:
        files.append(FileReview(path=UNLISTED_PATH, format=None, mode=config.compatibility.mode,
                                findings=(not_reviewed(UNLISTED_PATH, unlisted),), problem=unlisted,
                                version=hashlib.sha256(unlisted.encode("utf-8")).hexdigest()[:16]))
    with timed("render"):
        return result_of(files)


def configure(*, pull_seconds: float) -> None:
    """SCHEMA_REVIEW_PULL_BUDGET: the seconds one push's files may take in all."""
    _budget["pull_seconds"] = pull_seconds


def _reviewed(changes: Iterable[FileChange], config: Config, *, now: datetime,
              history_of: Callable[[str], History] | None,
              checkpoint: Callable[[], None]) -> list[FileReview]:
    files: list[FileReview] = []
    # Changed file -> why a file using it was not reviewed: it fails (the gate fails closed).
    users_unchecked: dict[str, str] = {}
    counted = 0  # changed files (users are not counted)
    # A push may hold a queue worker this long, however many slow files it brings; and a newer
    # push stops it between files (checkpoint), so hostile pull requests cannot stall the rest.
    deadline = time.monotonic() + _budget["pull_seconds"]
    changes = list(changes)
    # Changed file -> the types another head file defines too; before pairing, so that two added
    # files taking a removed one's type are both new definitions of it, whichever is paired.
    twice = duplicated(changes, config.classify)
    changes = moves.paired(changes, config.classify)
    for change in changes:
        checkpoint()
        if history_of is not None and not change.context and not change.history:
            change = replace(change, history=DeferredHistory(
                functools.partial(history_of, change.previous_path or change.path)))
        if change.users_unchecked:
            users_unchecked.setdefault(change.path, USERS_UNCHECKED.format(problem=change.users_unchecked))
        classified = config.classify(change.path)
        before = config.classify(change.previous_path) if change.previous_path else None
        if classified is None and before is not None:
            # Renamed to a name the config does not review: to the reviewer it is a removal.
            classified, change = before, replace(change, head_text=None)
        elif classified is not None and before is not None:
            # Moved between paths with different modes: the stricter one (a move into a laxer
            # folder must not relax what the move itself may break).
            classified = _stricter(classified, before)
        if classified is None:
            continue  # not a schema file under this repository's config
        if change.context:
            # Not counted against max_files: filling it with changed files must not hide a
            # break that only a user shows (the users are bounded by bot/gather/users.py).
            if time.monotonic() > deadline:
                reviewed = file_review(change, classified,
                                 problem=PULL_BUDGET_USED.format(seconds=_budget["pull_seconds"]))
            else:
                reviewed = _context(change, classified, config, now=now)
            if reviewed is not None and reviewed.reviewed:
                files.append(reviewed)
            elif reviewed is not None:
                for path in change.uses:
                    users_unchecked.setdefault(path, USER_UNREVIEWED.format(
                        user=change.path, problem=reviewed.problem))
            continue
        counted += 1
        if counted > config.max_files:
            files.append(file_review(change, classified, problem=OVER_LIMIT.format(limit=config.max_files)))
        elif time.monotonic() > deadline:
            files.append(file_review(change, classified,
                               problem=PULL_BUDGET_USED.format(seconds=_budget["pull_seconds"])))
        else:
            files.append(review_file(change, classified, config, now=now,
                                      chart=counted <= MAX_CHARTED))
    return _rehomed(_users_failed(files, users_unchecked, twice))


def _users_failed(files: list[FileReview], problems: Mapping[str, str],
                  twice: Mapping[str, tuple[Finding, ...]]) -> list[FileReview]:
    """A changed file some of whose users were not reviewed is not known to be compatible; one
    defining a type another file defines too says so (bot/review/duplicate_types.py)."""
    out = []
    for file in files:
        problem = None if file.context or not file.reviewed else problems.get(file.path)
        added = (*(twice.get(file.path, ()) if not file.context and not file.removed else ()),
                 *((not_reviewed(file.path, problem),) if problem else ()))
        if added:
            findings = (*file.findings, *added)
            file = replace(file, findings=tuple(sorted(findings, key=lambda f: f.sort_key)))
        out.append(file)
    return out


def _stricter(a: Classification, b: Classification) -> Classification:
    mode = a.mode if a.mode == b.mode else Mode.FULL  # backward and forward together are full
    return Classification(a.format, mode, a.transitive or b.transitive)


def _context(change: FileChange, classified: Classification, config: Config, *,
             now: datetime) -> FileReview | None:
    """A user of a changed file, unchanged itself: only what the change makes of it counts.
    One already unusable with the base's files is left out (None); one that could not be
    reviewed is returned as such (the caller fails the changed files it uses)."""
    reviewed = review_file(change, classified, config, now=now)
    if not reviewed.reviewed:
        return reviewed
    if any(f.rule == SCHEMA_INVALID for f in reviewed.findings):
        before = replace(change, head_text=change.base_text, head_imports=change.base_imports,
                         head_withheld=change.base_withheld,
                         head_import_paths=change.base_import_paths)
        if any(f.rule == SCHEMA_INVALID for f in review_file(before, classified, config, now=now).findings):
            return None
        # Valid with the base's files, not with the head's: the change broke it; say which.
        return replace(reviewed, findings=blamed(reviewed.findings, SCHEMA_INVALID, change.uses))
    return reviewed


def _rehomed(files: list[FileReview]) -> list[FileReview]:
    """A finding located in another changed file of the pull request (a shared named type or
    `$ref` target) is shown with that file, on its own diff and lines: once, however many
    files use it, naming them (rules/once.py). One in a file the pull request does not change
    stays with its user. Files come in path order, as every rendering lists them."""
    by_path = {f.path: f for f in files if not f.removed}
    by_base = {f.base_path: f for f in files if f.base_path}
    moved: dict[str, list[tuple[str, Finding]]] = {}
    kept: dict[str, list[tuple[str, Finding]]] = {}
    for file in files:
        for finding in file.findings:
            home = (by_path if finding.side is Side.NEW else by_base).get(finding.file)
            if file.in_other_file(finding) and home is not None and home is not file:
                moved.setdefault(home.path, []).append((file.path, finding))
            else:  # its own (by its file's name), or one that stays with this user
                checked = file.path if file.in_other_file(finding) else finding.file
                kept.setdefault(file.path, []).append((checked, finding))
    out = []
    for file in sorted(files, key=lambda f: f.path):
        merged = tuple(once([*kept.get(file.path, ()), *moved.get(file.path, ())]))
        if merged != file.findings:
            file = replace(file, findings=merged)
        if file.context and file.reviewed and not file.findings:
            continue  # a user of a changed file that nothing breaks: not worth a line
        out.append(file)
    return out
