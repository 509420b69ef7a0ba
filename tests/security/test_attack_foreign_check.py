"""Red team (unit level): a check run named `schema-review` made by someone else.

Any workflow of a same-repository pull request (or any other App with `checks: write`) can
create a check run named `schema-review` on the head commit, completed `success`.
bot/github.py find_check_run takes the first run of that name from *any* App (`run.app` is
only tested for being set), so the App adopts the foreign run: its `before` verdict is the
attacker's, it edits a run it does not own (GitHub answers 403), and give_up() leaves a
foreign `completed` run standing as the verdict. The App must only reuse its own run.
"""
from __future__ import annotations

from types import SimpleNamespace

from bot.github import CHECK_NAME, RepoClient

OWN_APP_ID, ACTIONS_APP_ID = 4242, 15368  # 15368: GitHub Actions


class _Run(SimpleNamespace):
    def edit(self, **changes):
        self.edits.append(changes)


class _Repo:
    def __init__(self, runs):
        self.runs, self.created = runs, []
        self.requester = SimpleNamespace(rate_limiting=(-1, -1))

    def get_commit(self, sha):
        return SimpleNamespace(get_check_runs=lambda check_name=None: [r for r in self.runs if r.name == check_name])

    def create_check_run(self, **fields):
        run = _Run(name=fields["name"], app=SimpleNamespace(id=OWN_APP_ID, slug="schema-review"),
                   status=fields.get("status"), conclusion=None, output=None, edits=[])
        self.created.append(run)
        return run


def _client(runs) -> RepoClient:
    client = object.__new__(RepoClient)
    client._client, client.full_name, client.owner, client.name = None, "acme/x", "acme", "x"
    client._repo = _Repo(runs)
    return client


def test_a_foreign_schema_review_run_is_not_adopted_as_the_apps_own():
    forged = _Run(name=CHECK_NAME, app=SimpleNamespace(id=ACTIONS_APP_ID, slug="github-actions"),
                  status="completed", conclusion="success",
                  output=SimpleNamespace(title="No breaking changes", summary="ok", text=None), edits=[])
    client = _client([forged])
    run, before = client.start_check_run("a" * 40)
    assert run is not forged and before is None, (
        f"the App adopted a run made by app {forged.app.slug!r} (its verdict {before})")
    assert forged.edits == []
