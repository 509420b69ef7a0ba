"""Review a pull request's schema changes: the one pure function the event handlers call."""
from __future__ import annotations

import enum
import hashlib
import time
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Iterable, Mapping, Sequence

import rules
from rules import Finding, Mode, SchemaError, Severity, Side, Source

from . import deprecation, migrations, moves, promotion
from .broken_users import blamed
from .jobs import checkpoint
from .config import (SCHEMA_FILE_REMOVED, SCHEMA_INVALID, SCHEMA_NOT_REVIEWED, SCHEMA_REVIEW_BUDGET,
                     Classification, Config)
from .diff_lines import parse_patch
from .fingerprint import of as fingerprint_of
from .render import check_run
from .render.comments import place
from .since import History
from .stages import stage
from .render.model import Comment, Conclusion, FileComment, FileReview, InlineComment

__all__ = ["FileStatus", "FileChange", "ReviewResult", "review", "new_comments",
           "stale_fingerprints", "Conclusion", "InlineComment", "FileComment", "FileReview"]

REMOVED = "The schema file was removed."
BASE_UNUSABLE = "the base version cannot be read ({problem})"
UNREADABLE = "the {side} version is unusable ({problem})"
PULL_BUDGET_USED = ("the pull request's review time ({seconds:g} s, `SCHEMA_REVIEW_PULL_BUDGET`) was "
                    "used up by the files before it")
_budget = {"pull_seconds": 120.0}
OVER_LIMIT = "over the limit of {limit} schema files per pull request (`max_files`)"
OVER_BUDGET = "The file {problem}, so it is not known to be compatible."
NOT_REVIEWED = "The file was not reviewed: {problem}. It is not known to be compatible."
USER_UNREVIEWED = 'the file "{user}", which uses it, was not reviewed: {problem}'
USERS_UNCHECKED = "files that use it could not all be checked: {problem}"
# GitHub lists at most 3,000 files of a pull request; the rest may hold schemas nobody checked.
UNLISTED_PATH = "(files GitHub did not list)"
# Files whose migrations the summary charts: each costs a history lookup on GitHub.
MAX_CHARTED = 20
OLDER_SKIPPED = ('Version {sha} of "{path}" could not be read and was left out of the transitive '
                 "check: {problem}")


class FileStatus(enum.StrEnum):
    """A pull request file's `status`, as the files API reports it."""

    ADDED = "added"
    MODIFIED = "modified"
    REMOVED = "removed"
    RENAMED = "renamed"
    COPIED = "copied"
    CHANGED = "changed"
    UNCHANGED = "unchanged"


@dataclass(frozen=True)
class FileChange:
    """One changed file: the files API's fields plus both versions' text, fetched by the caller.

    Texts may be bytes (checked for size, binary and UTF-8 here) or str; None when the version
    does not exist. `history` is (sha, ISO date, text[, clock]) of the file's versions on the
    base branch (bot/since.py), newest first, normally starting with the base itself; it may be
    empty.
    """

    path: str
    status: FileStatus | str
    previous_path: str | None = None
    patch: str | None = None
    base_text: str | bytes | None = None
    head_text: str | bytes | None = None
    base_imports: Mapping[str, str] = field(default_factory=dict)
    head_imports: Mapping[str, str] = field(default_factory=dict)
    # JSON Schema: files a `$ref` may name that were not fetched, path -> why (Source.withheld)
    base_withheld: Mapping[str, str] = field(default_factory=dict)
    head_withheld: Mapping[str, str] = field(default_factory=dict)
    history: History = ()
    problem: str | None = None  # set by the caller when a version could not be fetched usably
    # The versions' git blob ids when known: the content's identity even when it was too large
    # to fetch (whole-file findings, and so overrides of them, are bound to it).
    blob_ids: tuple[str, str] = ("", "")
    # protobuf: the buf modules around the file at the base (rules.protobuf.bufyaml.Layout):
    # their `breaking:` section applies beneath the config; None: no buf files were looked for
    buf_layout: object | None = None
    # Not changed by the pull request: it uses changed Avro or JSON Schema files, or imports a
    # .proto file it removes, and is checked between their base and head versions
    # (bot/schemaset.py, bot/proto_users.py) to show what breaks.
    context: bool = False
    # context: the changed files it uses; if it cannot be reviewed, they are not known to pass.
    uses: tuple[str, ...] = ()
    # changed: why files that may use it could not all be checked (bot/schemaset.py), if so.
    users_unchecked: str | None = None


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


