"""The review as the CI formats see it: each finding once, where the App would annotate it."""
from __future__ import annotations

from typing import Iterator

from rules import Finding, Side
from rules.output.model import FileResult, Located, Outcome, RuleHelp, in_order

from bot.config.config import (CONSUMERS_MIGRATION, DEPRECATION_WINDOW, SCHEMA_FILE_REMOVED, SCHEMA_IDENTITY_DUPLICATED,
                               SCHEMA_INVALID, SCHEMA_NOT_REVIEWED, SCHEMA_REVIEW_BUDGET)
from bot.render.fingerprint import of as fingerprint_of
from bot.render import check_run, explain
from bot.render.model import Conclusion, FileReview

VERDICT = "schema-review: {conclusion}: {title}"
OLDER_VERSION = "{message} (against the older version {version})"
SUMMARIES = {
    SCHEMA_INVALID: "a schema in the head does not parse",
    SCHEMA_FILE_REMOVED: "a schema file was removed",
    DEPRECATION_WINDOW: "a field was deleted before its deprecation window had passed",
    SCHEMA_REVIEW_BUDGET: "a schema file could not be reviewed within its time or memory budget",
    SCHEMA_NOT_REVIEWED: "a schema file was not reviewed (too many, too large or unreadable)",
    SCHEMA_IDENTITY_DUPLICATED: "a type is defined in two schema files of the head",
    CONSUMERS_MIGRATION: "a migration ended before every consumer confirmed it had moved",
}
BOT_RULES = {rule: RuleHelp(summary=summary,
                            markdown=f"{explain.OWN_RULES[rule]}\n\n{explain.OWN_ADVICE[rule]}")
             for rule, summary in SUMMARIES.items()}


def unique(file: FileReview) -> Iterator[tuple[Finding, str]]:
    """The file's findings with their fingerprints; the same rule on the same element once
    (a change can be found on both the old and the new side), as the App comments once."""
    seen: set[str] = set()
    if not file.reviewed:
        return  # its one finding restates `problem`, which every format shows already
    for finding in file.findings:
        value = fingerprint_of(finding, file)
        if value not in seen:
            seen.add(value)
            yield finding, value


def verdict(result) -> str:
    return VERDICT.format(conclusion=result.conclusion.value, title=result.title)


def outcome(result) -> Outcome:
    files = tuple(FileResult(path=file.path, problem=file.problem,
                             findings=tuple(_locate(file, finding, value)
                                            for finding, value in unique(file)))
                  for file in result.files)
    notes = tuple(dict.fromkeys(note for file in result.files for note in file.notes))
    return Outcome(files=in_order(files), failed=result.conclusion is Conclusion.FAILURE,
                   verdict=verdict(result), notes=notes, rule_help=BOT_RULES)


def _locate(file: FileReview, finding: Finding, value: str) -> Located:
    if file.removed:
        return Located(finding=finding, file=file.path, line=None, message=finding.message,
                       fingerprint=value)
    if file.from_older_version(finding):
        message = OLDER_VERSION.format(message=finding.message, version=finding.file)
        return Located(finding=finding, file=file.path, line=None, message=message,
                       fingerprint=value)
    if file.in_other_file(finding):
        line = finding.line if finding.side is Side.NEW else None
        return Located(finding=finding, file=finding.file, line=line, message=finding.message,
                       fingerprint=value)
    line, message = check_run.head_location(file, finding)
    return Located(finding=finding, file=file.path, line=line, message=message, fingerprint=value)
