"""Tracking issues and confirmations without GitHub: which deliveries are routed, sealed records
(forged, moved, edited, revoked), the gate's verdict on a migration's end, the calendar's column,
and migrations a change completes."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from types import SimpleNamespace

import pytest

from rules import Finding, Format, Mode, Severity, Side
from bot.config.config import DEPRECATION_WINDOW, parse_config
from bot.handlers.events import Work, classify
from bot.handlers.migrated import parse
from bot.lifecycle.migrations import Kind, Migration, ended, withdrawn
from bot.overrides.confirmations import (CONFIRMED, WITHDRAWN, Confirmation, Tracked, confirmed, tracked_in,
                                         tracking_of)
from bot.overrides.records import derive_key
from bot.render import calendar, tracking as render
from bot.render.model import FileReview
from bot.review.confirmations import gate, of_this_run
from tests.security.markdown_check import problems

KEY, OTHER_KEY = derive_key(b"secret"), derive_key(b"another")
REPO, BOT = "acme/shop", "schema-review[bot]"
FILE = "schemas/order.avsc"
CONFIG = parse_config('consumers:\n  - paths: ["schemas/**"]\n    owners: ["@acme/billing", "@mona"]\n')
TODAY = date(2026, 12, 3)


@pytest.mark.parametrize("event, payload, work", [
    ("pull_request", {"action": "closed", "pull_request": {"merged": True}}, Work.MERGED),
    ("pull_request", {"action": "closed", "pull_request": {"merged": False}}, Work.IGNORE),
    ("issue_comment", {"action": "created", "issue": {}, "comment": {"body": "/schema-migrated"}}, Work.MIGRATED),
    ("issue_comment", {"action": "created", "issue": {}, "comment": {"body": "/schema-override x"}}, Work.IGNORE),
    ("issue_comment", {"action": "edited", "issue": {}, "comment": {"body": "/schema-migrated"}}, Work.IGNORE),
    ("issue_comment", {"action": "created", "issue": {}, "sender": {"type": "Bot"},
                       "comment": {"body": "/schema-migrated"}}, Work.IGNORE),
])
def test_which_deliveries_are_routed(event, payload, work):
    assert classify(event, payload).work is work


@pytest.mark.parametrize("body, kind", [("/schema-migrated", CONFIRMED), ("  /schema-migrated revoke ", WITHDRAWN),
                                        ("/schema-migrated REVOKE", WITHDRAWN), ("/schema-migrated please", None),
                                        ("/schema-migratedx", None), ("thanks /schema-migrated", None)])
def test_the_command_is_parsed(body, kind):
    assert parse(body) == kind


def issue(body, *, author=BOT, kind="Bot", number=7, state="open"):
    return SimpleNamespace(number=number, body=body, state=state, url=f"https://github.com/{REPO}/issues/{number}",
                           author=author, author_type=kind)


TRACKED = Tracked(FILE, "Order.note", "deprecated", 3, since="2026-12-01", due="2026-12-15")


def test_only_the_apps_own_sealed_issue_is_a_tracking_issue():
    body = "x\n" + TRACKED.marker(key=KEY, repository=REPO)
    assert tracking_of(issue(body), key=KEY, repository=REPO, login=BOT).key == (FILE, "Order.note")
    assert tracking_of(issue(body, author="mallory", kind="User"), key=KEY, repository=REPO, login=BOT) is None
    assert tracking_of(issue(body), key=OTHER_KEY, repository=REPO, login=BOT) is None  # another key
    assert tracking_of(issue(body), key=KEY, repository="acme/other", login=BOT) is None  # moved
    assert tracked_in([issue(body, number=9), issue(body, number=4)], key=KEY, repository=REPO,
                      login=BOT)[(FILE, "Order.note")].number == 9  # the newest


def reply(kind, user, owners, *, number=7, key=KEY):
    return "ok\n\n" + Confirmation(kind, user, owners, "t", "u").marker(key=key, repository=REPO, number=number)


def test_confirmations_replay_in_order_and_a_revoke_withdraws_its_authors():
    bodies = [reply(CONFIRMED, "carol", ("@acme/billing",)), reply(CONFIRMED, "mona", ("@mona",)),
              reply(WITHDRAWN, "MONA", ()), "pasted " + reply(CONFIRMED, "eve", ("@mona",), number=8),
              reply(CONFIRMED, "eve", ("@mona",), key=OTHER_KEY)]
    assert confirmed(bodies, key=KEY, repository=REPO, number=7) == {"@acme/billing": "carol"}


STARTED = datetime(2026, 11, 24, 10, 0, tzinfo=timezone.utc)  # the run's first version, merged


def removed(element="Order.note", *, due=TODAY + timedelta(days=5), kind=Kind.DEPRECATED, findings=(),
            started=STARTED, bounded=False):
    migration = Migration(FILE, kind, element, TODAY - timedelta(days=9), due, started=started, bounded=bounded)
    return FileReview(path=FILE, format=Format.AVRO, mode=Mode.BACKWARD, base_path=FILE,
                      findings=tuple(findings), ended=(migration,))


def verdict(file, confirmations, tracked=True, tracking=Tracked(FILE, "Order.note", "deprecated", 3,
                                                                 started="2026-11-24T10:00:00Z", number=7, url="u")):
    out = gate([file], CONFIG, {(FILE, "Order.note"): tracking} if tracked else {},
               {(FILE, "Order.note"): confirmations}, today=TODAY)
    [found] = [f for f in out[0].findings if f.rule == "SCHEMA_CONSUMERS_MIGRATION"]
    return found, out[0]


@pytest.mark.parametrize("due, confirmations, severity, said", [
    (TODAY + timedelta(days=5), {}, Severity.ERROR, "consumers who have not confirmed they moved: @acme/billing, @mona."),
    (None, {"@mona": "mona"}, Severity.ERROR, "have not confirmed they moved: @acme/billing. Confirmed: @mona (by @mona)."),
    (TODAY, {"@mona": "mona"}, Severity.WARNING, "its window passed on 2026-12-03, but consumers have not "
                                                 "confirmed they moved: @acme/billing."),
    (TODAY + timedelta(days=5), {"@mona": "mona", "@acme/billing": "carol", "@acme/gone": "x"}, Severity.INFO,
     "every consumer confirmed they moved: @acme/billing (by @carol), @mona (by @mona). Tracking issue: #7."),
])
def test_the_gate_on_a_removal(due, confirmations, severity, said):
    found, _file = verdict(removed(due=due), confirmations)
    assert found.severity is severity and said in found.message, found.message


EVERYONE = {"@mona": "mona", "@acme/billing": "carol"}


@pytest.mark.parametrize("recorded, run, counts", [
    (dict(started="2026-11-24T10:00:00Z"), {}, True),  # opened by the merge that began the run
    (dict(started="2026-11-30T08:00:00+00:00"), {}, True),  # opened later in the same run
    # Opened before the run began: the element was un-deprecated (or removed) and deprecated again.
    (dict(started="2026-11-24T09:59:59Z"), {}, False),
    (dict(started="2026-11-02T10:00:00Z"), {}, False),
    # The history read ends inside the run: it may have begun before the issue; counts while open.
    (dict(started="2026-11-02T10:00:00Z"), dict(bounded=True), True),
    (dict(started="2026-11-02T10:00:00Z", open=False), dict(bounded=True), False),
    # A record from before `started` was sealed: the day of the merge, compared by day.
    (dict(since="2026-11-24"), {}, True),
    (dict(since="2026-11-23"), {}, False),
    (dict(), {}, False),  # no date at all
    (dict(started="not a time"), {}, False),
    (dict(started="2026-11-24T10:00:00Z"), dict(started=None), False),  # the run's start unknown
])
def test_a_tracking_issue_counts_only_for_the_run_it_was_opened_in(recorded, run, counts):
    tracking = Tracked(FILE, "Order.note", "deprecated", 3, number=7, url="u", **recorded)
    assert of_this_run(tracking, Migration(FILE, Kind.DEPRECATED, "Order.note", STARTED.date(), TODAY,
                                           **{"started": STARTED, **run})) is counts
    found, _file = verdict(removed(**{"started": STARTED, **run}), EVERYONE, tracking=tracking)
    if counts:
        assert found.severity is Severity.INFO and found.message.endswith("Tracking issue: #7."), found.message
    else:  # every consumer confirmed there, but not in this run
        assert found.severity is Severity.ERROR, found.message
        assert "consumers who have not confirmed they moved: @acme/billing, @mona. Tracking issue #7 was " \
               "opened for an earlier run of this migration" in found.message, found.message


def test_a_new_deprecation_is_not_annotated_with_an_earlier_runs_issue():
    charted = Migration(FILE, Kind.DEPRECATED, "Order.note", TODAY, TODAY + timedelta(days=14), new=True)
    file = FileReview(path=FILE, format=Format.AVRO, mode=Mode.BACKWARD, base_path=FILE, migrations=(charted,))
    stale = Tracked(FILE, "Order.note", "deprecated", 3, started="2026-11-02T10:00:00Z", number=7, url="u")
    [out] = gate([file], CONFIG, {(FILE, "Order.note"): stale}, {(FILE, "Order.note"): EVERYONE}, today=TODAY)
    assert out.migrations == (charted,)  # no issue link, nobody shown as confirmed


def test_without_a_tracking_issue_nobody_could_confirm_and_it_says_so():
    found, _file = verdict(removed(), {}, tracked=False)
    assert found.severity is Severity.ERROR and "No tracking issue records this migration" in found.message


def test_once_all_confirmed_the_windows_own_error_is_a_warning():
    window = Finding(rule=DEPRECATION_WINDOW, severity=Severity.ERROR, line=4, path="Order.note", message="soon",
                     side=Side.OLD, file=FILE, breaks=frozenset())
    _found, file = verdict(removed(findings=(window,)), {"@mona": "m", "@acme/billing": "c"})
    assert [f.severity for f in file.findings if f.rule == DEPRECATION_WINDOW] == [Severity.WARNING]
    _found, file = verdict(removed(findings=(window,)), {"@mona": "m"})
    assert [f.severity for f in file.findings if f.rule == DEPRECATION_WINDOW] == [Severity.ERROR]


def test_without_consumers_the_gate_changes_nothing():
    file = removed()
    assert gate([file], parse_config(""), {}, {}, today=TODAY) == [file]


def test_the_calendar_shows_who_confirmed_with_the_issue_link_and_mentions_nobody():
    migration = Migration(FILE, Kind.DEPRECATED, "Order.`|note", TODAY, TODAY + timedelta(days=14),
                          issue="https://github.com/acme/shop/issues/7", confirmed=("@mona",), waiting=("@acme/billing",))
    lines = calendar.table([migration])
    assert lines[5] == "| File | Element | Migration | Since | From | Consumers |\n" + "|---" * 6 + "|"
    assert lines[6].endswith("| confirmed: `@mona`; waiting for: `@acme/billing`; "
                             "[tracking issue](https://github.com/acme/shop/issues/7) |")
    assert problems("\n".join(lines)) == []
    assert "Consumers" not in "\n".join(calendar.table([Migration(FILE, Kind.DEPRECATED, "x", TODAY, TODAY)]))


def test_the_issue_body_escapes_schema_text_and_mentions_nobody():
    hostile = Tracked("schemas/@eve/<b>.avsc", "Order.@eve`x", "double-write", 3, since="2026-12-01",
                      due="2026-12-15", replacement="[a](http://x)")
    body = render.body(hostile, owners=("@acme/billing", "@mona"), confirmed_by={"@mona": "mona"},
                       pull_url="https://github.com/acme/shop/pull/3", record="<!-- r -->")
    own_link = "[#3](https://github.com/acme/shop/pull/3)"  # the App's own link to the pull request
    assert own_link in body and problems(body.rsplit("\n", 1)[0].replace(own_link, "")) == []
    assert "- [x] `@mona` (confirmed by @\u200bmona)" in body and "- [ ] `@acme/billing`" in body
    assert "@eve" not in body.replace("`", "").replace("Order.@eve", "").replace("schemas/@eve", "")
    assert render.title(hostile).startswith("Schema migration: Order.@eve`x in schemas/@eve/<b>.avsc")


NOW = datetime(2026, 12, 3, tzinfo=timezone.utc)
BASE = '{"type": "record", "name": "R", "fields": [{"name": "a", "type": "string", "deprecated": true}, ' \
       '{"name": "b", "type": ["null", "string"], "default": null}]}'


@pytest.mark.parametrize("head, finished", [
    ('{"type": "record", "name": "R", "fields": [{"name": "b", "type": ["null", "string"], "default": null}]}', ["R.a"]),
    ('{"type": "record", "name": "R", "fields": [{"name": "a", "type": "string", "deprecated": true}, '
     '{"name": "b", "type": "string"}]}', ["R.b"]),
    (BASE, []),
    (None, ["R.a", "R.b"]),
])
def test_the_migrations_a_change_completes(head, finished):
    earlier = BASE.replace('"deprecated": true', '"doc": "x"').replace(', {"name": "b", "type": ["null", "string"], '
                                                                       '"default": null}', "")
    history = [("s2", (NOW - timedelta(days=3)).isoformat(), BASE), ("s1", (NOW - timedelta(days=40)).isoformat(), earlier)]
    found = ended(BASE, head, file=FILE, fmt=Format.AVRO, history=history,
                  config=parse_config("promotion_window_days: 10\n"), now=NOW)
    assert [m.element for m in found] == finished


PLAIN = BASE.replace(', "deprecated": true', "")
GONE = BASE.replace('{"name": "a", "type": "string", "deprecated": true}, ', "")


@pytest.mark.parametrize("versions, began", [
    ([(3, BASE), (40, BASE), (50, PLAIN)], 40),  # one run, since day 40
    ([(3, BASE), (20, BASE), (30, PLAIN), (40, BASE)], 20),  # un-deprecated, deprecated again: a new run
    ([(3, BASE), (20, BASE), (25, PLAIN), (30, GONE), (40, BASE)], 20),  # removed, added back, deprecated
])
def test_a_run_of_a_migration_starts_at_its_latest_deprecation(versions, began):
    history = [(f"s{days}", (NOW - timedelta(days=days)).isoformat(), text) for days, text in versions]
    [found] = ended(BASE, GONE, file=FILE, fmt=Format.AVRO, history=history, config=parse_config(""), now=NOW)
    assert found.element == "R.a" and found.started == NOW - timedelta(days=began), found


@pytest.mark.parametrize("head, undone", [
    (PLAIN, ["R.a"]),  # un-deprecated
    (BASE, []), (GONE, []), (None, []),  # still deprecated, or removed: completed, not undone
])
def test_the_deprecations_a_change_withdraws(head, undone):
    assert withdrawn(BASE, head, fmt=Format.AVRO) == undone
