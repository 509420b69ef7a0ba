"""Which changes of a review the consumers of a file are told about, and who those consumers are.

Pure: the reviewed files and the config in, one Notice per (file, element, change) out. A
change is worth a consumer's review when it deprecates, removes, renames or breaks an element,
starts a double-write, or makes a field required; additions and loosenings are not.
"""
from __future__ import annotations

import re
from typing import Iterable, Sequence

from rules import Finding, Severity

from bot.config.bot_rules import DEPRECATION_WINDOW, SCHEMA_FILE_REMOVED
from bot.config.config import Config
from bot.lifecycle.migrations import Kind
from bot.lifecycle.promotion import promoted
from bot.render.model import Change, FileReview, Notice

# An element's removal, by the rule that reports it: fields, properties, enum values and
# symbols, messages, services and methods (a union branch or a dependency is a constraint).
REMOVAL = re.compile(r"(?:AVRO|JSONSCHEMA|PROTO)_(?:FIELD|PROPERTY|ENUM_SYMBOL|ENUM_VALUE|ENUM|MESSAGE|RPC"
                     r"|SERVICE)_(?:DELETED|REMOVED)(?:_.*)?")
REMOVALS = frozenset({SCHEMA_FILE_REMOVED, DEPRECATION_WINDOW})
RENAME = re.compile(r".*_RENAMED(?:_.*)?")
STARTED = {Kind.DEPRECATED: Change.DEPRECATED, Kind.DOUBLE_WRITE: Change.DOUBLE_WRITE}
WHOLE_FILE = "(the whole file)"


def notices(files: Sequence[FileReview], config: Config) -> list[Notice]:
    """What each file's consumers are told about; nothing when no consumer reads a changed file."""
    if not config.consumers:
        return []
    out: dict[tuple[str, str, str], Notice] = {}
    for file in files:
        readers = dict.fromkeys(c for path in (file.path, file.base_path) if path
                                for c in config.consumers_of(path))
        if not readers or not file.reviewed:
            continue
        owners = tuple(dict.fromkeys(owner for c in readers for owner in c.owners))
        names = tuple(dict.fromkeys(c.name for c in readers if c.name))
        for element, change, replacement in _changes(file):
            notice = Notice(file.path, element or WHOLE_FILE, change, owners, names, replacement)
            out.setdefault(notice.key, notice)
    return list(out.values())


def owners_of(found: Iterable[Notice]) -> list[str]:
    return list(dict.fromkeys(owner for notice in found for owner in notice.owners))


def _changes(file: FileReview):
    for migration in file.migrations:
        if migration.new and migration.kind in STARTED:
            yield migration.element, STARTED[migration.kind], migration.replacement
    for finding in file.findings:
        change = change_of(finding, file)
        if change is not None:
            yield finding.path, change, None


def change_of(finding: Finding, file: FileReview) -> Change | None:
    if finding.rule in REMOVALS or REMOVAL.fullmatch(finding.rule):
        return Change.REMOVED
    if RENAME.fullmatch(finding.rule):
        return Change.RENAMED
    if file.format is not None and promoted(finding, fmt=file.format) is not None:
        return Change.MADE_REQUIRED
    if finding.breaks and finding.severity is not Severity.INFO:
        return Change.BREAKS
    return None
