"""The registration flow's pieces: an emulator, an App server without credentials, a headless Chromium."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bot.config.settings import CREDENTIAL_KEYS
from tests.github_emulator import GitHubEmulator
from tests.harness.server import FAST, Process, free_port, wait_until_up
from tests.shared import in_ci

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
NO_BROWSER = ("the browser tests need Debian's chromium and chromium-driver "
              "(apt-get install -y chromium chromium-driver; .ci/run installs them)")


@pytest.fixture(scope="module")
def emulator(tmp_path_factory):
    with GitHubEmulator(tmp_path_factory.mktemp("github")) as github:
        yield github


def unregistered_env(emulator: GitHubEmulator, folder: Path, **extra: str) -> dict:
    """The process environment without any App credential: the server starts in registration mode."""
    env = {key: value for key, value in os.environ.items()
           if key not in CREDENTIAL_KEYS and key not in ("PUBLIC_URL", "GITHUB_URL", "GITHUB_API_URL")}
    return {**env, **FAST, "GITHUB_URL": emulator.url, "GITHUB_API_URL": emulator.api_url,
            "SCHEMA_REVIEW_ENV_FILE": str(folder / ".env"), "QUEUE_PATH": str(folder / "queue.db"), **extra}


def start_server(env: dict, log: Path) -> tuple[Process, str]:
    """gunicorn app:app as an operator starts it; /healthz, since /readyz is 503 until registered."""
    import sys
    port = free_port()
    process = Process([sys.executable, "-m", "gunicorn", "app:app", "--bind", f"127.0.0.1:{port}",
                       "--workers", "1", "--threads", "4"], env, log)
    url = f"http://127.0.0.1:{port}"
    wait_until_up(process, url + "/healthz")
    return process, url


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium from Debian, driven through its own chromedriver (selenium-manager never runs)."""
    if not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)):
        if in_ci():  # .ci/run installs them: there a missing browser is an error, never a skip
            raise AssertionError(NO_BROWSER)
        pytest.skip(NO_BROWSER)  # a fresh clone's `pip install` cannot bring a browser
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1100,1000", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(120)
    yield driver
    driver.quit()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
