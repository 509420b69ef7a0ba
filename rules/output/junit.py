"""JUnit XML for CI test reports: one testcase per schema file, a failure for its errors."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..model import Severity
from ..visible import line_start, visible
from .model import FileResult, Outcome

SUITE = "schema-review"
FAILURE = "{count} error-level finding(s)"
NOT_REVIEWED = "not reviewed: {problem}"
NOT_REVIEWED_TYPE = "SCHEMA_NOT_REVIEWED"
LINE = "{where}: {severity} {rule} {message}"
# Characters XML 1.0 cannot carry even escaped, and lone surrogates UTF-8 cannot encode.
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """One line every XML parser accepts: control characters shown (rules/visible.py; CI shows
    this text in logs), the rest of what XML 1.0 forbids (U+FFFE, U+FFFF) becomes U+FFFD."""
    return NOT_XML.sub("\ufffd", visible(text))


def xml_lines(lines) -> str:
    """Lines of text, each as `xml_text` and none a workflow command (`line_start`)."""
    return "\n".join(xml_text(line_start(line)) for line in lines)


def render(outcome: Outcome) -> str:
    cases = [_case(file) for file in outcome.files]
    failures = sum(case.find("failure") is not None for case in cases)
    skipped = sum(case.find("skipped") is not None for case in cases)
    counts = {"tests": str(len(cases)), "failures": str(failures), "errors": "0",
              "skipped": str(skipped)}
    root = ET.Element("testsuites", name=SUITE, **counts)
    suite = ET.SubElement(root, "testsuite", name=SUITE, **counts)
    suite.extend(cases)
    if outcome.notes:
        ET.SubElement(suite, "system-out").text = xml_lines(outcome.notes)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _case(file: FileResult) -> ET.Element:
    case = ET.Element("testcase", classname=SUITE, name=xml_text(file.path),
                      file=xml_text(file.path))
    if file.problem:  # fail closed: a file nobody checked fails, it is not skipped
        ET.SubElement(case, "failure", message=xml_text(NOT_REVIEWED.format(problem=file.problem)),
                      type=NOT_REVIEWED_TYPE)
        return case
    errors = [item for item in file.findings if item.finding.severity is Severity.ERROR]
    others = [item for item in file.findings if item.finding.severity is not Severity.ERROR]
    if errors:
        # Every rule that failed, not only the first: CI reports group failures by type.
        rules = ", ".join(dict.fromkeys(item.finding.rule for item in errors))
        failure = ET.SubElement(case, "failure", message=FAILURE.format(count=len(errors)),
                                type=rules)
        failure.text = xml_lines(map(_line, errors))
    if others:
        ET.SubElement(case, "system-out").text = xml_lines(map(_line, others))
    return case


def _line(item) -> str:
    where = f"{item.file}:{item.line}" if item.line else item.file
    return LINE.format(where=where, severity=item.finding.severity.value,
                       rule=item.finding.rule, message=item.message)
