"""Override records round-trip through comments, and how they change the verdict."""
from datetime import datetime, timezone

from bot.config.config import Config
from bot.overrides.verdict import Record, RecordKind, errors, records_in, since_revoke, verdict
from bot.render.model import Conclusion
from bot.review.review import FileChange, review

NOW = datetime(2026, 12, 2, tzinfo=timezone.utc)
BASE = '{"type": "record", "name": "E", "fields": [{"name": "id", "type": "string"}]}\n'
TWO = ('{"type": "record", "name": "E", "fields": [{"name": "id", "type": "string"},\n'
       '  {"name": "a", "type": "int"},\n  {"name": "b", "type": "int"}]}\n')
PATCH = "@@ -1 +1,3 @@\n-" + BASE + "+" + TWO.replace("\n", "\n+").rstrip("+")


def result():
    change = FileChange(path="s/e.avsc", status="modified", patch=PATCH, base_text=BASE, head_text=TWO)
    return review([change], Config(), now=NOW)


def record(kind=RecordKind.OVERRIDE, user="maint", fingerprints=()):
    return Record(kind=kind, user=user, at="2026-12-02 10:00 UTC", comment="https://x/c/1",
                  reason="coordinated upgrade", fingerprints=tuple(fingerprints))


KEY, SCOPE = b"k" * 32, "acme/x#1"


def test_records_round_trip_through_comment_bodies_and_ignore_junk():
    first = record(fingerprints=("abc",))
    bodies = ["hello", "text " + first.marker(key=KEY, scope=SCOPE),
              "<!-- schema-review:record !!notbase64.00 -->", None,
              record(RecordKind.REVOKE).marker(key=KEY, scope=SCOPE)]
    assert records_in(bodies, key=KEY, scope=SCOPE) == [first, record(RecordKind.REVOKE)]


def test_revoke_clears_earlier_overrides():
    items = [record(user="a"), record(RecordKind.REVOKE), record(user="b"), record(user="c")]
    assert [r.user for r in since_revoke(items)] == ["b", "c"]


def test_full_cover_turns_the_verdict_to_the_configured_conclusion():
    current = result()
    assert current.conclusion is Conclusion.FAILURE
    every = [fp for fp, _path, _finding in errors(current)]
    assert len(every) == 2
    conclusion, title, summary = verdict(current, [record(fingerprints=every)], conclusion=Conclusion.NEUTRAL)
    assert conclusion is Conclusion.NEUTRAL and title == "Overridden by @maint"
    assert "coordinated upgrade" in summary and "**Overridden** (2)" in summary
    assert current.summary in summary  # every finding is still listed


def test_partial_cover_keeps_failing_and_names_what_is_missing():
    current = result()
    first = errors(current)[0][0]
    conclusion, title, summary = verdict(current, [record(fingerprints=[first])], conclusion=Conclusion.SUCCESS)
    assert conclusion is Conclusion.FAILURE and "1 not covered" in title
    assert "**Not covered** (1)" in summary


def test_no_overrides_leaves_the_result_alone():
    current = result()
    assert verdict(current, [], conclusion=Conclusion.SUCCESS) == (current.conclusion, current.title, current.summary)
