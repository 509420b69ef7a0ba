"""The registration pages without a browser: who may use them, what they send, what they refuse."""
from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from bot.config.settings import unregistered
from bot.web.registration.manifest import SetupSettings, build_manifest
from bot.web.registration.pages import STATE_COOKIE
from bot.web.app import create_app

LOCAL = {"REMOTE_ADDR": "127.0.0.1"}


@pytest.fixture(autouse=True)
def requests_follow_the_openapi_description(emulator):
    yield
    assert emulator.state.violations == [] and emulator.state.response_violations == []


def client(emulator, tmp_path, **extra):
    environ = {"GITHUB_URL": emulator.url, "GITHUB_API_URL": emulator.api_url,
               "SCHEMA_REVIEW_ENV_FILE": str(tmp_path / ".env"), **extra}
    return create_app(environ=environ).test_client()


def registered_code(emulator, test_client, *, org: str = "") -> tuple[str, str]:
    """Post the page's form, follow the 307 to the emulator's form as a browser would: (code, state)."""
    page = test_client.get("/", environ_base=LOCAL).get_data(as_text=True)
    manifest = page.split('name="manifest" value="', 1)[1].split('"', 1)[0].replace("&#34;", '"')
    answer = test_client.post("/setup/register", data={"org": org, "manifest": manifest}, environ_base=LOCAL)
    assert answer.status_code == 307
    github = requests.post(answer.headers["Location"], data={"org": org, "manifest": manifest},
                           allow_redirects=False, timeout=30)
    assert github.status_code == 302, github.text
    query = parse_qs(urlsplit(github.headers["Location"]).query)
    return query["code"][0], query["state"][0]


@pytest.mark.parametrize("environ, expected", [
    ({}, True), ({"GITHUB_APP_ID": " "}, True), ({"PORT": "9"}, True),
    ({"GITHUB_APP_ID": "1"}, False), ({"GITHUB_WEBHOOK_SECRET": "s"}, False), ({"GITHUB_PRIVATE_KEY_PATH": "k"}, False),
])
def test_only_a_server_without_any_credential_registers(environ, expected):
    assert unregistered(environ) is expected


@pytest.mark.parametrize("environ, web, api", [
    ({}, "https://github.com", "https://api.github.com"),
    ({"GITHUB_URL": "https://ghe.corp.example/"}, "https://ghe.corp.example", "https://ghe.corp.example/api/v3"),
    ({"GITHUB_URL": "https://ghe.x", "GITHUB_API_URL": "https://api.ghe.x"}, "https://ghe.x", "https://api.ghe.x"),
])
def test_github_and_its_api_come_from_github_url(environ, web, api):
    settings = SetupSettings.from_environ(environ)
    assert (settings.web_url, settings.api_url) == (web, api)
    assert settings.new_app_url("acme") == f"{web}/organizations/acme/settings/apps/new"


def test_the_manifest_is_app_yml_pointed_at_this_server():
    manifest = build_manifest("https://review.example.org")
    assert manifest["hook_attributes"] == {"url": "https://review.example.org/webhook", "active": True}
    assert manifest["redirect_url"] == "https://review.example.org/setup/callback"
    assert {"checks", "pull_requests", "contents"} <= set(manifest["default_permissions"])


@pytest.mark.parametrize("address", ["10.1.2.3", "192.168.0.7", "2001:db8::1", "not-an-ip"])
def test_without_public_url_only_a_browser_on_this_machine_may_register(emulator, tmp_path, address):
    test_client = client(emulator, tmp_path)
    for method, path in (("get", "/"), ("post", "/setup/register"), ("get", "/setup/callback?code=c&state=s")):
        answer = getattr(test_client, method)(path, environ_base={"REMOTE_ADDR": address})
        assert answer.status_code == 403 and "PUBLIC_URL" in answer.get_data(as_text=True)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.nip.io", "localhost.evil.example"])
def test_without_public_url_a_rebound_name_is_refused_even_from_this_machine(emulator, tmp_path, host):
    answer = client(emulator, tmp_path).get("/", headers={"Host": host}, environ_base=LOCAL)
    assert answer.status_code == 403 and host not in answer.get_data(as_text=True)


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1", "[::1]:8000"])
def test_a_loopback_name_serves_the_page_with_its_own_urls(emulator, tmp_path, host):
    answer = client(emulator, tmp_path).get("/", headers={"Host": host}, environ_base=LOCAL)
    assert answer.status_code == 200 and f"http://{host}/webhook" in answer.get_data(as_text=True)


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1:1", "x\"><script>"])
def test_public_url_wins_over_the_host_header(emulator, tmp_path, host):
    test_client = client(emulator, tmp_path, PUBLIC_URL="https://review.example.org/")
    page = test_client.get("/", headers={"Host": host}, environ_base={"REMOTE_ADDR": "203.0.113.9"})
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert "https://review.example.org/webhook" in text and host not in text


def test_an_organisation_gets_its_own_form_and_names_are_checked(emulator, tmp_path):
    test_client = client(emulator, tmp_path)
    code, state = registered_code(emulator, test_client, org="acme-data")
    assert emulator.state.manifest_posts[-1]["owner"] == "acme-data" and state
    for bad in ("-acme", "a b", "../x", "a" * 40, "acme/../../settings"):
        answer = test_client.post("/setup/register", data={"org": bad}, environ_base=LOCAL)
        assert answer.status_code == 400 and "Location" not in answer.headers


def test_a_callback_not_started_here_writes_nothing(emulator, tmp_path):
    test_client = client(emulator, tmp_path)
    code, state = registered_code(emulator, test_client)
    conversions = len(emulator.state.manifest_conversions)
    for cookie, given in ((None, state), ("other", state), (state, "other"), (state, "")):
        fresh = client(emulator, tmp_path)
        if cookie is not None:
            fresh.set_cookie(STATE_COOKIE, cookie, path="/setup")
        answer = fresh.get(f"/setup/callback?code={code}&state={given}", environ_base=LOCAL)
        assert answer.status_code == 400
    assert not (tmp_path / ".env").exists() and len(emulator.state.manifest_conversions) == conversions


def test_a_second_registration_never_overwrites_the_first(emulator, tmp_path):
    test_client = client(emulator, tmp_path)
    code, state = registered_code(emulator, test_client)
    assert test_client.get(f"/setup/callback?code={code}&state={state}", environ_base=LOCAL).status_code == 200
    first = (tmp_path / ".env").read_text()
    code, state = registered_code(emulator, test_client)
    answer = test_client.get(f"/setup/callback?code={code}&state={state}", environ_base=LOCAL)
    assert answer.status_code == 409 and (tmp_path / ".env").read_text() == first


def test_a_code_refused_by_github_is_said_and_nothing_is_saved(emulator, tmp_path):
    test_client = client(emulator, tmp_path)
    code, state = registered_code(emulator, test_client)
    emulator.state.manifest_codes.clear()  # expired, or already used
    answer = test_client.get(f"/setup/callback?code={code}&state={state}", environ_base=LOCAL)
    assert answer.status_code == 502 and "404" in answer.get_data(as_text=True)
    assert not (tmp_path / ".env").exists()
    assert json.dumps(emulator.state.manifest_conversions).count(code) == 0
