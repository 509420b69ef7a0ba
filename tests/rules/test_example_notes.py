"""The example search's notes name findings where the outputs place them, never by an internal
element path such as `Payment.reference<null>` (a union branch)."""
from __future__ import annotations

import pytest

import rules.limits
from rules import Mode, Source, check

OLD = ('{"type": "record", "name": "Payment", "fields": [\n'
       '  {"name": "id", "type": "string"},\n'
       '  {"name": "reference", "type": ["null", "string"], "default": null}\n]}\n')
NEW = OLD.replace('["null", "string"], "default": null', '"string"')


@pytest.mark.parametrize("limit, note", [
    ("EXAMPLE_CANDIDATES", "examples_missing: 1 error finding(s)"),
    ("EXAMPLE_PAYLOAD_CHARS", "examples_over_size_limit: 1 error finding(s)"),
])
def test_a_finding_without_an_example_is_named_by_rule_file_and_line(monkeypatch, limit, note):
    monkeypatch.setattr(rules.limits, limit, 0)
    report = check(Source(path="old.avsc", text=OLD), Source(path="new.avsc", text=NEW),
                   mode=Mode.BACKWARD, examples=True)
    [finding] = report.findings
    assert finding.path == "Payment.reference<null>" and finding.example is None
    [listed] = [n for n in report.notes if n.startswith(note)]
    assert listed.endswith(": AVRO_NULLABLE_MADE_NON_NULLABLE at new.avsc:3"), listed
    assert "<null>" not in " ".join(report.notes)
