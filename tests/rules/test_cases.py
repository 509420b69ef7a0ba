"""Every rule case folder: expected findings, and every suggestion silences its own finding."""
import pytest

from rules.registry import all_specs
from tests.rules.casedata import apply, discover

CASES = discover()
MATCHED_KEYS = ("rule", "severity", "line", "path", "side", "message", "suggestion", "against")


def _shape(finding: dict, keys) -> dict:
    shaped = {key: finding.get(key) for key in keys}
    if shaped.get("against"):  # the case folder's file name; the run sees a full path
        shaped["against"] = shaped["against"].rsplit("/", 1)[-1]
    return shaped


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case_reports_expected_findings(case):
    expected = case.expected
    actual = case.run().to_json()
    assert actual["compatible"] == expected["compatible"]
    wanted = expected["findings"]
    # Each expected finding names the keys it pins down; the rest of the output is free.
    got = [_shape(f, [k for k in MATCHED_KEYS if k in want])
           for f, want in zip(actual["findings"], wanted)]
    assert got == [_shape(w, [k for k in MATCHED_KEYS if k in w]) for w in wanted]
    assert len(actual["findings"]) == len(wanted), actual["findings"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_each_suggestion_silences_its_finding(case):
    report = case.run()
    new_text = case.new.read_text()
    for finding in report.findings:
        if finding.suggestion is None:
            continue
        fixed = case.run(new_text=apply(new_text, finding.suggestion))
        again = [(f.rule, f.path) for f in fixed.findings]
        assert (finding.rule, finding.path) not in again, finding.suggestion


def test_every_rule_has_a_firing_and_a_clean_case():
    by_rule = {}
    for case in CASES:
        fires = any(f["rule"] == case.rule for f in case.expected["findings"])
        by_rule.setdefault(case.rule, set()).add(fires)
    missing = {rule: by_rule.get(rule, set()) for rule in all_specs()
               if by_rule.get(rule, set()) != {True, False}}
    assert not missing, f"rules without both a firing and a clean case: {sorted(missing)}"


def test_case_folders_name_real_rules():
    assert {case.rule for case in CASES} <= set(all_specs())
