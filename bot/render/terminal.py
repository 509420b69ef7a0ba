"""The review as plain terminal text: what the App would post, framed and lightly coloured."""
from __future__ import annotations

from typing import Iterable

from .model import Conclusion, FileComment, InlineComment

WIDTH = 78
CONCLUSION_COLOURS = {Conclusion.SUCCESS: "32", Conclusion.FAILURE: "31", Conclusion.NEUTRAL: "33"}
HEADING = "check run: {conclusion}"
SECTION_SUMMARY = "Check run summary (Markdown)"
SECTION_INLINE = "Review comments on the diff ({count})"
SECTION_FILE = "Comments on whole files ({count})"
SECTION_ANNOTATIONS = "Annotations ({count})"
INLINE_AT = "{path}:{lines} ({side})"
FILE_AT = "{path} (whole file)"
ANNOTATION = "{path}:{line}  {level:<7}  {title}"
NONE = "(none)"


def render(result, *, colour: bool = False) -> str:
    """Title, summary, comments and annotations, each body printed exactly as posted."""
    paint = _painter(colour)
    out = [paint(HEADING.format(conclusion=result.conclusion.value),
                 "1;" + CONCLUSION_COLOURS[result.conclusion]),
           paint(result.title, "1"), "", _rule(SECTION_SUMMARY, paint), result.summary, ""]
    inline = result.inline_comments
    out += [_rule(SECTION_INLINE.format(count=len(inline)), paint)]
    out += _comments(inline, paint) or [NONE]
    files = result.file_comments
    out += ["", _rule(SECTION_FILE.format(count=len(files)), paint)]
    out += _comments(files, paint) or [NONE]
    out += ["", _rule(SECTION_ANNOTATIONS.format(count=len(result.annotations)), paint)]
    out += [ANNOTATION.format(path=a["path"], line=a["start_line"], level=a["annotation_level"],
                              title=a.get("title", "")) for a in result.annotations] or [NONE]
    return "\n".join(out) + "\n"


def _comments(comments: Iterable[InlineComment | FileComment], paint) -> list[str]:
    out: list[str] = []
    for comment in comments:
        if isinstance(comment, InlineComment):
            lines = (f"{comment.start_line}-{comment.line}" if comment.start_line
                     else str(comment.line))
            where = INLINE_AT.format(path=comment.path, lines=lines, side=comment.side.value)
        else:
            where = FILE_AT.format(path=comment.path)
        out += ["", paint(f"> {where}", "1;36"), comment.body]
    return out


def _rule(title: str, paint) -> str:
    return paint(f"── {title} " + "─" * max(3, WIDTH - len(title) - 4), "1")


def _painter(colour: bool):
    def paint(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if colour else text
    return paint
