"""The engine's vocabulary: enums, Source, Finding, Suggestion, Example, Report and SchemaError."""
from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from collections.abc import Mapping


class Format(str, enum.Enum):
    AVRO = "avro"
    PROTOBUF = "protobuf"
    JSONSCHEMA = "jsonschema"


class Direction(str, enum.Enum):
    """Which reader must cope with which writer."""

    BACKWARD = "backward"  # the new schema reads data written with the old one
    FORWARD = "forward"  # the old schema reads data written with the new one


class Mode(str, enum.Enum):
    BACKWARD = "backward"
    FORWARD = "forward"
    FULL = "full"

    @property
    def directions(self) -> frozenset[Direction]:
        if self is Mode.FULL:
            return frozenset(Direction)
        return frozenset({Direction(self.value)})


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


class Side(str, enum.Enum):
    OLD = "old"
    NEW = "new"


class Policy(str, enum.Enum):
    """JSON Schema only: how undeclared properties in open content models are treated."""

    STRICT = "strict"  # Confluent's default: old producers may have written any name
    LENIENT = "lenient"  # producers never write undeclared properties


BOTH_DIRECTIONS = frozenset(Direction)
BACKWARD_ONLY = frozenset({Direction.BACKWARD})
FORWARD_ONLY = frozenset({Direction.FORWARD})
ADVISORY = frozenset()  # breaks nothing by itself; reported at the rule's own severity


@dataclass(frozen=True)
class Suggestion:
    """Replace lines line_start..line_end (1-based, inclusive) of the NEW file with replacement.

    Suggestions always target the new file, because that is the side a reviewer can edit
    (GitHub only accepts suggestion blocks on the RIGHT side of a diff).
    """

    title: str
    line_start: int
    line_end: int
    replacement: str

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


class Outcome(str, enum.Enum):
    """What a reader on the other version does with an example record."""

    ERROR = "error"  # decoding or validation fails
    CHANGED = "changed"  # it decodes, but values differ from what was written