def review(changes: Iterable[FileChange], config: Config, *, now: datetime,
           unlisted: str | None = None) -> ReviewResult:
    """Check every changed schema file and render what the App posts about them.

    `unlisted` says why some changed files were never listed (GitHub's listing caps): they
    were not reviewed, which fails the check like any unreviewed file.
    """
    files: list[FileReview] = []
    with stage("rules"):
        files += _reviewed(changes, config, now=now)
    if unlisted:
        files.append(FileReview(path=UNLISTED_PATH, format=None, mode=config.compatibility.mode,
                                findings=(_not_reviewed(UNLISTED_PATH, unlisted),), problem=unlisted,
                                version=hashlib.sha256(unlisted.encode("utf-8")).hexdigest()[:16]))
    with stage("render"):
        comments, not_inline, fingerprints = _place(files)
        return ReviewResult(conclusion=_conclusion(files), title=check_run.title(files),
                            summary=check_run.summary(files, not_inline=not_inline),
                            text=check_run.text(files),
                            annotations=tuple(check_run.annotations(files)),
                            comments=tuple(comments), fingerprints=frozenset(fingerprints),
                            files=tuple(files))


def configure(*, pull_seconds: float) -> None:
    """SCHEMA_REVIEW_PULL_BUDGET: the seconds one push's files may take in all."""
    _budget["pull_seconds"] = pull_seconds


