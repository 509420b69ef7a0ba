"""Staged promotion to required: dated against the base branch's history, per format."""
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.config.config import Config
from bot.lifecycle.elements import optional_paths
from bot.lifecycle.promotion import PROMOTION_RULES
from bot.review.review import Conclusion, FileChange, FileStatus, review
from rules import Format, Severity

NOW = datetime(2026, 12, 2, 12, tzinfo=timezone.utc)
CASES = Path(__file__).parent / "promotion_cases"
FILES = {Format.AVRO: ("avro", "user.avsc", "User.email<null>"),
         Format.JSONSCHEMA: ("jsonschema", "user.schema.json", "User.email"),
         Format.PROTOBUF: ("protobuf", "user.proto", "User.email")}


def version(fmt, name):
    folder, path, _element = FILES[fmt]
    return (CASES / folder / f"{name}.{path.split('.', 1)[1]}").read_text()


def history(fmt, *days_ago_optional):
    """Newest first: the field optional in each version N days ago, then the version without it."""
    out = [(f"{i:040x}", (NOW - timedelta(days=days)).isoformat(), version(fmt, "optional"))
           for i, days in enumerate(days_ago_optional)]
    oldest = max(days_ago_optional, default=0) + 30
    return out + [("f" * 40, (NOW - timedelta(days=oldest)).isoformat(), version(fmt, "absent"))]


def promote(fmt, versions, *, window=90):
    folder, path, element = FILES[fmt]
    change = FileChange(path=path, status=FileStatus.MODIFIED, base_text=version(fmt, "optional"),
                        head_text=version(fmt, "required"), history=versions)
    result = review([change], Config(promotion_window_days=window), now=NOW)
    [finding] = [f for f in result.files[0].findings if f.rule == PROMOTION_RULES[fmt]]
    assert finding.path == element
    return result, finding


@pytest.mark.parametrize("fmt", list(Format))
def test_promotion_after_the_window_is_a_warning(fmt):
    result, finding = promote(fmt, history(fmt, 3, 94))
    assert finding.severity is Severity.WARNING
    assert finding.message.endswith(
        " Optional since 2026-08-30 (commit date), 94 days; producers that still omit it will now fail.")
    assert result.conclusion is Conclusion.SUCCESS


@pytest.mark.parametrize("fmt", list(Format))
def test_promotion_before_the_window_stays_an_error_naming_the_date(fmt):
    result, finding = promote(fmt, history(fmt, 3, 10))
    assert finding.severity is Severity.ERROR
    assert finding.message.endswith(" It has been optional since 2026-11-22 (commit date), 10 days; the "
                                    "promotion window is 90 days, so it may become required "
                                    "from 2027-02-20.")
    assert result.conclusion is Conclusion.FAILURE


@pytest.mark.parametrize("fmt", list(Format))
@pytest.mark.parametrize("versions", [
    [],  # no history at all (a shallow clone of one commit, or the history call failed)
    [("a" * 40, "2026-01-01T00:00:00+00:00", "")],  # rewritten: the newest version is not the base
], ids=["none", "rewritten"])
def test_promotion_with_unknown_history_stays_an_error(fmt, versions):
    result, finding = promote(fmt, versions)
    assert finding.severity is Severity.ERROR
    assert "cannot be established" in finding.message and "90-day" in finding.message
    assert result.conclusion is Conclusion.FAILURE


@pytest.mark.parametrize("fmt", list(Format))
def test_optional_in_every_version_read_is_dated_at_least(fmt):
    """The history read (30 versions, or a shallow clone) may stop before the field was added:
    the date is the latest it can be, and said to be so."""
    _result, finding = promote(fmt, history(fmt, 3, 120)[:-1])
    assert finding.severity is Severity.WARNING
    assert " Optional since at least 2026-08-04 (commit date), 120 days;" in finding.message
    _result, finding = promote(fmt, history(fmt, 3, 60)[:-1])
    assert finding.severity is Severity.ERROR
    assert "optional since at least 2026-10-03 (commit date), 60 days;" in finding.message


@pytest.mark.parametrize("fmt", list(Format))
def test_a_window_of_zero_disables_staging(fmt):
    _result, finding = promote(fmt, history(fmt, 400), window=0)
    assert finding.severity is Severity.ERROR
    assert "optional" not in finding.message.split(".", 1)[1]


def test_an_optional_run_broken_in_history_counts_from_its_last_start():
    """Optional 200 days ago, required for a while, optional again 20 days ago: 20 days."""
    fmt = Format.JSONSCHEMA
    versions = [("1" * 40, (NOW - timedelta(days=20)).isoformat(), version(fmt, "optional")),
                ("2" * 40, (NOW - timedelta(days=60)).isoformat(), version(fmt, "required")),
                ("3" * 40, (NOW - timedelta(days=200)).isoformat(), version(fmt, "optional"))]
    _result, finding = promote(fmt, versions)
    assert finding.severity is Severity.ERROR and "since 2026-11-12 (commit date), 20 days;" in finding.message


def test_a_field_added_as_required_is_not_staged():
    """Only promotion is staged: a new required field has never been optional."""
    fmt = Format.PROTOBUF
    change = FileChange(path="user.proto", status=FileStatus.MODIFIED,
                        base_text=version(fmt, "absent"), head_text=version(fmt, "required"),
                        history=history(fmt, 400)[1:])
    [finding] = review([change], Config(), now=NOW).files[0].findings
    assert finding.severity is Severity.ERROR and finding.message == 'Field "User.email" was added as required.'


@pytest.mark.parametrize("fmt, text, expected", [
    (Format.AVRO, '{"type": "record", "name": "A", "namespace": "x", "fields": ['
                  '{"name": "b", "type": {"type": "record", "name": "B", "fields": ['
                  '{"name": "c", "type": ["string", "null"]}]}}, '
                  '{"name": "d", "type": ["null", {"type": "record", "name": "y.B", "fields": []}]}]}',
     {"x.B.c", "A.d"}),  # two types named B: the engine's paths use full names then
    (Format.JSONSCHEMA, '{"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}, '
                        '"odd name": {}}, "required": [], "allOf": [{"required": ["b"]}], '
                        '"$defs": {"a": {"properties": {"b": {}, "c": {}}, "required": ["b"]}}}',
     {"$.a", "$.a.c", '$["odd name"]'}),
    (Format.PROTOBUF, 'edition = "2023";\nmessage A {\n  string b = 1 [features.field_presence '
                      '= LEGACY_REQUIRED];\n  string c = 2; // d = 3;\n  message E { int32 f = 1; }\n'
                      '  oneof g { string h = 4; }\n}\n', {"A.c", "A.E.f"}),
    (Format.PROTOBUF, 'syntax = "proto3";\nmessage A { optional string b = 1; }\n', set()),
    (Format.JSONSCHEMA, '{"$ref": "#/$defs/n", "$defs": {"n": {"properties": {"next": {"$ref": "#/$defs/n"}}}}}',
     {"$.next"}),  # a recursive schema is not unrolled
    (Format.AVRO, "not json", set()),
])
def test_optional_paths_follow_the_engines_names(fmt, text, expected):
    assert optional_paths(text, fmt=fmt) == expected
