"""The App's GitHub connections read the environment's proxy and CA settings once per host, and
apply them as requests does (bot/github/connections.py)."""
import sys

import pytest
import requests
import requests.sessions
import requests.utils

from bot.config.settings import Settings
from bot.github.app import GitHubApp
from tests.github_emulator.fixtures import github  # noqa: F401  (the emulator fixture)
from tests.harness.server import free_port


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    """Nothing read by another test; no proxy or CA bundle from the machine running the tests."""
    connections = sys.modules.get("bot.github.connections")  # imported with bot.github.app
    if connections is not None:
        monkeypatch.setattr(connections, "_read", {})
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


def client(github, repo):
    app = GitHubApp(Settings(app_id=str(github.app_id), private_key=github.private_key, webhook_secret=b"s",
                             api_url=github.url), retries=0)
    return app.installation(repo.installation_id)


def test_the_environment_is_read_once_for_many_requests(github, monkeypatch):
    repo = github.create_repo("acme", "contracts", {"a.avsc": "{}\n"})
    reads = []
    original = requests.utils.get_environ_proxies

    def counted(url, no_proxy=None):
        reads.append(url)
        return original(url, no_proxy=no_proxy)

    monkeypatch.setattr(requests.utils, "get_environ_proxies", counted)
    monkeypatch.setattr(requests.sessions, "get_environ_proxies", counted)  # requests' own per-request read
    installation = client(github, repo)
    for _ in range(5):
        installation.get_repo("acme/contracts")
    assert len(github.calls) >= 6  # the token, then five reads of the repository
    assert len(reads) == 1


@pytest.mark.parametrize("no_proxy, reaches_github", [("", False), ("127.0.0.1", True)])
def test_a_proxy_in_the_environment_still_applies(github, monkeypatch, no_proxy, reaches_github):
    repo = github.create_repo("acme", "contracts", {"a.avsc": "{}\n"})
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{free_port()}")  # nothing listens there
    monkeypatch.setenv("NO_PROXY", no_proxy)
    installation = client(github, repo)
    if reaches_github:
        assert installation.get_repo("acme/contracts").full_name == "acme/contracts"
    else:
        with pytest.raises(requests.exceptions.ConnectionError):
            installation.get_repo("acme/contracts")


ENVIRONMENTS = [
    {},
    {"HTTPS_PROXY": "http://proxy.example:3128"},
    {"HTTPS_PROXY": "http://proxy.example:3128", "NO_PROXY": "api.github.com"},
    {"ALL_PROXY": "socks5://proxy.example:1080", "NO_PROXY": "example.org"},
    {"REQUESTS_CA_BUNDLE": "/etc/ssl/own-ca.pem"},
    {"CURL_CA_BUNDLE": "/etc/ssl/curl-ca.pem"},
]


@pytest.mark.parametrize("environment", ENVIRONMENTS)
@pytest.mark.parametrize("verify", [True, None, False, "/etc/ssl/given.pem"])
def test_settings_are_the_ones_requests_would_use(monkeypatch, environment, verify):
    from bot.github.connections import EnvironmentOnceSession
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    url = "https://api.github.com/repos/acme/contracts"
    for _ in range(2):  # the first reads the environment, the second the memo
        ours = EnvironmentOnceSession().merge_environment_settings(url, {}, None, verify, None)
        assert ours == requests.Session().merge_environment_settings(url, {}, None, verify, None)
