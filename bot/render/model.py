"""What reviewing the pull request produced, in the shapes the renderers and handlers consume."""
from __future__ import annotations

import enum
from dataclasses import dataclass

from rules import Finding, Format, Mode, Severity, Side

from bot.config.bot_rules import Conclusion  # noqa: F401 (re-exported: part of what a review produced)
from bot.render.diff_lines import DiffLines, DiffSide


@dataclass(frozen=True)
class FileReview:
    """One schema file: its findings, or why it could not be reviewed."""

    path: str  # the head path; the base path for a removed file
    format: Format | None  # None only for the files GitHub did not list (never seen)
    mode: Mode
    transitive: bool = False
    base_path: str | None = None  # differs from path after a rename; None for an added file
    findings: tuple[Finding, ...] = ()
    # Set when the file could not be reviewed; it then holds one SCHEMA_NOT_REVIEWED error.
    problem: str | None = None
    diff: DiffLines = DiffLines()
    notes: tuple[str, ...] = ()
    removed: bool = False
    version: str = ""  # a digest of both versions' content: what whole-file findings are bound to
    migrations: tuple = ()  # bot.lifecycle.migrations.Migration: what the head has in flight
    # Migrations of the base this change completes (element removed or promoted), for a file
    # with `consumers:` only: the gate asks whether they confirmed (bot/review/confirmations.py).
    ended: tuple = ()
    # Elements the base deprecates and this change keeps without deprecating (a file with
    # `consumers:` only): the migration is undone, and its tracking issue closed on merge.
    withdrawn: tuple[str, ...] = ()
    # Not changed by the pull request: reviewed because it uses a file that is. It has no
    # diff to comment on; its findings show in the summary and as annotations.
    context: bool = False

    @property
    def reviewed(self) -> bool:
        return self.problem is None

    def from_older_version(self, finding: Finding) -> bool:
        """True for a finding about a version older than the base (transitive modes): its base
        line numbers belong to that version, so they cannot be shown on this diff."""
        return (finding.side is Side.OLD and finding.against is not None
                and finding.file not in ("", self.base_path, self.path))

    def in_other_file(self, finding: Finding) -> bool:
        """True for a finding located in another file than this one (a named type or `$ref`
        target the file uses, changed with it): its line numbers are that file's."""
        return (finding.file not in ("", self.base_path, self.path)
                and not self.from_older_version(finding))

    def count(self, severity: Severity) -> int:
        return sum(f.severity is severity for f in self.findings)


@dataclass(frozen=True, kw_only=True)
class InlineComment:
    """A review comment on lines of the diff, ready for the create-review `comments` array."""

    path: str
    line: int
    side: DiffSide
    body: str
    fingerprint: str
    start_line: int | None = None  # set for a multi-line comment (a suggestion over lines)

    def to_github(self) -> dict:
        out = {"path": self.path, "line": self.line, "side": self.side.value, "body": self.body}
        if self.start_line is not None and self.start_line != self.line:
            out.update(start_line=self.start_line, start_side=self.side.value)
        return out


@dataclass(frozen=True, kw_only=True)
class FileComment:
    """A comment on a whole file, for a finding whose line the diff does not show."""

    path: str
    body: str
    fingerprint: str

    def to_github(self) -> dict:
        return {"path": self.path, "body": self.body, "subject_type": "file"}


Comment = InlineComment | FileComment


class Change(enum.StrEnum):
    """What a change does to an element a consumer reads (bot/review/notices.py decides)."""

    DEPRECATED = "deprecated"
    DOUBLE_WRITE = "double-write started"
    REMOVED = "removed"
    RENAMED = "renamed"
    MADE_REQUIRED = "made required"
    BREAKS = "breaking change"


@dataclass(frozen=True)
class Notice:
    """One change a file's consumers are asked to review."""

    file: str
    element: str
    change: Change
    owners: tuple[str, ...]  # `@user` / `@org/team`, from the default branch's config
    names: tuple[str, ...] = ()  # the matching consumers' labels
    replacement: str | None = None  # the new half of a double-write

    @property
    def key(self) -> tuple[str, str, str]:
        return self.file, self.element, self.change.value
