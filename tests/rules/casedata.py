"""Discovery and running of the data-driven rule cases under tests/rules/cases/."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import rules
from rules.model import Format, Mode, Options, Policy, Source

CASES = Path(__file__).parent / "cases"
EXTENSION = {Format.AVRO: "avsc", Format.PROTOBUF: "proto", Format.JSONSCHEMA: "json"}


@dataclass(frozen=True)
class Case:
    """tests/rules/cases/<format>/<RULE_ID>/<name>/{old,new}.<ext}, expected.json, args.json?"""

    folder: Path
    fmt: Format
    rule: str

    @property
    def id(self) -> str:
        return f"{self.fmt.value}/{self.rule}/{self.folder.name}"

    @property
    def old(self) -> Path:
        return self.folder / f"old.{EXTENSION[self.fmt]}"

    @property
    def new(self) -> Path:
        return self.folder / f"new.{EXTENSION[self.fmt]}"

    @property
    def expected(self) -> dict:
        return json.loads((self.folder / "expected.json").read_text())

    @property
    def args(self) -> dict:
        path = self.folder / "args.json"
        return json.loads(path.read_text()) if path.exists() else {}

    def run(self, new_text: str | None = None, *, examples: bool = False) -> rules.Report:
        """Check the case as the CLI would; `args.json` may set mode, policy, proto_path."""
        args = self.args
        roots = tuple(str(self.folder / root) for root in args.get("proto_path", []))
        old = rules.read(str(self.old), proto_paths=roots)
        new = rules.read(str(self.new), proto_paths=roots)
        if new_text is not None:
            new = Source(path=new.path, text=new_text, proto_paths=roots, imports=new.imports)
        against = [rules.read(str(self.folder / name), proto_paths=roots)
                   for name in args.get("against", [])]
        options = Options(policy=Policy(args.get("policy", "lenient")),
                          format_assertion=args.get("format_assertion", False),
                          proto_categories=frozenset(args.get("categories", ("WIRE", "WIRE_JSON"))),
                          severities={k: rules.Severity(v) if v else None
                                      for k, v in args.get("severities", {}).items()})
        return rules.check(old, new, format=self.fmt, mode=Mode(args.get("mode", "backward")),
                           against=against, options=options, examples=examples)


def discover() -> list[Case]:
    found = []
    for fmt in Format:
        for rule_dir in sorted((CASES / fmt.value).glob("*")):
            for folder in sorted(p for p in rule_dir.iterdir() if (p / "expected.json").exists()):
                found.append(Case(folder=folder, fmt=fmt, rule=rule_dir.name))
    return found


def apply(text: str, suggestion: rules.Suggestion) -> str:
    """The new file with the suggestion's lines replaced, as GitHub's "Commit suggestion" does."""
    lines = text.split("\n")  # GitHub numbers lines by \n only, unlike str.splitlines
    replacement = suggestion.replacement.removesuffix("\n").split("\n")
    return "\n".join(lines[:suggestion.line_start - 1] + replacement + lines[suggestion.line_end:])
