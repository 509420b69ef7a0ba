"""The App's settings, read once from the environment; startup fails naming a missing key."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Mapping

DEFAULT_API_URL = "https://api.github.com"
MISSING = "missing setting {key}: set it in the environment (see README, 'Running the App')"
MISSING_KEY = "missing setting GITHUB_PRIVATE_KEY or GITHUB_PRIVATE_KEY_PATH: the App's PEM private key"
UNREADABLE_KEY = "cannot read GITHUB_PRIVATE_KEY_PATH: {reason}"
NOT_PEM = "{key} does not hold a PEM private key"
BAD_PORT = "PORT must be a number"


class SettingsError(Exception):
    """Raised at startup; its message names the setting, never its value."""


@dataclass(frozen=True)
class Settings:
    app_id: str
    private_key: str = field(repr=False)
    webhook_secret: bytes = field(repr=False)
    api_url: str = DEFAULT_API_URL
    port: int = 8000

    @property
    def graphql_url(self) -> str:
        """api.github.com/graphql; GitHub Enterprise Server: https://HOST/api/graphql."""
        base = self.api_url.rstrip("/")
        if base.endswith("/api/v3"):
            return base[: -len("/v3")] + "/graphql"
        return base + "/graphql"

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> "Settings":
        env = os.environ if environ is None else environ
        for key in ("GITHUB_APP_ID", "GITHUB_WEBHOOK_SECRET"):
            if not env.get(key, "").strip():
                raise SettingsError(MISSING.format(key=key))
        try:
            port = int(env.get("PORT", "8000"))
        except ValueError:
            raise SettingsError(BAD_PORT) from None
        return cls(app_id=env["GITHUB_APP_ID"].strip(), private_key=_private_key(env),
                   webhook_secret=env["GITHUB_WEBHOOK_SECRET"].encode(),
                   api_url=env.get("GITHUB_API_URL", "").strip() or DEFAULT_API_URL, port=port)


def _private_key(env: Mapping[str, str]) -> str:
    if env.get("GITHUB_PRIVATE_KEY", "").strip():
        key, text = "GITHUB_PRIVATE_KEY", env["GITHUB_PRIVATE_KEY"]
        # Platforms that cannot hold multi-line values pass the PEM with literal "\n".
        text = text.replace("\\n", "\n")
    elif env.get("GITHUB_PRIVATE_KEY_PATH", "").strip():
        key = "GITHUB_PRIVATE_KEY_PATH"
        try:
            with open(env[key], encoding="ascii") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError) as error:
            raise SettingsError(UNREADABLE_KEY.format(reason=type(error).__name__)) from None
    else:
        raise SettingsError(MISSING_KEY)
    if "PRIVATE KEY-----" not in text:
        raise SettingsError(NOT_PEM.format(key=key))
    return text