@dataclass(frozen=True)
class Example:
    """A record written with one version that the other version's reader fails on or misreads.

    `payload` is JSON: Avro's JSON encoding, protobuf's canonical JSON, or the JSON instance.
    """

    written_with: Side
    payload: object
    outcome: Outcome
    reader_error: str | None = None
    changed: tuple[str, ...] | None = None  # instance paths whose value the reader sees differently
    # Protobuf: which form the reader broke on ("binary" or "json"), the binary message written
    # (base64, so it can be decoded anew) and what the reader made of it, on one line.
    encoding: str | None = None
    binary: str | None = None
    read: str | None = None

    def to_json(self) -> dict:
        out = {"written_with": self.written_with.value, "payload": self.payload,
               "outcome": self.outcome.value, "reader_error": self.reader_error,
               "changed": list(self.changed) if self.changed is not None else None}
        for key in ("encoding", "binary", "read"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


class _NotSearched:
    """No example search ran for the finding (the default): `to_json` leaves the key out."""

    def __repr__(self) -> str:
        return "NOT_SEARCHED"

    def __bool__(self) -> bool:
        return False


NOT_SEARCHED = _NotSearched()


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: Severity
    line: int
    path: str
    message: str
    side: Side = Side.NEW
    suggestion: Suggestion | None = None
    file: str = ""
    # Directions in which this change breaks compatibility; None means the rule's spec decides.
    breaks: frozenset[Direction] | None = field(default=None, compare=False)
    # The older version this was found against (transitive checks); None: against OLD itself.
    against: str | None = None
    # A counterexample (rules.examples): NOT_SEARCHED, None (searched, none found) or an Example.
    example: Example | None | _NotSearched = field(default=NOT_SEARCHED, compare=False)
    # Why no record can show this finding's break (example None): it is then not "missing".
    example_why: str | None = field(default=None, compare=False)
    # What changed, as the rule said it, when a caller later added context to `message` (dates,
    # blame) that may differ from one review to the next; "" when `message` is still the rule's.
    reported: str = field(default="", compare=False)

    @property
    def change(self) -> str:
        """The rule's own description of the change, without context added since."""
        return self.reported or self.message

    def to_json(self) -> dict:
        out = {
            "rule": self.rule,
            "severity": self.severity.value,
            "file": self.file,
            "line": self.line,
            "path": self.path,
            "message": self.message,
            "suggestion": self.suggestion.to_json() if self.suggestion else None,
            "against": self.against,
        }
        if self.side is Side.OLD:
            out["side"] = Side.OLD.value
        if self.example is not NOT_SEARCHED:
            out["example"] = self.example.to_json() if self.example else None
        if self.example_why is not None:
            out["example_why"] = self.example_why
        return out

    @property
    def sort_key(self) -> tuple:
        return (self.file, self.side is Side.OLD, self.line, self.severity.rank, self.rule, self.path)


@dataclass(frozen=True)
class Report:
    mode: Mode
    findings: tuple[Finding, ...]
    notes: tuple[str, ...] = ()

    @property
    def compatible(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    @property
    def exit_code(self) -> int:
        return 0 if self.compatible else 1

    def to_json(self) -> dict:
        return {
            "compatible": self.compatible,
            "mode": self.mode.value,
            "findings": [f.to_json() for f in self.findings],
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class Source:
    """One version of one schema file, as text, with what it needs to be compiled."""

    path: str  # the name findings carry: a repository path or the CLI argument
    text: str
    # protobuf: import path -> file text at the same revision (the bot fetches these)
    imports: Mapping[str, str] = field(default_factory=dict)
    # protobuf: local include roots to resolve imports from (the CLI's --proto-path)
    proto_paths: tuple[str, ...] = ()
    # protobuf: the buf dependencies (`deps:`) of the module holding the file; never fetched,
    # only named when an import is missing
    buf_deps: tuple[str, ...] = ()
    # JSON Schema: files of the same revision a `$ref` may name that were not fetched, path ->
    # why (the App's limits); a reference only one of them could satisfy says so, never "outside"
    withheld: Mapping[str, str] = field(default_factory=dict)
    # protobuf: import path -> the path a finding in that file names (a repository path); an
    # import not listed has no lines of its own: its findings sit on the field using its types
    import_paths: Mapping[str, str] = field(default_factory=dict)


class SchemaError(Exception):
    """Unusable input: unreadable, too large, not parseable, or not a valid schema."""

    def __init__(self, file: str, line: int | None, problem: str):
        super().__init__(problem)
        self.file = file
        self.line = line
        self.problem = problem
        self.side: Side | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.problem}"


class Unresolved(SchemaError):
    """A reference that does not resolve: a `$ref`'s file, `$id` or pointer, an Avro named
    type, a protobuf import. No reader can use the version holding it: on the head it is an
    error; an older version holding one is not compared (the engine notes it)."""


@dataclass(frozen=True)
class Options:
    """Knobs of one comparison; the CLI and the bot's repository config both map onto these."""

    policy: Policy = Policy.LENIENT
    # JSON Schema: whether validators assert "format" (2019-09 and 2020-12 make it an annotation
    # by default, and Confluent ignores it); off, a format change is a warning, not an error.
    format_assertion: bool = False
    # protobuf: buf's breaking categories to enforce (rules/protobuf/categories.py: WIRE,
    # WIRE_JSON, PACKAGE, FILE); a rule runs when one of its spec's categories is selected
    proto_categories: frozenset[str] = frozenset({"WIRE", "WIRE_JSON"})
    # protobuf: rule ids that run whatever the categories (a buf.yaml `use:` naming rules)
    proto_rules: frozenset[str] = frozenset()
    # protobuf: buf rule ids a buf.yaml left out (`except`, `ignore_only`, not in `use`); a rule
    # standing for one buf id per option (FILE_SAME_GO_PACKAGE, ...) skips those options
    proto_buf_off: frozenset[str] = frozenset()
    # rule id -> severity to report it at, or None to turn the rule off
    severities: Mapping[str, Severity | None] = field(default_factory=dict)
