"""Proof by example: for each breaking error finding, a record one version writes that the other
version's reader fails on or misreads, checked with the format's real runtime.

Avro: fastavro writes with the writer schema and reads with writer and reader (schema
resolution). Protobuf: messages built from the compiled descriptors, binary and (WIRE_JSON)
canonical JSON. JSON Schema: an instance the writer schema accepts and the reader rejects, with
the same validator and regex engine the parser uses. The search is bounded (limits.EXAMPLE_*)
and never changes a finding or the verdict.
"""
from __future__ import annotations

import dataclasses
import logging
import time

from .. import limits
from ..model import Direction, Finding, Format, Mode, Options, Severity, Side
from .budget import Budget, short

LOG = logging.getLogger("rules.examples")
MISSING_NOTE = ("examples_missing: {count} error finding(s) whose break should show at runtime "
                "have no example: {items}")
SKIPPED_NOTE = ("examples_not_searched: {count} error finding(s): the comparison's search budget "
                "({seconds:g} s) ran out before them")
OVERSIZED_NOTE = ("examples_over_size_limit: {count} error finding(s) have no example within the "
                  "size limit: the records tried would pass {chars} characters as JSON: {items}")
UNAVAILABLE_NOTE = ("examples_unavailable: {count} error finding(s) have no example: the runtime "
                    "could not load the schemas ({error}): {items}")
MISSING_LISTED = 5  # findings named in the note; the count covers them all

# Rules whose error breaks no reader of a record, so no record can show it. Each says why.
NOT_A_READ_FAILURE = {
    "JSONSCHEMA_EXTERNAL_REF_CHANGED": "the reference's target is outside the repository and was "
    "not read: whether a record breaks is not known, so none can be shown",
    "PROTO_RESERVED_DELETED": "removing a reservation changes no decoding; it re-opens numbers "
    "and names for reuse",
    "PROTO_PACKAGE_CHANGED": "the package changes type URLs (Any), gRPC method paths and "
    "generated code, not how a message is encoded",
    "PROTO_MESSAGE_DELETED": "no reader of the deleted type is left to read a record with",
    "PROTO_ENUM_DELETED": "an enum's numbers live on in the fields that used it; only "
    "generated code and importing files lose the type",
    "PROTO_FIELD_PRESENCE_CHANGED": "presence changes generated code (has-accessors), not the "
    "binary or JSON form",
    "PROTO_ONEOF_RENAMED": "a oneof's name is in neither the binary nor the JSON form; "
    "generated code changes",
    "PROTO_RPC_IDEMPOTENCY_CHANGED": "a call-level break (retries, GET caching); no message "
    "encoding changes",
    "PROTO_SYNTAX_CHANGED": "the syntax changes generated code; what it changes for payloads "
    "(presence, defaults, required fields) is reported field by field",
    "PROTO_FILE_OPTION_CHANGED": "file options (go_package, java_package, ...) name and shape "
    "generated code, not how a message is encoded",
    "PROTO_FIELD_LANGUAGE_TYPE_CHANGED": "ctype and jstype choose C++ and JavaScript types in "
    "generated code; the binary and JSON forms stay",
    "PROTO_FIELD_ONEOF_ALONE_CHANGED": "a oneof of one field excludes nothing: payloads read "
    "the same; generated code changes",
    "PROTO_RPC_DELETED": "a call-level break (the method is gone); no message encoding changes",
    "PROTO_SERVICE_DELETED": "a call-level break (the service is gone); no message encoding "
    "changes",
    "PROTO_RPC_SIGNATURE_CHANGED": "a call-level break (request, response or streaming); the "
    "messages' own encodings are checked by the field rules",
    "AVRO_FIELD_ALIAS_AMBIGUOUS": "fastavro matches fields by name before aliases and reads "
    "both fields right; Java's resolver rejects the pair of schemas (\"Duplicate field\") before "
    "any record is read, which no record here can show",
    "AVRO_DECIMAL_CHANGED": "fastavro (and Apache Avro for Python) decode a decimal with the "
    "writer's precision and scale, so the runtime here reads it right; Java readers, which "
    "apply the reader's scale, misread it",
}


def _finders():
    from . import avro, jsonschema, protobuf  # the runtimes load only when examples are asked
    return {Format.AVRO: avro.Finder, Format.PROTOBUF: protobuf.Finder,
            Format.JSONSCHEMA: jsonschema.Finder}


