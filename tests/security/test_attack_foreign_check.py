"""Red team (unit level): a check run named `schema-review` made by someone else.

Any workflow of a same-repository pull request (or any other App with `checks: write`) can
create a check run named `schema-review` on the head commit, completed `success`.
bot/github/checks.py find_check_run takes the first run of that name from *any* App (`run.app` is
only tested for being set), so the App adopts the foreign run: its `before` verdict is the
attacker's, it edits a run it does not own (GitHub answers 403), and give_up() leaves a
foreign `completed` run standing as the verdict. The App must only reuse its own run.
"""
from __future__ import annotations

from types import SimpleNamespace

from bot.github.checks import CHECK_NAME
from bot.github.repo import RepoClient

OWN_APP_ID, ACTIONS_APP_ID = 4242, 15368  # 15368: GitHub Actions


class _Run(SimpleNamespace):
    def edit(self, **changes):
        self.edits.append(changes)


class _Repo:
    def __init__(self, runs):
        self.runs = runs
        self.requester = SimpleNamespace(rate_limiting=(-1, -1))

    def get_commit(self, sha):
        return SimpleNamespace(get_check_runs=lambda check_name=None: [r for r in self.runs if r.name == check_name])


def _client(runs) -> RepoClient:
    client = object.__new__(RepoClient)
    client._client, client.full_name, client.owner, client.name = None, "acme/x", "acme", "x"
    client.app_id, client._repo = OWN_APP_ID, _Repo(runs)
    return client


def _run(app_id: int, slug: str) -> _Run:
    return _Run(name=CHECK_NAME, app=SimpleNamespace(id=app_id, slug=slug), status="completed",
                conclusion="success", edits=[],
                output=SimpleNamespace(title="No breaking changes", summary="ok", text=None))


def test_a_foreign_schema_review_run_is_not_adopted_as_the_apps_own():
    """The give-up path looks the run up by name: only the App's own run may come back."""
    forged = _run(ACTIONS_APP_ID, "github-actions")
    assert _client([forged]).find_check_run("a" * 40) is None
    own = _run(OWN_APP_ID, "schema-review")
    assert _client([forged, own]).find_check_run("a" * 40) is own
