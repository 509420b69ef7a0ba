"""Review one schema file: decode both versions, run the rules (and older versions when
transitive), then the lifecycle checks; a file that cannot be judged is never a pass."""
from __future__ import annotations

import hashlib
import time
from dataclasses import replace
from datetime import datetime

import rules
from rules import Finding, SchemaError, Severity, Side, Source

from bot.config.config import (SCHEMA_FILE_REMOVED, SCHEMA_INVALID, SCHEMA_NOT_REVIEWED, SCHEMA_REVIEW_BUDGET,
                               Classification, Config)
from bot.lifecycle import deprecation, migrations, promotion
from bot.render.diff_lines import parse_patch
from bot.render.model import FileReview
from bot.review.change import FileChange

REMOVED = "The schema file was removed."
BASE_UNUSABLE = "the base version cannot be read ({problem})"
UNREADABLE = "the {side} version is unusable ({problem})"
OVER_BUDGET = "The file {problem}, so it is not known to be compatible."
NOT_REVIEWED = "The file was not reviewed: {problem}. It is not known to be compatible."
OLDER_SKIPPED = ('Version {sha} of "{path}" could not be read and was left out of the transitive '
                 "check: {problem}")


def review_file(change: FileChange, classified: Classification, config: Config, *,
                 now: datetime, chart: bool = False) -> FileReview:
    base_path = change.previous_path or change.path
    if change.problem:
        return file_review(change, classified, problem=change.problem)
    try:
        head = _decode(change.path, change.head_text, side="head")
        base = _decode(base_path, change.base_text, side="base")
    except SchemaError as error:
        return file_review(change, classified, problem=error.problem)
    if head is None:
        severity = config.severity(SCHEMA_FILE_REMOVED, Severity.WARNING)
        found = () if severity is None else (Finding(
            rule=SCHEMA_FILE_REMOVED, severity=severity, line=1, path="", message=REMOVED,
            side=Side.OLD, file=change.path, breaks=frozenset()),)
        return file_review(change, classified, findings=found, removed=True)
    deps = change.buf_layout.deps_of(change.path) if change.buf_layout is not None else ()
    new = Source(change.path, head, imports=change.head_imports, buf_deps=deps,
                 withheld=change.head_withheld, import_paths=change.head_import_paths)
    old = Source(base_path, base, imports=change.base_imports, buf_deps=deps,
                 withheld=change.base_withheld,
                 import_paths=change.base_import_paths) if base is not None else new
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
            return file_review(change, classified, problem=BASE_UNUSABLE.format(problem=error))
        return file_review(change, classified, findings=_invalid(error, config))
    except rules.OverBudget as error:
        return file_review(change, classified, findings=(_over_budget(change.path, error),))
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
    tracked = base is not None and config.consumers_of(base_path)
    finished = migrations.ended(base, head, file=base_path, fmt=classified.format, now=now, config=config,
                                history=change.history) if tracked else []
    undone = migrations.withdrawn(base, head, fmt=classified.format) if tracked else []
    return file_review(change, classified, findings=tuple(findings), notes=tuple(notes),
                 migrations=tuple(charted), ended=tuple(finished), withdrawn=tuple(undone))


def file_review(change: FileChange, classified: Classification, **values) -> FileReview:
    base_path = None if change.base_text is None else change.previous_path or change.path
    if values.get("problem"):
        values["findings"] = (not_reviewed(change.path, values["problem"]),)
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


def not_reviewed(path: str, problem: str) -> Finding:
    """A file left unchecked is never a pass: an error an override can still lift."""
    return Finding(rule=SCHEMA_NOT_REVIEWED, severity=Severity.ERROR, line=1, path="",
                   message=NOT_REVIEWED.format(problem=problem), file=path, breaks=frozenset())


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
