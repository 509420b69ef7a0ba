"""Helpers for the protobuf tests: build Sources from text and check them with chosen options."""
from __future__ import annotations

import rules
from rules.model import Mode, Options, Source

BOTH = frozenset({"WIRE", "WIRE_JSON"})
WIRE = frozenset({"WIRE"})


def source(text: str, *, path: str = "schema.proto", imports: dict | None = None,
           proto_paths: tuple[str, ...] = ()) -> Source:
    return Source(path=path, text=text, imports=dict(imports or {}), proto_paths=proto_paths)


def check(old: Source | str, new: Source | str, *, categories=BOTH, mode: Mode = Mode.BACKWARD,
          severities: dict | None = None, proto_rules=()) -> rules.Report:
    old = source(old, path="old.proto") if isinstance(old, str) else old
    new = source(new, path="new.proto") if isinstance(new, str) else new
    options = Options(proto_categories=frozenset(categories), severities=severities or {},
                      proto_rules=frozenset(proto_rules))
    return rules.check(old, new, format=rules.Format.PROTOBUF, mode=mode, options=options)


def rules_of(report: rules.Report, *, at_least=rules.Severity.INFO) -> set[str]:
    return {f.rule for f in report.findings if f.severity.rank <= at_least.rank}
