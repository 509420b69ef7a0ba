"""The App's own access to GitHub: one authenticated client per installation, tokens renewed ahead
of expiry, the App's identity and deliveries; and the manifest flow's credential exchange."""
from __future__ import annotations

import collections
import threading
from urllib.parse import quote

from github import Auth, Github

from bot.config.settings import Settings
from bot.github import connections
from bot.github.backoff import GitHubBackoff
from bot.github.repo import RepoClient
from bot.github.tokens import InstallationToken

CONFIGS_KEPT = 1024


class GitHubApp:
    """App-level access: one authenticated client per installation, tokens renewed ahead of expiry."""

    def __init__(self, settings: Settings, *, record_key: bytes | None = None, timeout: int = 15,
                 retries: int = 5, backoff: float = 1.0, max_rate_wait: float = 90.0, token_margin: float = 300.0):
        connections.install()  # the environment's proxy settings read once, not on every request
        self.app_id = int(settings.app_id)
        self._auth = Auth.AppAuth(self.app_id, settings.private_key)
        self._base_url = settings.api_url.rstrip("/")
        self._timeout = timeout
        self._token_margin = token_margin
        # 5xx and lost connections back off (backoff, 2x, 4x ...); rate limits wait as GitHub says.
        self._retry = GitHubBackoff(total=retries, backoff_factor=backoff, max_wait=max_rate_wait)
        self._clients: dict[int, Github] = {}
        self._lock = threading.Lock()
        self._login: str | None = None
        # Seals the override records the App writes into its comments (bot/overrides/records.py
        # derives it); None (the status page) seals nothing: sealing or reading a record then fails.
        self.record_key = record_key
        # The last config each repository had: which files to fetch with the review state query
        # before the current config is read (only a guess; a wrong one costs one more query).
        self._configs: collections.OrderedDict[str, object] = collections.OrderedDict()

    def last_config(self, full_name: str):
        with self._lock:
            return self._configs.get(full_name.lower())

    def keep_config(self, full_name: str, config) -> None:
        with self._lock:
            self._configs[full_name.lower()] = config
            self._configs.move_to_end(full_name.lower())
            while len(self._configs) > CONFIGS_KEPT:
                self._configs.popitem(last=False)

    def installation(self, installation_id: int) -> Github:
        with self._lock:
            if installation_id not in self._clients:
                token = InstallationToken(self._auth, installation_id, margin=self._token_margin)
                self._clients[installation_id] = self._client(token)
            return self._clients[installation_id]

    def _client(self, auth) -> Github:
        return Github(auth=auth, base_url=self._base_url, timeout=self._timeout, retry=self._retry,
                      seconds_between_requests=None, seconds_between_writes=None,
                      per_page=100)  # GitHub's maximum: a 120-file pull request is two pages, not four

    def app_requester(self):
        """A requester authenticated as the App itself (JWT), for the App's own endpoints."""
        return self._client(self._auth).requester

    def bot_login(self) -> str:
        """The App's own login ("slug[bot]"), to tell its comments from look-alikes."""
        with self._lock:
            if self._login is None:
                app = self._client(self._auth).get_app()  # GET /app as the App, with the retry policy
                self._login = f"{app.slug}[bot]"
            return self._login

    def about(self) -> tuple[str, int]:
        """The App's name and its number of installations (GET /app as the App)."""
        app = self._client(self._auth).get_app()
        return app.name, app.installations_count

    def latest_deliveries(self, count: int) -> list[dict]:
        """GitHub's record of the newest webhook deliveries (GET /app/hook/deliveries, newest first)."""
        _headers, items = self.app_requester().requestJsonAndCheck(
            "GET", "/app/hook/deliveries", parameters={"per_page": count})
        return list(items or [])[:count]

    def repo(self, installation_id: int, full_name: str) -> RepoClient:
        return RepoClient(self.installation(installation_id), full_name, app_id=self.app_id)


def convert_manifest(api_url: str, code: str, *, timeout: int = 15) -> dict:
    """The manifest flow's last step: the one-time code buys the new App's credentials.

    POST /app-manifests/{code}/conversions takes no authentication; the answer holds the id,
    the PEM key, the webhook secret and the client secret, which the caller must never log.
    """
    requester = Github(base_url=api_url.rstrip("/"), timeout=timeout, retry=None).requester
    _headers, body = requester.requestJsonAndCheck("POST", f"/app-manifests/{quote(code, safe='')}/conversions")
    return body
