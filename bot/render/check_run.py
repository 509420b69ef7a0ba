"""The check run's output: a title with counts, a Markdown summary and text, and annotations."""
from __future__ import annotations

import enum
from typing import Sequence

from rules import Finding, Format, Severity, Side
from rules.output.model import REMOVED_FROM

from bot.render import calendar, comments
from bot.render.escape import cell, code, plain, text as prose
from bot.render.markdown import fit
from bot.render.model import FileReview


NO_FILES = "No schema files changed"
NOTHING_FOUND = "No breaking changes"
TITLE = "{counts} in {files}"
NOT_REVIEWED = "{count} not reviewed"
ONLY_NOT_REVIEWED = "{count} of {files} not reviewed"
NOUNS = {Severity.ERROR: ("breaking change", "breaking changes"),
         Severity.WARNING: ("warning", "warnings"), Severity.INFO: ("note", "notes")}
LEAD = "Compared each schema file in this pull request with its version on the base branch."
FINDINGS_HEADER = ("| Severity | File | Rule | Element | Finding | Fix |\n"
                   "|---|---|---|---|---|---|")
NOT_INLINE = ("### Not commented inline\n\nThe diff does not show these lines, so they are "
              "listed here instead of on the code.")
FILES_HEADER = "### Files\n\n| File | Format | Compatibility | Result |\n|---|---|---|---|"
NOTES = "### Notes"
ANNOTATED = ("_The first {count} findings, errors first, are annotated on the lines; the table "
             "above lists every one._")
NO_FINDINGS = "no findings"
NOT_REVIEWED_BECAUSE = "not reviewed: {problem}"
UNKNOWN_FORMAT = "—"
FORMAT_NAMES = {Format.AVRO: "Avro", Format.PROTOBUF: "Protobuf", Format.JSONSCHEMA: "JSON Schema"}
# GitHub takes 50 annotations per request; more would cost a request per 50 on every review.
MAX_ANNOTATIONS = 50
MAX_ANNOTATION_TITLE = 255
MAX_ANNOTATION_TEXT = 64 * 1024


class AnnotationLevel(enum.StrEnum):
    NOTICE = "notice"
    WARNING = "warning"
    FAILURE = "failure"


LEVELS = {Severity.ERROR: AnnotationLevel.FAILURE, Severity.WARNING: AnnotationLevel.WARNING,
          Severity.INFO: AnnotationLevel.NOTICE}


def counts(findings: Sequence[Finding]) -> str:
    """`2 breaking changes, 1 warning`, or an empty string when there are none."""
    parts = []
    for severity in Severity:
        number = sum(f.severity is severity for f in findings)
        if number:
            parts.append(f"{number} {NOUNS[severity][number != 1]}")
    return ", ".join(parts)


def title(files: Sequence[FileReview]) -> str:
    """`2 breaking changes, 1 warning in 3 schema files` (plus how many were not reviewed)."""
    if not files:
        return NO_FILES
    found = counts([f for file in files if file.reviewed for f in file.findings])
    skipped = sum(not file.reviewed for file in files)
    if skipped and not found:  # never "No breaking changes" on a check that fails closed
        return ONLY_NOT_REVIEWED.format(count=skipped, files=_plural(len(files), "schema file"))
    text = TITLE.format(counts=found or NOTHING_FOUND, files=_plural(len(files), "schema file"))
    return f"{text}; {NOT_REVIEWED.format(count=skipped)}" if skipped else text


def summary(files: Sequence[FileReview], *, not_inline: Sequence[tuple[FileReview, Finding]] = (),
            notes: Sequence[str] = ()) -> str:
    """Markdown for the check run's summary, within GitHub's size limit."""
    blocks = [LEAD]
    # An unreviewed file's one finding says what the files table says: listed there only.
    rows = [_row(file, finding) for file in files if file.reviewed for finding in file.findings]
    if rows:
        blocks += ["", FINDINGS_HEADER, *rows]
    if not_inline:
        blocks += ["", NOT_INLINE]
        blocks += [f"\n#### {code(_where(file, finding))}\n\n" + comments.body(finding, file=file)
                   for file, finding in not_inline]
    blocks += ["", FILES_HEADER, *(_file_row(file) for file in files)]
    if len(_annotatable(files)) > MAX_ANNOTATIONS:
        blocks += ["", ANNOTATED.format(count=MAX_ANNOTATIONS)]
    all_notes = [*notes, *(note for file in files for note in file.notes)]
    if all_notes:
        blocks += ["", NOTES, "", *(f"- {prose(note)}" for note in dict.fromkeys(all_notes))]
    blocks += calendar.table([m for file in files for m in file.migrations])
    return fit(blocks)


