"""GitHub Actions workflow commands (`::error file=…,line=…,title=RULE::message`), one a line."""
from __future__ import annotations

from ..model import Severity
from ..visible import visible
from .model import Outcome

LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
NOT_REVIEWED = "not reviewed"
NOT_REVIEWED_BECAUSE = "Not reviewed: {problem}"
NOTE = "schema-review"


def escape_data(text: str) -> str:
    """GitHub's escaping of a command's message: a newline can never start another command.
    Other control characters are shown (rules/visible.py): the log would send them raw."""
    shown = visible(text, keep="\r\n")
    return shown.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value also may not end the property list (`,`) or the properties (`::`)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name: str, message: str, **properties: object) -> str:
    """One workflow command; properties that are None are left out."""
    props = ",".join(f"{key}={escape_property(str(value))}"
                     for key, value in properties.items() if value is not None)
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def render(outcome: Outcome) -> str:
    lines = []
    for file in outcome.files:
        if file.problem:
            # Fail closed: a file nobody checked is as blocking as a breaking change.
            lines.append(command("error", NOT_REVIEWED_BECAUSE.format(problem=file.problem),
                                 file=file.path, title=NOT_REVIEWED))
        for item in file.findings:
            finding = item.finding
            message = item.message
            if finding.suggestion:
                message += f"\n\nFix: {finding.suggestion.title}"
            lines.append(command(LEVELS[finding.severity], message, file=item.file,
                                 line=item.line, title=finding.rule))
    lines += [command("notice", note, title=NOTE) for note in outcome.notes]
    lines.append(escape_data(outcome.verdict))
    return "\n".join(lines) + "\n"
