"""The migration calendar: what a schema has in flight, and the table ending the check summary."""
import json
from datetime import date, datetime, timedelta, timezone

import pytest

from bot.config.config import Config
from bot.lifecycle.migrations import Kind, in_flight
from bot.render.calendar import MAX_ROWS
from bot.render.escape import code
from bot.lifecycle.since import Clock
from bot.review.review import FileChange, FileStatus, review
from rules import Format

NOW = datetime(2026, 12, 2, 12, tzinfo=timezone.utc)
TODAY = NOW.date()


def schema(required=("id",), **properties):
    props = {"id": {"type": "string"}, **properties}
    return json.dumps({"title": "User", "type": "object", "properties": props,
                       "required": list(required)}, indent=1)


STRING = {"type": "string"}
OLD = {"type": "string", "deprecated": True}


def versions(*pairs, clock=None):
    """(days ago, text) pairs, newest first, as a history; each version dated by `clock` (None:
    no clock given, as the CLI's `git log` reads them)."""
    return [(f"{i:040x}", (NOW - timedelta(days=days)).isoformat(), text, *([clock] if clock else []))
            for i, (days, text) in enumerate(pairs)]


def chart(text, history, **config):
    return in_flight(text, file="user.schema.json", fmt=Format.JSONSCHEMA, history=history,
                     config=Config(**config), now=NOW)


def test_a_rename_double_written_on_the_base_branch_is_tracked_until_removal():
    renamed = schema(fax=OLD, faxNumber=STRING)
    history = versions((5, renamed), (200, schema(fax=STRING)))
    [double, pending] = chart(renamed, history)
    assert (double.kind, double.element, double.replacement) == (Kind.DOUBLE_WRITE, "User.fax", "User.faxNumber")
    assert (double.since, double.due, double.new) == (TODAY - timedelta(days=5), TODAY + timedelta(days=9), False)
    assert (pending.kind, pending.element) == (Kind.PROMOTION, "User.faxNumber")
    assert pending.due == TODAY + timedelta(days=85)
    # Once the old property is gone, only the new one's promotion is left.
    assert [m.kind for m in chart(schema(faxNumber=STRING), history)] == [Kind.PROMOTION]


def test_a_double_write_started_by_the_change_is_dated_today():
    base = schema(fax=STRING)
    [double, pending] = chart(schema(fax=OLD, faxNumber=STRING), versions((50, base)))
    assert (double.kind, double.replacement, double.new) == (Kind.DOUBLE_WRITE, "User.faxNumber", True)
    assert (double.since, double.due) == (TODAY, TODAY + timedelta(days=14))
    assert (pending.new, pending.due) == (True, TODAY + timedelta(days=90))


def test_two_new_siblings_make_no_guess_at_the_replacement():
    base = schema(fax=STRING)
    found = chart(schema(fax=OLD, faxNumber=STRING, phone=STRING), versions((50, base)))
    assert [m.kind for m in found if m.element == "User.fax"] == [Kind.DEPRECATED]


@pytest.mark.parametrize("pairs, expected", [
    ([(10, "with"), (40, "without")], [TODAY - timedelta(days=10)]),  # added 10 days ago
    ([(100, "with"), (140, "without")], []),  # window passed: settled
    ([(10, "with")], []),  # optional since the oldest version: part of the design
])
def test_an_optional_field_is_pending_while_its_window_runs(pairs, expected):
    texts = {"with": schema(email=STRING), "without": schema()}
    found = chart(schema(email=STRING), versions(*((days, texts[t]) for days, t in pairs)))
    assert [m.since for m in found if m.kind is Kind.PROMOTION] == expected


def test_nothing_pending_when_staging_is_off_or_the_file_is_new():
    history = versions((10, schema(email=STRING)), (40, schema()))
    assert chart(schema(email=STRING), history, promotion_window_days=0) == []
    assert in_flight(schema(email=STRING), file="f", fmt=Format.JSONSCHEMA, history=(), config=Config(),
                     now=NOW, added=True) == []


def test_a_deprecation_without_history_is_undated():
    [found] = chart(schema(fax=OLD), [])
    assert (found.kind, found.since, found.due, found.new) == (Kind.DEPRECATED, None, None, False)


