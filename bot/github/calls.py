"""One GitHub call on a repository: counted, checked for cancellation (reads), its token renewed
once when GitHub rejects it, the rate limit observed; and the repository client's shared state."""
from __future__ import annotations

import functools
from typing import Callable

from github import BadCredentialsException, Github, GithubException

from bot.ambient.jobs import checkpoint
from bot.ambient.metrics import GITHUB_CALLS, RATE_REMAINING
from bot.github.tokens import InstallationToken


def operation(name: str, *, reads: bool = False):
    """Count the call, renew a rejected token once, and (reads) stop a superseded job early."""
    def wrap(method: Callable) -> Callable:
        @functools.wraps(method)
        def run(self: "RepoBase", *args, **kwargs):
            if reads:
                checkpoint()
            try:
                try:
                    result = method(self, *args, **kwargs)
                except BadCredentialsException:
                    # The token was revoked or expired early (clock skew): renew once, ask again.
                    self._renew_token()
                    result = method(self, *args, **kwargs)
            except Exception:
                GITHUB_CALLS.inc(operation=name, outcome="error")
                raise
            finally:
                self._observe_rate()
            GITHUB_CALLS.inc(operation=name, outcome="ok")
            return result
        return run
    return wrap


class RepoBase:
    """The repository one client serves; each part of RepoClient adds the operations it serves."""

    def __init__(self, client: Github, full_name: str, *, app_id: int = 0):
        self._client = client
        self.app_id = app_id  # finds the App's own check suite on a commit
        self.full_name = full_name
        self.owner, self.name = full_name.split("/", 1)
        self._repo = client.get_repo(full_name, lazy=True)

    def _renew_token(self) -> None:
        auth = self._client.requester.auth
        if isinstance(auth, InstallationToken):
            auth.invalidate()

    def _observe_rate(self) -> None:
        remaining, _limit = self._repo.requester.rate_limiting
        if remaining >= 0:
            RATE_REMAINING.set(remaining)

    def _graphql(self, query: str, variables: dict) -> dict:
        _headers, data = self._client.requester.graphql_query(query, variables)
        return data

    def _get_json(self, path: str) -> dict | None:
        """GET a REST path as this installation; None when GitHub answers 404 (not there, or hidden)."""
        try:
            _headers, data = self._client.requester.requestJsonAndCheck("GET", path)
        except GithubException as error:
            if error.status == 404:
                return None
            raise
        return data
