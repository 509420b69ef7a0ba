"""SARIF 2.1.0, the format GitHub code scanning reads: the rules used, and located results."""
from __future__ import annotations

from importlib import metadata
from pathlib import PurePosixPath, PureWindowsPath
from urllib.parse import quote

from ..model import Severity
from ..registry import documentation, rule_modules
from ..visible import visible, visible_json
from .model import Located, Outcome, RuleHelp, scrub

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
VERSION = "2.1.0"
TOOL = "schema-review"
SRCROOT = "%SRCROOT%"  # code scanning resolves relative URIs against the repository root
FINGERPRINT = "schemaReview/v1"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
UNKNOWN_RULE = RuleHelp(summary="A finding of schema-review.", markdown="")
NOT_REVIEWED = "{path} was not reviewed: {problem}"


def render(outcome: Outcome) -> str:
    # Messages are shown text (rules/visible.py); what must stay exact (a fix's source text) is
    # JSON-escaped, so no control or bidi character is in the file itself.
    return visible_json(log(outcome), ascii=False, indent=2) + "\n"


def log(outcome: Outcome) -> dict:
    used = list(dict.fromkeys(item.finding.rule for item in outcome.findings))
    index = {rule: number for number, rule in enumerate(used)}
    helps = _registry_help(used) | dict(outcome.rule_help)
    run = {
        "tool": {"driver": {"name": TOOL, "version": _version(),
                            "rules": [_rule(rule, helps.get(rule, UNKNOWN_RULE)) for rule in used]}},
        "invocations": [{"executionSuccessful": True,
                         "toolExecutionNotifications": _notifications(outcome)}],
        "results": [_result(item, index, new_file=file.path)
                    for file in outcome.files for item in file.findings],
        "columnKind": "unicodeCodePoints",
    }
    return {"$schema": SCHEMA, "version": VERSION, "runs": [run]}


def _rule(rule: str, help: RuleHelp) -> dict:
    out = {"id": rule, "shortDescription": {"text": help.summary}}
    if help.markdown:
        out["fullDescription"] = {"text": help.summary}
        out["help"] = {"text": help.markdown, "markdown": help.markdown}
    if rule.startswith("PROTO_"):
        from ..protobuf.bufrules import buf_ids  # only protobuf rules have buf counterparts

        if ids := buf_ids(rule):
            out["properties"] = {"buf": list(ids)}  # the ids `buf breaking` reports it under
    return out


def _result(item: Located, index: dict[str, int], *, new_file: str) -> dict:
    finding = item.finding
    out = {"ruleId": finding.rule, "ruleIndex": index[finding.rule],
           "level": LEVELS[finding.severity], "message": {"text": visible(item.message)},
           "locations": [_location(item.file, item.line)]}
    if item.fingerprint:
        out["partialFingerprints"] = {FINGERPRINT: item.fingerprint}
    fix = finding.suggestion
    if fix:
        # A suggestion replaces whole lines of the new version (also for a removed element);
        # SARIF's line region ends before the last line's newline, so the text omits it.
        out["fixes"] = [{"description": {"text": visible(fix.title)}, "artifactChanges": [{
            "artifactLocation": _artifact(new_file),
            "replacements": [{"deletedRegion": {"startLine": fix.line_start,
                                                "endLine": fix.line_end},
                              "insertedContent": {"text": scrub(fix.replacement.removesuffix("\n"))}}],
        }]}]
    return out


def _location(path: str, line: int | None) -> dict:
    physical = {"artifactLocation": _artifact(path)}
    if line:
        physical["region"] = {"startLine": max(line, 1)}
    return {"physicalLocation": physical}


def _artifact(path: str) -> dict:
    path = scrub(path)
    if PurePosixPath(path).is_absolute():
        return {"uri": PurePosixPath(path).as_uri()}
    if PureWindowsPath(path).is_absolute():
        return {"uri": PureWindowsPath(path).as_uri()}
    return {"uri": quote(path.replace("\\", "/"), safe="/"), "uriBaseId": SRCROOT}


def _notifications(outcome: Outcome) -> list[dict]:
    out = [{"level": "error",  # fail closed: a file nobody checked blocks like a break
            "message": {"text": visible(NOT_REVIEWED.format(path=file.path, problem=file.problem))},
            "locations": [_location(file.path, None)]}
           for file in outcome.files if file.problem]
    out += [{"level": "note", "message": {"text": visible(note)}} for note in outcome.notes]
    return out


def _registry_help(used: list[str]) -> dict[str, RuleHelp]:
    if not used:
        return {}
    return {module.SPEC.id: RuleHelp(summary=module.SPEC.summary, markdown=documentation(module))
            for module in rule_modules() if module.SPEC.id in used}


def _version() -> str:
    try:
        return metadata.version(TOOL)
    except metadata.PackageNotFoundError:
        return "0.0.0"  # run from a source tree that was never installed