class Search:
    """Examples for the findings of one check (all its `against` versions share the deadline)."""

    def __init__(self, fmt: Format, *, mode: Mode, options: Options, clock=time.thread_time):
        self.fmt, self.mode, self.options, self._clock = fmt, mode, options, clock
        self._deadline: float | None = None  # set when the first findings arrive, not while parsing
        self._finder_class = _finders()[fmt]
        self._skipped: set[tuple] = set()  # findings reached after the deadline: not missing
        self._oversized: set[tuple] = set()  # records over the size limit were refused: not missing
        self._unavailable: dict[tuple, str] = {}  # finding -> why the runtime refused the schemas

    def attach(self, findings: list[Finding], old, new) -> list[Finding]:
        """The findings, each breaking error one with `example` set (an Example or None)."""
        if self._deadline is None:
            self._deadline = self._clock() + limits.EXAMPLE_SECONDS_PER_CHECK
        finder = None
        out = []
        for finding in findings:
            directions = self.directions(finding)
            if not directions:
                out.append(finding)
                continue
            if finding.rule in NOT_A_READ_FAILURE:  # breaks no reader: "example": null, not missing
                out.append(dataclasses.replace(finding, example=None,
                                               example_why=NOT_A_READ_FAILURE[finding.rule]))
                continue
            if self._clock() >= self._deadline:
                self._skipped.add(_key(finding))
                out.append(dataclasses.replace(finding, example=None))
                continue
            if finder is None:
                finder = self._finder(old, new)
            why = getattr(finder, "unshown", _no_reason)(finding)  # none can show with what is read
            if why is not None:
                out.append(dataclasses.replace(finding, example=None, example_why=why))
                continue
            if isinstance(finder, _Nothing):
                self._unavailable[_key(finding)] = finder.why
            out.append(dataclasses.replace(finding, example=self._find(finder, finding, directions)))
        return out

    def _finder(self, old, new):
        try:
            return self._finder_class(old, new, self.options)
        except Exception as error:  # noqa: BLE001 - a runtime refusing the schema must not sink the check
            # One line, said again in the notes: a traceback tells a schema author nothing.
            why = short(f"{type(error).__name__}: {error}")
            LOG.info("example search unavailable for this comparison: %s", why)
            return _Nothing(why)

    def directions(self, finding: Finding) -> list[Direction]:
        """The breaking directions this mode checks, for an error finding that has any."""
        if finding.severity is not Severity.ERROR:
            return []
        breaks = finding.breaks or frozenset()
        return sorted(breaks & self.mode.directions, key=lambda d: d.value)

    def _find(self, finder, finding: Finding, directions: list[Direction]):
        for direction in directions:
            budget = Budget(self._deadline, clock=self._clock)
            writer = Side.OLD if direction is Direction.BACKWARD else Side.NEW
            try:
                example = finder.find(finding, writer=writer, budget=budget)
            except Exception as error:  # noqa: BLE001 - a search failure is "no example", never a failed check
                LOG.info("example search failed for %s at %s: %s", finding.rule, finding.path,
                         short(f"{type(error).__name__}: {error}"))
                example = None
            if example is not None:
                return example
            if budget.oversized:
                self._oversized.add(_key(finding))
        LOG.info("no example for %s at %s", finding.rule, finding.path)
        return None

    def notes(self, findings) -> tuple[str, ...]:
        unfound = [f for f in findings if f.example is None and self.directions(f)
                   and f.rule not in NOT_A_READ_FAILURE and f.example_why is None]
        unavailable = [f for f in unfound if _key(f) in self._unavailable]
        unfound = [f for f in unfound if _key(f) not in self._unavailable]
        oversized = [f for f in unfound if _key(f) in self._oversized]
        missing = [f for f in unfound if _key(f) not in self._skipped | self._oversized]
        skipped = len(unfound) - len(missing) - len(oversized)
        notes = []
        for why in dict.fromkeys(self._unavailable[_key(f)] for f in unavailable):
            refused = [f for f in unavailable if self._unavailable[_key(f)] == why]
            notes.append(UNAVAILABLE_NOTE.format(count=len(refused), error=why, items=_listed(refused)))
        if missing:
            notes.append(MISSING_NOTE.format(count=len(missing), items=_listed(missing)))
        if oversized:
            notes.append(OVERSIZED_NOTE.format(count=len(oversized), items=_listed(oversized),
                                               chars=limits.EXAMPLE_PAYLOAD_CHARS))
        if skipped:
            notes.append(SKIPPED_NOTE.format(count=skipped, seconds=limits.EXAMPLE_SECONDS_PER_CHECK))
        return tuple(notes)


class _Nothing:
    """The finder when a runtime cannot load the schemas: it finds nothing, and says why."""

    def __init__(self, why: str):
        self.why = why

    def find(self, finding, *, writer, budget):
        return None



def _no_reason(_finding) -> None:
    return None


def _listed(findings: list[Finding]) -> str:
    """The findings where every output places them (file:line), not by their internal element
    path (`Payment.reference<null>`), which the text of a review never shows."""
    items = ", ".join(f"{f.rule} at {f.file}:{f.line}" + (" (old)" if f.side is Side.OLD else "")
                      for f in findings[:MISSING_LISTED])
    return items + (", ..." if len(findings) > MISSING_LISTED else "")


def _key(finding: Finding) -> tuple:
    return (finding.rule, finding.path, finding.side, finding.file)


def examples_missing(report) -> int:
    """How many breaking errors of a report checked with examples have none (searched or not)."""
    return sum(1 for f in report.findings if f.example is None and f.example_why is None
               and f.severity is Severity.ERROR and f.rule not in NOT_A_READ_FAILURE
               and f.breaks and f.breaks & report.mode.directions)


__all__ = ["Search", "NOT_A_READ_FAILURE", "examples_missing", "Budget"]
