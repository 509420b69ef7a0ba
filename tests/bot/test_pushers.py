"""Who put each head up for review, from the push log (bot/github/pushers.py): the chain from an opening."""
import pytest

from bot.github.pushers import explain

H1, H2, H3 = "1" * 40, "2" * 40, "3" * 40


def entry(head, sender, action, before="", second=1):
    return (f"2026-12-02T12:00:{second:02d}Z", head, sender, action, before)


@pytest.mark.parametrize("log, explained, responsible", [
    # opened by octocat, member pushed on top: both answer for what they showed
    ([entry(H1, "octocat", "opened"), entry(H2, "member", "synchronize", H1)],
     {H1, H2}, [("opened this pull request at", H1, "octocat"), ("pushed", H2, "member")]),
    # member's synchronize was lost: octocat's push on top of it chains to nothing
    ([entry(H1, "octocat", "opened"), entry(H3, "octocat", "synchronize", H2)],
     {H1}, [("opened this pull request at", H1, "octocat"), ("pushed", H3, "octocat")]),
    # ... until GitHub redelivers it, late and out of order
    ([entry(H1, "octocat", "opened"), entry(H3, "octocat", "synchronize", H2, 9), entry(H2, "member", "synchronize", H1, 5)],
     {H1, H2, H3}, [("opened this pull request at", H1, "octocat"), ("pushed", H3, "octocat"), ("pushed", H2, "member")]),
    # pushed while closed: the reopener answers for the head nobody else showed
    ([entry(H1, "octocat", "opened"), entry(H2, "member", "reopened")],
     {H1, H2}, [("opened this pull request at", H1, "octocat"), ("reopened this pull request at", H2, "member")]),
    # closed and reopened unchanged (to re-run checks): the reopener showed nothing new
    ([entry(H1, "octocat", "opened"), entry(H1, "maintainer", "reopened")],
     {H1}, [("opened this pull request at", H1, "octocat")]),
    # a base change decides which commits are reviewed
    ([entry(H1, "octocat", "opened"), entry(H1, "member", "edited")],
     {H1}, [("opened this pull request at", H1, "octocat"), ("changed the base at", H1, "member")]),
    # no opening logged (installed later, or kept entries ran out): nothing is explained
    ([entry(H2, "octocat", "synchronize", H1)], set(), [("pushed", H2, "octocat")]),
    # entries that name no sender, or in an older shape, explain nothing
    ([("2026-12-02T12:00:01Z", H1), ("2026-12-02T12:00:02Z", H2, "member"), entry(H3, "", "opened"),
      entry(H3, "x", "labeled"), ("t", H3, None, "opened", "")], set(), []),
])
def test_heads_are_explained_by_a_chain_of_logged_deliveries_from_an_opening(log, explained, responsible):
    found = explain(log)
    assert found.explained == explained
    assert list(found.responsible) == responsible
