"""Where GitHub is, where this server is, and the App manifest built from app.yml for that place."""
from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import yaml

from bot.config.envfile import env_file_path

DEFAULT_WEB_URL = "https://github.com"
DEFAULT_API_URL = "https://api.github.com"
MANIFEST_FILE = Path(__file__).resolve().parents[3] / "app.yml"
WEBHOOK_PATH = "/webhook"
CALLBACK_PATH = "/setup/callback"
# GitHub's account names: letters, digits, single hyphens between them, at most 39 characters.
ORG_NAME = re.compile(r"[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}")
@dataclass(frozen=True)
class SetupSettings:
    web_url: str = DEFAULT_WEB_URL
    api_url: str = DEFAULT_API_URL
    public_url: str | None = None
    env_file: Path = Path(".env")

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> "SetupSettings":
        env = os.environ if environ is None else environ
        web = env.get("GITHUB_URL", "").strip().rstrip("/") or DEFAULT_WEB_URL
        api = env.get("GITHUB_API_URL", "").strip().rstrip("/")
        if not api:  # GitHub Enterprise Server answers its REST API under /api/v3
            api = DEFAULT_API_URL if web == DEFAULT_WEB_URL else web + "/api/v3"
        public = env.get("PUBLIC_URL", "").strip().rstrip("/") or None
        return cls(web_url=web, api_url=api, public_url=public, env_file=env_file_path(env))

    def new_app_url(self, org: str | None) -> str:
        """GitHub's form that takes a posted manifest: the person's account, or an organisation's."""
        if org:
            return f"{self.web_url}/organizations/{org}/settings/apps/new"
        return f"{self.web_url}/settings/apps/new"


def base_url(settings: SetupSettings, request_url: str) -> str:
    """PUBLIC_URL, else the URL this page was asked at (only served to loopback clients then)."""
    return settings.public_url or request_url.rstrip("/")


def loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address(address or "").is_loopback
    except ValueError:
        return False


def loopback_host(host: str) -> bool:
    """`localhost[:port]`, `127.0.0.1[:port]`, `[::1][:port]`: a name no other site can rebind to us."""
    if host.startswith("["):
        name = host[1:].partition("]")[0]
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return name.lower() == "localhost" or loopback(name)


def build_manifest(base: str, *, source: Path = MANIFEST_FILE) -> dict:
    """app.yml with the webhook and the redirect pointing at this server."""
    manifest = yaml.safe_load(source.read_text(encoding="utf-8"))
    manifest["hook_attributes"] = {**manifest.get("hook_attributes", {}), "url": base + WEBHOOK_PATH}
    manifest["redirect_url"] = base + CALLBACK_PATH
    return manifest