def _reviewed(changes: Iterable[FileChange], config: Config, *, now: datetime) -> list[FileReview]:
    files: list[FileReview] = []
    # Changed file -> why a file using it was not reviewed: it fails (the gate fails closed).
    users_unchecked: dict[str, str] = {}
    counted = 0  # changed files (users are not counted)
    # A push may hold a queue worker this long, however many slow files it brings; and a newer
    # push stops it between files (checkpoint), so hostile pull requests cannot stall the rest.
    deadline = time.monotonic() + _budget["pull_seconds"]
    for change in moves.paired(list(changes), config.classify):
        checkpoint()
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
            # break that only a user shows (the users are bounded by bot/schemaset.py).
            if time.monotonic() > deadline:
                reviewed = _file(change, classified,
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
            files.append(_file(change, classified, problem=OVER_LIMIT.format(limit=config.max_files)))
        elif time.monotonic() > deadline:
            files.append(_file(change, classified,
                               problem=PULL_BUDGET_USED.format(seconds=_budget["pull_seconds"])))
        else:
            files.append(_review_file(change, classified, config, now=now,
                                      chart=counted <= MAX_CHARTED))
    return _rehomed(_users_failed(files, users_unchecked))


def _users_failed(files: list[FileReview], problems: Mapping[str, str]) -> list[FileReview]:
    """A changed file some of whose users were not reviewed is not known to be compatible."""
    out = []
    for file in files:
        problem = None if file.context or not file.reviewed else problems.get(file.path)
        if problem:
            findings = (*file.findings, _not_reviewed(file.path, problem))
            file = replace(file, findings=tuple(sorted(findings, key=lambda f: f.sort_key)))
        out.append(file)
    return out


def _stricter(a: Classification, b: Classification) -> Classification:
    mode = a.mode if a.mode == b.mode else Mode.FULL  # backward and forward together are full
    return Classification(a.format, mode, a.transitive or b.transitive)


def new_comments(result: ReviewResult, already_posted: Iterable[str]) -> list[Comment]:
    """The comments to post: findings not already commented on by an earlier run."""
    posted = set(already_posted)
    return [comment for comment in result.comments if comment.fingerprint not in posted]


def stale_fingerprints(result: ReviewResult, posted: Iterable[str]) -> set[str]:
    """Fingerprints of our earlier comments whose findings are gone (to minimize them)."""
    return set(posted) - result.fingerprints


def _context(change: FileChange, classified: Classification, config: Config, *,
             now: datetime) -> FileReview | None:
    """A user of a changed file, unchanged itself: only what the change makes of it counts.
    One already unusable with the base's files is left out (None); one that could not be
    reviewed is returned as such (the caller fails the changed files it uses)."""
    reviewed = _review_file(change, classified, config, now=now)
    if not reviewed.reviewed:
        return reviewed
    if any(f.rule == SCHEMA_INVALID for f in reviewed.findings):
        before = replace(change, head_text=change.base_text, head_imports=change.base_imports,
                         head_withheld=change.base_withheld)
        if any(f.rule == SCHEMA_INVALID for f in _review_file(before, classified, config, now=now).findings):
            return None
        # Valid with the base's files, not with the head's: the change broke it; say which.
        return replace(reviewed, findings=blamed(reviewed.findings, SCHEMA_INVALID, change.uses))
    return reviewed


def _rehomed(files: list[FileReview]) -> list[FileReview]:
    """A finding located in another changed file of the pull request (a shared named type or
    `$ref` target) is shown with that file, on its own diff and lines: once, however many
    files use it. One in a file the pull request does not change stays with its user."""
    by_path = {f.path: f for f in files if not f.removed}
    by_base = {f.base_path: f for f in files if f.base_path}
    moved: dict[str, list[Finding]] = {}
    kept: dict[str, tuple[Finding, ...]] = {}
    for file in files:
        stay = []
        for finding in file.findings:
            home = (by_path if finding.side is Side.NEW else by_base).get(finding.file)
            if file.in_other_file(finding) and home is not None and home is not file:
                moved.setdefault(home.path, []).append(finding)
            else:
                stay.append(finding)
        kept[file.path] = tuple(stay)
    out = []
    for file in files:
        findings = {(f.rule, f.path, f.side, f.line): f for f in kept[file.path]}
        for finding in moved.get(file.path, ()):
            findings.setdefault((finding.rule, finding.path, finding.side, finding.line), finding)
        if moved.get(file.path) or len(kept[file.path]) != len(file.findings):
            file = replace(file, findings=tuple(sorted(findings.values(), key=lambda f: f.sort_key)))
        if file.context and file.reviewed and not file.findings:
            continue  # a user of a changed file that nothing breaks: not worth a line
        out.append(file)
    return out


def _file(change: FileChange, classified: Classification, **values) -> FileReview:
    base_path = None if change.base_text is None else change.previous_path or change.path
    if values.get("problem"):
        values["findings"] = (_not_reviewed(change.path, values["problem"]),)
    return FileReview(path=change.path, format=classified.format, mode=classified.mode,
                      transitive=classified.transitive, base_path=base_path,
                      diff=parse_patch(change.patch), version=_version(change), context=change.context,
                      **values)


def _version(change: FileChange) -> str:
    digest = hashlib.sha256()
    if any(change.blob_ids):
        digest.update("\0".join(change.blob_ids).encode("ascii"))
        return digest.hexdigest()[:16]
    for text in (change.base_text, change.head_text):
        digest.update(b"\1" + _bytes(text) if text is not None else b"\0")
    return digest.hexdigest()[:16]


def _not_reviewed(path: str, problem: str) -> Finding:
    """A file left unchecked is never a pass: an error an override can still lift."""
    return Finding(rule=SCHEMA_NOT_REVIEWED, severity=Severity.ERROR, line=1, path="",
                   message=NOT_REVIEWED.format(problem=problem), file=path, breaks=frozenset())


def _review_file(change: FileChange, classified: Classification, config: Config, *,
                 now: datetime, chart: bool = False) -> FileReview:
    base_path = change.previous_path or change.path
    if change.problem:
        return _file(change, classified, problem=change.problem)
    try:
        head = _decode(change.path, change.head_text, side="head")
        base = _decode(base_path, change.base_text, side="base")
    except SchemaError as error:
        return _file(change, classified, problem=error.problem)
    if head is None:
        severity = config.severity(SCHEMA_FILE_REMOVED, Severity.WARNING)
        found = () if severity is None else (Finding(
            rule=SCHEMA_FILE_REMOVED, severity=severity, line=1, path="", message=REMOVED,
            side=Side.OLD, file=change.path, breaks=frozenset()),)
        return _file(change, classified, findings=found, removed=True)
    deps = change.buf_layout.deps_of(change.path) if change.buf_layout is not None else ()
    new = Source(change.path, head, imports=change.head_imports, buf_deps=deps,
                 withheld=change.head_withheld)
    old = Source(base_path, base, imports=change.base_imports, buf_deps=deps,
                 withheld=change.base_withheld) if base is not None else new
    # One budget for the whole file (transitive versions included), enforced by killing the
    # worker process that runs the engine: a hostile schema never stalls this process.
    deadline = time.monotonic() + rules.budget.shared().seconds
    options, buf_notes = config.proto_options(change.path, change.buf_layout)
    try:
        report = rules.budget.check(old, new, format=classified.format, mode=classified.mode,
                                    options=options, deadline=deadline, examples=True)
        findings, notes = list(report.findings), [*buf_notes, *report.notes]
        if base is not None and classified.transitive:
            _transitive(change, classified, config, old, new, findings, notes, deadline=deadline,
                        options=options)
    except SchemaError as error:
        if error.side is Side.OLD:
            return _file(change, classified, problem=BASE_UNUSABLE.format(problem=error))
        return _file(change, classified, findings=_invalid(error, config))
    except rules.OverBudget as error:
        return _file(change, classified, findings=(_over_budget(change.path, error),))
    if base is not None:
        severity = config.severity(deprecation.DEPRECATION_WINDOW, Severity.WARNING)
        if severity is not None:
            findings += deprecation.check(base, head, fmt=classified.format, file=base_path,
                                          history=change.history, now=now, severity=severity,
                                          window_days=config.deprecation_window_days)
        findings = promotion.stage(findings, base=base, fmt=classified.format, now=now,
                                   history=change.history, window_days=config.promotion_window_days)
    findings.sort(key=lambda f: f.sort_key)
    charted = migrations.in_flight(head, file=change.path, fmt=classified.format, now=now,
                                   config=config, history=change.history if base is not None else (),
                                   added=base is None) if chart else []
    return _file(change, classified, findings=tuple(findings), notes=tuple(notes),
                 migrations=tuple(charted))


def _decode(path: str, data: str | bytes | None, *, side: str) -> str | None:
    """Text within the engine's limits; bytes that are too large, binary or not UTF-8 leave
    the file unreviewed (neutral): no rule can judge them, and the author may not be at fault."""
    if data is None:
        return None
    try:
        return rules.decode(path, _bytes(data))
    except SchemaError as error:
        raise SchemaError(path, None, UNREADABLE.format(side=side, problem=error.problem)) from None


def _invalid(error: SchemaError, config: Config) -> tuple[Finding, ...]:
    severity = config.severity(SCHEMA_INVALID, Severity.ERROR)
    if severity is None:
        return ()
    return (Finding(rule=SCHEMA_INVALID, severity=severity, line=error.line or 1, path="",
                    message=error.problem, file=error.file, breaks=frozenset()),)


def _over_budget(path: str, error: rules.OverBudget) -> Finding:
    """Not reviewed in time (or memory) is never a pass: an error an override can still lift."""
    return Finding(rule=SCHEMA_REVIEW_BUDGET, severity=Severity.ERROR, line=1, path="",
                   message=OVER_BUDGET.format(problem=error.problem), file=path,
                   breaks=frozenset())


def _transitive(change: FileChange, classified: Classification, config: Config, old: Source,
                new: Source, findings: list[Finding], notes: list[str], *,
                deadline: float, options: rules.Options) -> None:
    """Check the head against older base-branch versions too; report only what is new."""
    seen = {(f.rule, f.path, f.side) for f in findings}
    base_path = old.path
    older = [v for v in change.history if _bytes(v[2]) != _bytes(old.text)]
    for sha, _date, text, *_clock in older[:config.transitive_versions - 1]:
        try:
            source = Source(base_path, rules.decode(base_path, _bytes(text)),
                            imports=change.base_imports, withheld=change.base_withheld)
            report = rules.budget.check(source, new, format=classified.format,
                                        mode=classified.mode, options=options,
                                        deadline=deadline)
        except SchemaError as error:
            notes.append(OLDER_SKIPPED.format(sha=sha[:7], path=base_path, problem=error.problem))
            continue
        for finding in report.findings:
            if (finding.rule, finding.path, finding.side) not in seen:
                seen.add((finding.rule, finding.path, finding.side))
                # Name the version: its base-side lines cannot be shown on this diff.
                where = f"{base_path}@{sha[:7]}" if finding.side is Side.OLD else finding.file
                findings.append(replace(finding, file=where, against=sha[:7]))


def _bytes(text: str | bytes) -> bytes:
    return text.encode("utf-8") if isinstance(text, str) else text


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