def text(files: Sequence[FileReview]) -> str:
    """Markdown for the check run's text: every finding explained, file by file."""
    blocks: list[str] = []
    for file in files:
        if file.findings and file.reviewed:
            blocks += [f"### {code(file.path)}", ""]
            blocks += [comments.body(finding, file=file) + "\n\n---\n" for finding in file.findings]
    return fit(blocks)


def annotations(files: Sequence[FileReview], *, limit: int = MAX_ANNOTATIONS) -> list[dict]:
    """Check-run annotations for the findings that have a line in the head version: errors
    first, at most `limit` (one request's worth; the summary table lists every finding)."""
    order = list(Severity)  # error, warning, info; sorted() is stable: file order within each
    chosen = sorted(_annotatable(files), key=lambda pair: order.index(pair[1].severity))[:limit]
    out = [_annotation(file, finding) | ({"path": finding.file} if file.in_other_file(finding) else {})
           for file, finding in chosen]
    # Those chosen, listed as every format lists findings: by file and line, then rule.
    return sorted(out, key=lambda a: (a["path"], a["start_line"], a["title"]))


def _annotatable(files: Sequence[FileReview]) -> list[tuple[FileReview, Finding]]:
    """Findings with a line in the head version (a removed or unlisted file has none; one in
    another file is annotated there when that file is in the head: not a base-side one)."""
    return [(file, finding) for file in files if not (file.removed or file.format is None)
            for finding in file.findings if not file.from_older_version(finding)
            and not (file.in_other_file(finding) and finding.side is Side.OLD)]


def head_location(file: FileReview, finding: Finding) -> tuple[int, str]:
    """The head line an annotation about the finding sits on, and its message there."""
    if finding.side is Side.OLD:
        # Annotations belong to the head commit; point at where the removed element stood.
        return (file.diff.head_line(finding.line),
                REMOVED_FROM.format(line=finding.line) + finding.message)
    return finding.line, finding.message


def _annotation(file: FileReview, finding: Finding) -> dict:
    line, message = head_location(file, finding)
    out = {"path": file.path, "start_line": line, "end_line": line,
           "annotation_level": LEVELS[finding.severity].value,
           "message": message[:MAX_ANNOTATION_TEXT],
           # Titles are plain text, but a line break would still split GitHub's one-line title.
           "title": plain(f"{finding.rule}: {finding.path}" if finding.path else finding.rule,
                          limit=MAX_ANNOTATION_TITLE)}
    if finding.suggestion:
        out["message"] = f"{out['message']}\n\nFix: {finding.suggestion.title}"[:MAX_ANNOTATION_TEXT]
        out["raw_details"] = finding.suggestion.replacement[:MAX_ANNOTATION_TEXT]
    return out


def _where(file: FileReview, finding: Finding) -> str:
    if file.from_older_version(finding) or file.in_other_file(finding):
        # Names the older version it was found in, or the file it is in.
        return f"{finding.file}:{finding.line}" + (
            " (base)" if file.in_other_file(finding) and finding.side is Side.OLD else "")
    return f"{file.path}:{finding.line}" + (" (base)" if finding.side is Side.OLD else "")


def _row(file: FileReview, finding: Finding) -> str:
    severity = finding.severity.value
    where = _where(file, finding)
    fix = finding.suggestion.title if finding.suggestion else ""
    return (f"| {f'**{severity}**' if finding.severity is Severity.ERROR else severity} "
            f"| {cell(code(where))} | {cell(code(finding.rule))} | {cell(code(finding.path))} "
            f"| {cell(prose(finding.message))} | {cell(prose(fix))} |")


def _file_row(file: FileReview) -> str:
    mode = file.mode.value + ("_transitive" if file.transitive else "")
    if not file.reviewed:
        result = NOT_REVIEWED_BECAUSE.format(problem=file.problem)
    else:
        result = counts(file.findings) or NO_FINDINGS
    return (f"| {cell(code(file.path))} | {FORMAT_NAMES.get(file.format, UNKNOWN_FORMAT)} | {mode} "
            f"| {cell(prose(result))} |")


def _plural(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