@pytest.mark.parametrize("fmt, text, old", [
    (Format.PROTOBUF, 'syntax = "proto3";\nmessage User {\n  string fax = 1 [deprecated = true];\n'
                      '  string fax_number = 2;\n}\n', 'syntax = "proto3";\nmessage User {\n  string fax = 1;\n}\n'),
    (Format.AVRO, '{"type": "record", "name": "User", "fields": [{"name": "fax", "type": "string", '
                  '"deprecated": true}, {"name": "faxNumber", "type": "string", "default": ""}]}',
     '{"type": "record", "name": "User", "fields": [{"name": "fax", "type": "string"}]}'),
])
def test_double_writes_in_every_format(fmt, text, old):
    found = in_flight(text, file="f", fmt=fmt, history=versions((3, text), (30, old)), config=Config(), now=NOW)
    [double] = [m for m in found if m.kind is Kind.DOUBLE_WRITE]
    assert (double.element, double.replacement, double.since) == (
        "User.fax", "User." + ("fax_number" if fmt is Format.PROTOBUF else "faxNumber"), TODAY - timedelta(days=3))


@pytest.mark.parametrize("clock, said", [
    (None, "commit date"), (Clock.COMMIT, "commit date"), (Clock.MERGED, "merged on GitHub")])
def test_the_summary_ends_with_the_calendar_escaped(clock, said):
    """Each date says whose clock it is: GitHub's merge of the version's pull request, or the
    commit's own date (the CLI's, or a commit pushed without a pull request)."""
    hostile = "x|`<!--@team"
    base = schema(fax=STRING, email=STRING)
    head = schema(fax=OLD, email=STRING, **{hostile: STRING})
    change = FileChange(path="user.schema.json", status=FileStatus.MODIFIED, base_text=base,
                        head_text=head, history=versions((50, base), (80, schema(fax=STRING)), clock=clock))
    summary = review([change], Config(), now=NOW).summary
    calendar = summary[summary.index("### Migrations in flight"):]
    assert summary.endswith(calendar)  # the last section
    rows = [line for line in calendar.splitlines() if line.startswith("| `")]
    assert len(rows) == 3
    replaced = code(f'User["{hostile}"]').replace("|", "\\|")
    assert f"| double-write, replaced by {replaced} | this change " \
           f"| old one removable from {(TODAY + timedelta(days=14)).isoformat()} |" in rows[1]
    assert "<!--" not in calendar and "x\\|`" in calendar
    assert f"| {(TODAY - timedelta(days=50)).isoformat()} ({said}) | promotable from " \
           f"{(TODAY + timedelta(days=40)).isoformat()} |" in calendar


def test_a_long_calendar_is_cut_and_points_at_the_command():
    many = {f"p{i}": STRING for i in range(MAX_ROWS + 5)}
    change = FileChange(path="user.schema.json", status=FileStatus.MODIFIED, base_text=schema(),
                        head_text=schema(**many), history=versions((50, schema())))
    summary = review([change], Config(), now=NOW).summary
    assert summary.count("pending promotion") == MAX_ROWS
    assert summary.endswith("…and 5 more: `schema-review lifecycle` lists them all.")


def test_no_calendar_when_nothing_is_in_flight():
    change = FileChange(path="user.schema.json", status=FileStatus.MODIFIED, base_text=schema(),
                        head_text=schema(required=()), history=versions((50, schema())))
    # "id" was made optional: a relaxation, not a field introduced to be promoted later
    assert "Migrations in flight" not in review([change], Config(), now=NOW).summary


def test_the_rename_suggestion_applied_becomes_a_tracked_double_write():
    """JSON Schema has no aliases: the rename's fix keeps the old property, deprecated, and the
    calendar then follows the pair until the old one goes."""
    base = schema(userName=STRING)
    renamed = schema(username=STRING)
    history = versions((40, base), (100, schema()))

    def run(head):
        change = FileChange(path="user.schema.json", status=FileStatus.MODIFIED, base_text=base,
                            head_text=head, history=history)
        return review([change], Config(), now=NOW).files[0]

    [finding] = [f for f in run(renamed).findings if f.rule == "JSONSCHEMA_PROPERTY_RENAMED"]
    fix = finding.suggestion
    lines = renamed.split("\n")
    applied = "\n".join(lines[:fix.line_start - 1] + fix.replacement.split("\n") + lines[fix.line_end:])
    after = run(applied)
    assert not [f for f in after.findings if f.rule == "JSONSCHEMA_PROPERTY_RENAMED"]
    double = [(m.kind, m.element, m.replacement, m.new) for m in after.migrations]
    assert (Kind.DOUBLE_WRITE, "User.userName", "User.username", True) in double
