"""An installation's access token for PyGithub: renewed before it expires, or at once after a 401."""
from __future__ import annotations

import threading
import time

from github.Auth import AppAuth, Auth, WithRequester

from bot.ambient.metrics import GITHUB_REQUESTS


class InstallationToken(Auth, WithRequester["InstallationToken"]):
    """PyGithub asks for `token` on every request; a fresh one is minted `margin` seconds early.

    The margin shrinks to half the token's lifetime when GitHub issues short-lived tokens, so a
    token is never renewed on every request.
    """

    def __init__(self, app_auth: AppAuth, installation_id: int, *, margin: float = 300.0, clock=time.time):
        super().__init__()
        self._app_auth, self._installation_id = app_auth, installation_id
        self._margin, self._clock = margin, clock
        self._lock = threading.Lock()
        self._value: str | None = None
        self._expires = self._lifetime = 0.0
        self._integration = None

    def withRequester(self, requester) -> "InstallationToken":
        super().withRequester(requester.withAuth(self._app_auth))
        from github.GithubIntegration import GithubIntegration  # PyGithub imports it late too
        self._integration = GithubIntegration(**self.requester.kwargs)
        return self

    @property
    def token_type(self) -> str:
        return "token"

    @property
    def token(self) -> str:
        with self._lock:
            margin = min(self._margin, self._lifetime / 2)
            if self._value is None or self._clock() >= self._expires - margin:
                granted = self._integration.get_access_token(self._installation_id)
                now = self._clock()
                self._value, self._expires = granted.token, granted.expires_at.timestamp()
                self._lifetime = max(self._expires - now, 0.0)
            return self._value

    def invalidate(self) -> None:
        """GitHub said 401 Bad credentials: the next request mints a new token."""
        with self._lock:
            self._value = None

    def authentication(self, headers: dict) -> None:
        GITHUB_REQUESTS.inc()
        super().authentication(headers)

    @property
    def _masked_token(self) -> str:
        return "token (removed)"
