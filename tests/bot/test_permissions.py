"""Who may override: real permission levels, allow-lists, and the author rule."""
import pytest

from bot.config.config import OverridePolicy, Permission
from bot.github.contributions import Contributions
from bot.overrides.permissions import decide, level, uninvolved

DEFAULT = OverridePolicy()
NO_TEAMS = lambda team: False  # noqa: E731


@pytest.mark.parametrize("permission, role, expected", [
    ("admin", "admin", Permission.ADMIN),
    ("write", "maintain", Permission.MAINTAIN),
    ("read", "triage", Permission.TRIAGE),
    ("write", "custom-release-manager", Permission.WRITE),  # custom role: its base permission
    ("none", "none", None),
    (None, None, None),
])
def test_level_prefers_role_name(permission, role, expected):
    assert level(permission, role) is expected


@pytest.mark.parametrize("permission, allowed", [
    (Permission.READ, False), (Permission.TRIAGE, False), (Permission.WRITE, True),
    (Permission.MAINTAIN, True), (Permission.ADMIN, True), (None, False),
])
def test_default_minimum_is_write(permission, allowed):
    assert decide("alice", author="bob", policy=DEFAULT, permission=permission, in_team=NO_TEAMS).allowed is allowed


def test_author_is_refused_by_default_even_as_admin():
    decision = decide("Bob", author="bob", policy=DEFAULT, permission=Permission.ADMIN, in_team=NO_TEAMS)
    assert not decision.allowed and "you opened this pull request" in decision.reason


def test_author_allowed_when_configured():
    policy = OverridePolicy(allow_author=True)
    assert decide("bob", author="bob", policy=policy, permission=Permission.WRITE, in_team=NO_TEAMS).allowed


def test_allow_lists_widen_access():
    users = OverridePolicy(min_permission=Permission.ADMIN, allow_users=("Carol",))
    assert decide("carol", author="bob", policy=users, permission=Permission.READ, in_team=NO_TEAMS).allowed
    teams = OverridePolicy(min_permission=Permission.ADMIN, allow_teams=("acme/data-platform",))
    member = lambda team: team == "acme/data-platform"  # noqa: E731
    assert decide("dan", author="bob", policy=teams, permission=Permission.READ, in_team=member).allowed
    assert not decide("erin", author="bob", policy=teams, permission=Permission.WRITE, in_team=NO_TEAMS).allowed


def test_refusal_names_needed_and_actual_levels():
    decision = decide("alice", author="bob", policy=DEFAULT, permission=Permission.READ, in_team=NO_TEAMS)
    assert "`write`" in decision.reason and "`read`" in decision.reason


A, B, C = "a" * 40, "b" * 40, "c" * 40
LISTED = ((A, "bob", "bob"), (B, "Carol", "web-flow"), (C, None, None))  # C: an email linked to no one


@pytest.mark.parametrize("user, pushes, total, policy, reason", [
    ("dan", (), 3, DEFAULT, None),  # wrote and pushed nothing
    ("carol", (), 3, DEFAULT, "you authored or committed `bbbbbbb` in this pull request"),  # any case
    ("dan", ((C, "Dan"),), 3, DEFAULT, "you pushed `ccccccc` in this pull request"),  # commit names no one
    ("dan", (), 300, DEFAULT, "this pull request has 300 commits and GitHub lists only the first 250"),
    ("carol", (), 3, OverridePolicy(allow_committers=True), None),
    ("bob", (), 3, DEFAULT, None),  # the opener: `allow_author` decides for them
    ("dan", ((C, "Dan", "reopened this pull request at"),), 3, DEFAULT,
     "you reopened this pull request at `ccccccc` in this pull request"),  # pushed while closed
])
def test_an_override_must_come_from_someone_who_did_not_write_or_push_the_change(
        user, pushes, total, policy, reason):
    decision = uninvolved(user, author="bob", policy=policy,
                          contributions=lambda: Contributions(LISTED, pushes, total))
    assert decision.allowed is (reason is None)
    assert decision.reason.startswith(reason or "")
    if reason:
        assert "`override.allow_committers` in `.github/schema-review.yml`" in decision.reason


@pytest.mark.parametrize("user, policy, reason", [
    ("dan", DEFAULT, "I have no record of who pushed `ccccccc` to this pull request"),  # maybe dan
    ("carol", DEFAULT, "you authored or committed `bbbbbbb`"),  # what is known is said first
    ("dan", OverridePolicy(allow_committers=True), None),
])
def test_a_head_nobody_is_known_to_have_pushed_clears_nobody(user, policy, reason):
    found = Contributions(LISTED, (), 3, unexplained=C)
    decision = uninvolved(user, author="bob", policy=policy, contributions=lambda: found)
    assert decision.allowed is (reason is None)
    assert decision.reason.startswith(reason or "")


def test_the_commit_list_is_not_fetched_when_it_cannot_matter():
    def fetch():
        raise AssertionError("fetched")
    for user, policy in (("carol", OverridePolicy(allow_committers=True)), ("bob", DEFAULT)):
        assert uninvolved(user, author="bob", policy=policy, contributions=fetch).allowed
