"""The whole manifest flow in a real headless Chromium, keyboard only: page -> GitHub -> callback -> .env.

Then the server is restarted as the page says, reads `.env`, and answers webhooks and its status page.
"""
from __future__ import annotations

import stat

from dotenv import dotenv_values
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from tests.github_emulator.fixtures import assert_clean

from .conftest import start_server, unregistered_env

# A loaded two-core machine runs eight suites at once: waits are generous, never fixed sleeps.
WAIT_SECONDS = 90
MAX_TABS = 20
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def tab_to(driver, element_id: str) -> None:
    """Tab through the page as a keyboard user does until `element_id` has the focus."""
    for _ in range(MAX_TABS):
        if driver.switch_to.active_element.get_attribute("id") == element_id:
            return
        ActionChains(driver).send_keys(Keys.TAB).perform()
    raise AssertionError(f"#{element_id} is not reachable with Tab")


def test_register_with_the_keyboard_then_restart_and_serve(emulator, browser, tmp_path, artifacts):
    env = unregistered_env(emulator, tmp_path)
    process, url = start_server(env, tmp_path / "setup.log")
    try:
        browser.get(url + "/")
        WebDriverWait(browser, WAIT_SECONDS).until(ec.element_to_be_clickable((By.ID, "register")))
        assert "Register schema-review on GitHub" in browser.title
        assert f"{url}/webhook" in browser.find_element(By.TAG_NAME, "main").text
        shot = artifacts / "registration.png"
        assert browser.save_screenshot(str(shot)) and shot.read_bytes().startswith(PNG_MAGIC)
        tab_to(browser, "register")
        ActionChains(browser).send_keys(Keys.ENTER).perform()
        WebDriverWait(browser, WAIT_SECONDS).until(ec.presence_of_element_located((By.ID, "registered")))
        page = browser.page_source
        browser.save_screenshot(str(artifacts / "registration-done.png"))
    finally:
        process.stop()
    assert browser.current_url.startswith(url + "/setup/callback?")
    posted = emulator.state.manifest_posts[-1]
    assert posted["owner"] == "octocat" and posted["manifest"]["hook_attributes"]["url"] == url + "/webhook"
    assert posted["manifest"]["redirect_url"] == url + "/setup/callback"
    created = emulator.state.manifest_conversions[-1]
    env_file = tmp_path / ".env"
    assert stat.S_IMODE(env_file.stat().st_mode) == 0o600
    saved = dotenv_values(env_file)
    assert saved["GITHUB_APP_ID"] == str(emulator.app_id)
    assert saved["GITHUB_PRIVATE_KEY"].strip() == emulator.private_key.strip()
    assert saved["GITHUB_WEBHOOK_SECRET"] == created["webhook_secret"]
    assert saved["GITHUB_CLIENT_SECRET"] == created["client_secret"]
    logs = (tmp_path / "setup.log").read_text(errors="replace")
    for secret in (created["webhook_secret"], created["client_secret"], "PRIVATE KEY"):
        assert secret not in page and secret not in logs
    served_from_env_file(emulator, env, saved, tmp_path, browser, artifacts)


def test_an_organisation_typed_with_the_keyboard_gets_the_organisation_form(emulator, browser, tmp_path):
    process, url = start_server(unregistered_env(emulator, tmp_path), tmp_path / "setup.log")
    try:
        browser.get(url + "/")
        WebDriverWait(browser, WAIT_SECONDS).until(ec.element_to_be_clickable((By.ID, "org")))
        tab_to(browser, "org")
        ActionChains(browser).send_keys("acme-data").send_keys(Keys.ENTER).perform()  # Enter in a field submits
        WebDriverWait(browser, WAIT_SECONDS).until(ec.presence_of_element_located((By.ID, "registered")))
    finally:
        process.stop()
    assert emulator.state.manifest_posts[-1]["owner"] == "acme-data"
    assert (tmp_path / ".env").is_file()


def served_from_env_file(emulator, env, saved, tmp_path, browser, artifacts):
    """Restarted with only the .env file: signed webhooks verify and GET / is the status page."""
    emulator.create_repo("acme", "contracts", {"README.md": "x"})
    emulator.add_delivery("pull_request", action="opened", status_code=202)
    from tests.harness.server import gunicorn
    process, url = gunicorn(env, tmp_path / "app.log")
    try:
        ping = {"zen": "Design for failure.", "hook_id": 1}
        assert emulator.deliver(url + "/webhook", "ping", ping, saved["GITHUB_WEBHOOK_SECRET"]).status_code == 200
        assert emulator.deliver(url + "/webhook", "ping", ping, "not the secret").status_code == 401
        browser.get(url + "/")
        WebDriverWait(browser, WAIT_SECONDS).until(ec.presence_of_element_located((By.ID, "app-name")))
        assert browser.find_element(By.ID, "app-name").text == "schema-review"
        assert browser.find_element(By.ID, "installations").text == str(len(emulator.state.installations))
        assert browser.find_element(By.ID, "queue-depth").text == "0"
        assert "pull_request.opened" in browser.find_element(By.ID, "deliveries").text
        assert "acme/contracts" not in browser.page_source
        browser.save_screenshot(str(artifacts / "status.png"))
    finally:
        process.stop()
    assert_clean(emulator)
