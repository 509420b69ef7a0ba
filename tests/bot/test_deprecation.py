"""The deprecation window: a deprecated element may go only once the window has passed."""
from datetime import datetime, timedelta, timezone

import pytest

from bot.lifecycle.deprecation import check, deleted_deprecated
from bot.lifecycle.elements import MAX_ELEMENTS
from bot.lifecycle.since import Clock
from rules import Format, Severity, Side

NOW = datetime(2025, 3, 20, 12, tzinfo=timezone.utc)
PROTO_BASE = """syntax = "proto3";
message Order {
  string id = 1;
  string coupon = 3 [deprecated = true];
  string note = 4;
}
"""
PROTO_HEAD = """syntax = "proto3";
message Order {
  reserved 3;
  string id = 1;
}
"""
PROTO_UNMARKED = PROTO_BASE.replace(" [deprecated = true]", "")
AVRO_BASE = """{"type": "record", "name": "User", "fields": [
  {"name": "id", "type": "string"},
  {"name": "fax", "type": ["null", "string"], "default": null, "deprecated": true},
  {"name": "pager", "type": ["null", "string"], "default": null, "doc": "Deprecated: unused"}
]}"""
AVRO_HEAD = """{"type": "record", "name": "User", "fields": [
  {"name": "id", "type": "string"}
]}"""
JSON_BASE = """{"type": "object", "properties": {
  "id": {"type": "string"},
  "fax": {"type": "string", "deprecated": true}
}}"""
JSON_HEAD = '{"type": "object", "properties": {"id": {"type": "string"}}}'


@pytest.mark.parametrize("fmt, base, head, expected", [
    (Format.PROTOBUF, PROTO_BASE, PROTO_HEAD, [("Order.coupon", "Order.coupon", 4)]),
    (Format.PROTOBUF, PROTO_UNMARKED, PROTO_HEAD, []),  # never deprecated: the engine's business
    (Format.PROTOBUF, PROTO_BASE, PROTO_BASE, []),  # still there
    (Format.AVRO, AVRO_BASE, AVRO_HEAD, [("User.pager", "User.pager", 4), ("User.fax", "User.fax", 3)]),
    (Format.JSONSCHEMA, JSON_BASE, JSON_HEAD, [("$.fax", "$.fax", 3)]),
    (Format.AVRO, "not json", AVRO_HEAD, []),
])
def test_deleted_deprecated(fmt, base, head, expected):
    assert sorted(deleted_deprecated(base, head, fmt=fmt)) == sorted(expected)


def _history(*days_ago_marked):
    """Versions newest first: (sha, date, text), marked or not."""
    return [(f"{i:040x}", (NOW - timedelta(days=days)).isoformat(),
             PROTO_BASE if marked else PROTO_UNMARKED)
            for i, (days, marked) in enumerate(days_ago_marked)]


@pytest.mark.parametrize("history, window, expected_days", [
    (_history((2, True), (5, True), (30, False)), 14, 5),  # marked 5 days ago: too soon
    (_history((2, True), (20, True), (30, False)), 14, None),  # marked 20 days ago: fine
    (_history((0, True)), 14, 0),  # marked in the base itself, today
    (_history((2, True), (5, True)), 0, None),  # window off
    ([], 14, None),  # no history: cannot tell
    (_history((2, False)), 14, None),
])
def test_window(history, window, expected_days):
    found = check(PROTO_BASE, PROTO_HEAD, fmt=Format.PROTOBUF, file="o.proto", history=history,
                  window_days=window, now=NOW, severity=Severity.WARNING)
    if expected_days is None:
        assert found == []
        return
    [finding] = found
    assert (finding.rule, finding.side, finding.line, finding.path) == \
        ("SCHEMA_DEPRECATION_WINDOW", Side.OLD, 4, "Order.coupon")
    marked = (NOW - timedelta(days=expected_days)).date()
    assert marked.isoformat() in finding.message
    assert (marked + timedelta(days=window)).isoformat() in finding.message
    assert finding.breaks == frozenset()


@pytest.mark.parametrize("clock, days, said", [
    (None, 5, "5 days after it was marked deprecated on 2025-03-15 (commit date)"),
    (Clock.COMMIT, 5, "5 days after it was marked deprecated on 2025-03-15 (commit date)"),
    (Clock.MERGED, 5, "5 days after it was marked deprecated on 2025-03-15 (merged on GitHub)"),
    (Clock.MERGED, 0, "on the day it was marked deprecated, 2025-03-20 (merged on GitHub)"),
])
def test_the_finding_says_whose_clock_dated_the_deprecation(clock, days, said):
    """GitHub's merge of the version's pull request, or the commit's own date (a version
    without a clock is the CLI's `git log`)."""
    history = [(*version, clock) if clock else version
               for version in _history((0, True), (days, True), (30, False))]
    [finding] = check(PROTO_BASE, PROTO_HEAD, fmt=Format.PROTOBUF, file="o.proto", history=history,
                      window_days=14, now=NOW, severity=Severity.WARNING)
    assert said in finding.message


def test_a_deprecated_field_past_the_calendars_element_cap_is_still_dated():
    """The calendar reads at most MAX_ELEMENTS per version; the window reads every element, so
    a field declared after that many others cannot look never deprecated."""
    fields = "".join(f"  string f{number} = {number};\n" for number in range(1, MAX_ELEMENTS + 2))
    base = f"message Big {{\n{fields}  string last = {MAX_ELEMENTS + 2} [deprecated = true];\n}}\n"
    head = base.replace(f"  string last = {MAX_ELEMENTS + 2} [deprecated = true];\n", "")
    history = [("1" * 40, (NOW - timedelta(days=2)).isoformat(), base),
               ("2" * 40, (NOW - timedelta(days=30)).isoformat(), head)]
    [finding] = check(base, head, fmt=Format.PROTOBUF, file="big.proto", history=history,
                      window_days=14, now=NOW, severity=Severity.WARNING)
    assert (finding.path, finding.line) == ("Big.last", MAX_ELEMENTS + 3)
