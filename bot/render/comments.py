"""Review comments: where a finding's comment can sit on the diff, and what its body says."""
from __future__ import annotations

from rules import Finding, Side

from bot.render.diff_lines import DiffSide
from bot.render.fingerprint import marker
from bot.render import example, explain
from bot.render.escape import code, exact, fenced, text
from bot.render.markdown import LANGUAGES, MAX_OUTPUT
from bot.render.model import Comment, FileComment, FileReview, InlineComment

HEADER = "**{label}** · {rule} · {element}"
REMOVED_AT = "_The removed element was on line {line} of the base version._"
MANUAL_FIX = "Replace lines {start}–{end} of the new version with:"
# A suggestion applies its text to the file; text with control characters is shown escaped.
NOT_APPLICABLE = "_Not offered as a suggestion: the lines hold control characters, shown as escapes._"
TOO_LONG = "_The replacement is too long to show here; see the check run for details._"
WHOLE_FILE = "the whole file"
ELSEWHERE = "_Found at {where}, a file this one uses._"


def place(finding: Finding, *, file: FileReview, fingerprint: str) -> Comment | None:
    """The comment for a finding, on the narrowest place the diff allows; None: summary only.

    A suggestion replaces exactly the lines its comment spans, and GitHub only applies
    suggestions on the RIGHT side with both ends in one hunk; so a finding with a fix sits on
    the fix's lines when they qualify, even for a removed element (whose own line is LEFT).
    """
    if file.from_older_version(finding) or file.context:
        return None  # lines of a version, or of a file, this diff does not show
    if file.in_other_file(finding):
        # Its line is in a file this diff does not show: a file-level comment (body names it).
        return FileComment(path=file.path, fingerprint=fingerprint,
                           body=body(finding, file=file, fingerprint=fingerprint))
    fix = finding.suggestion
    if fix and not file.removed and file.diff.spans(fix.line_start, fix.line_end):
        note = REMOVED_AT.format(line=finding.line) if finding.side is Side.OLD else ""
        shown = body(finding, file=file, fingerprint=fingerprint, suggestion_block=True, note=note)
        return InlineComment(path=file.path, line=fix.line_end, side=DiffSide.RIGHT, body=shown,
                             fingerprint=fingerprint,
                             start_line=fix.line_start if fix.line_start != fix.line_end else None)
    side = DiffSide.LEFT if finding.side is Side.OLD else DiffSide.RIGHT
    shown = body(finding, file=file, fingerprint=fingerprint)
    anchor = file.diff.anchor(finding.line, side)
    if anchor:
        return InlineComment(path=file.path, line=anchor[0], side=anchor[1], body=shown,
                             fingerprint=fingerprint)
    return FileComment(path=file.path, body=shown, fingerprint=fingerprint)


def body(finding: Finding, *, file: FileReview, fingerprint: str | None = None,
         suggestion_block: bool = False, note: str = "") -> str:
    """What happened, what breaks for whom, what to do, and the hidden fingerprint marker."""
    fix = _fix(finding, file=file, suggestion_block=suggestion_block)
    fix.append(example.block(finding.example, file.format, finding.example_why))
    out = _join(finding, file=file, fingerprint=fingerprint, note=note, fix=fix)
    if len(out.encode("utf-8")) > MAX_OUTPUT:  # the example goes first: the fix matters more
        fix.pop()
        out = _join(finding, file=file, fingerprint=fingerprint, note=note, fix=fix)
    if len(out.encode("utf-8")) > MAX_OUTPUT and finding.suggestion:
        fix = [explain.FIX.format(title=text(finding.suggestion.title)) + "\n\n" + TOO_LONG]
        out = _join(finding, file=file, fingerprint=fingerprint, note=note, fix=fix)
    return out


def _join(finding: Finding, *, file: FileReview, fingerprint: str | None, note: str,
          fix: list[str]) -> str:
    if file.in_other_file(finding):
        note = ELSEWHERE.format(where=code(f"{finding.file}:{finding.line}")) + (
            f" {note}" if note else "")
    parts = [header(finding), text(finding.message), note,
             explain.what_breaks(finding, mode=file.mode, transitive=file.transitive), *fix,
             marker(fingerprint) if fingerprint else ""]
    return "\n\n".join(part for part in parts if part)


def header(finding: Finding) -> str:
    return HEADER.format(label=explain.label(finding.severity), rule=code(finding.rule),
                         element=code(finding.path) if finding.path else WHOLE_FILE)


def _fix(finding: Finding, *, file: FileReview, suggestion_block: bool) -> list[str]:
    fix = finding.suggestion
    if fix is None:
        advice = explain.what_to_do(finding)
        return [advice] if advice else []
    title = explain.FIX.format(title=text(fix.title))
    replacement = fix.replacement.removesuffix("\n")
    if suggestion_block and exact(replacement):
        # GitHub replaces the commented lines with the block; a final newline is implied.
        return [title + "\n" + fenced(replacement, "suggestion")]
    manual = MANUAL_FIX.format(start=fix.line_start, end=fix.line_end)
    shown = [f"{title}. {manual}\n" + fenced(replacement, LANGUAGES[file.format])]
    return shown + [NOT_APPLICABLE] if suggestion_block else shown
