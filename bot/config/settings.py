"""The App's settings, read once from the environment.

`read(environ)` is pure: it returns the settings, or every missing and every malformed setting at
once, each named and never with its value. Whoever starts the App decides what a problem means
(`Settings.from_environ` raises them all in one SettingsError).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable, Mapping
from urllib.parse import urlsplit

DEFAULT_API_URL = "https://api.github.com"
APP_ID, PRIVATE_KEY, KEY_PATH = "GITHUB_APP_ID", "GITHUB_PRIVATE_KEY", "GITHUB_PRIVATE_KEY_PATH"
SECRET, API_URL, PORT = "GITHUB_WEBHOOK_SECRET", "GITHUB_API_URL", "PORT"

STARTUP = "schema-review cannot start: {problem}"
HEADLINE = ("schema-review cannot start: {count} settings are missing or malformed (values are never "
            "shown; see README, 'Running the App'):")
MISSING = {
    APP_ID: f"{APP_ID} is missing: the App's numeric id (the App's settings page, 'App ID')",
    PRIVATE_KEY: (f"{PRIVATE_KEY} or {KEY_PATH} is missing: the App's PEM private key, as text "
                  "or as a file path"),
    SECRET: f"{SECRET} is missing: the webhook secret set in the App's settings",
}
NOT_NUMERIC = "{key} must be a whole number (digits only)"
BAD_PORT = f"{PORT} must be a port number from 1 to 65535"
BAD_URL = (f"{API_URL} must be an http(s) URL with a host and no query, such as {DEFAULT_API_URL} "
           "or https://HOST/api/v3 for GitHub Enterprise Server")
UNREADABLE_KEY = f"{KEY_PATH} cannot be read: {{reason}}"
NOT_TEXT_KEY = f"{KEY_PATH} is not a text file (a PEM key is ASCII text)"
NO_PEM = ("{key} does not hold a PEM private key (no '-----BEGIN ... PRIVATE KEY-----' line; GitHub "
          "gives a .pem file to download)")
PUBLIC_PEM = "{key} holds a public key or a certificate, not the App's private key"
ENCRYPTED_KEY = "{key} is encrypted with a passphrase; the App needs the key as GitHub gives it"
DAMAGED_KEY = "{key} holds a PEM private key that cannot be loaded: {reason}"
NOT_RSA = "{key} holds a {kind} key; GitHub App keys are RSA (JWTs are signed with RS256)"
DAMAGE = "its base64 or its structure is damaged (truncated, or lines were joined or re-wrapped)"


class SettingsError(Exception):
    """Every problem with the settings, in one message; it names settings, never their values."""

    def __init__(self, problems: str | Iterable[str]):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__(describe(self.problems))

# The settings that make a configured App; with none of them set the server registers one.
CREDENTIAL_KEYS = ("GITHUB_APP_ID", "GITHUB_PRIVATE_KEY", "GITHUB_PRIVATE_KEY_PATH", "GITHUB_WEBHOOK_SECRET")


def unregistered(environ: Mapping[str, str]) -> bool:
    """No App credential at all: registration mode. Some but not all is a settings error, not this."""
    return not any(environ.get(key, "").strip() for key in CREDENTIAL_KEYS)


def describe(problems: list[str]) -> str:
    if len(problems) == 1:
        return STARTUP.format(problem=problems[0])
    return "\n".join([HEADLINE.format(count=len(problems))] + [f"  - {problem}" for problem in problems])


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
        reading = read(os.environ if environ is None else environ)
        if reading.problems:
            raise SettingsError(reading.problems)
        return reading.settings


@dataclass(frozen=True)
class Reading:
    """The settings when complete and well formed; else what is missing and what is malformed."""
    settings: Settings | None
    missing: tuple[str, ...] = ()  # keys of MISSING
    malformed: tuple[str, ...] = ()  # one message each

    @property
    def problems(self) -> list[str]:
        return [MISSING[key] for key in self.missing] + list(self.malformed)


def read(environ: Mapping[str, str]) -> Reading:
    value = lambda key: environ.get(key, "").strip()  # noqa: E731
    missing, malformed = [], []
    app_id = value(APP_ID)
    if not app_id:
        missing.append(APP_ID)
    elif not (app_id.isascii() and app_id.isdigit()):
        malformed.append(NOT_NUMERIC.format(key=APP_ID))
    private_key, problem = _private_key(environ)
    if problem == PRIVATE_KEY:
        missing.append(PRIVATE_KEY)
    elif problem:
        malformed.append(problem)
    if not environ.get(SECRET, "").strip():
        missing.append(SECRET)
    api_url = value(API_URL) or DEFAULT_API_URL
    if not _is_api_url(api_url):
        malformed.append(BAD_URL)
    port = value(PORT) or "8000"
    if not is_port(port):
        malformed.append(BAD_PORT)
    if missing or malformed:
        return Reading(None, tuple(missing), tuple(malformed))
    return Reading(Settings(app_id=app_id, private_key=private_key, webhook_secret=environ[SECRET].encode(),
                            api_url=api_url, port=int(port)))


def _is_api_url(url: str) -> bool:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises ValueError for a port out of range or not a number)
    except ValueError:
        return False
    return (parts.scheme in ("http", "https") and bool(parts.hostname) and not parts.query
            and not parts.fragment and not parts.username and not any(c.isspace() for c in url))


def _private_key(env: Mapping[str, str]) -> tuple[str, str | None]:
    """(the PEM text, None), or ("", PRIVATE_KEY) when neither is set, or ("", the problem)."""
    if env.get(PRIVATE_KEY, "").strip():
        # Platforms that cannot hold multi-line values pass the PEM with literal "\n".
        key, text = PRIVATE_KEY, env[PRIVATE_KEY].replace("\\n", "\n")
    elif env.get(KEY_PATH, "").strip():
        key = KEY_PATH
        try:
            with open(env[KEY_PATH].strip(), encoding="ascii") as handle:
                text = handle.read()
        except UnicodeDecodeError:
            return "", NOT_TEXT_KEY
        except OSError as error:
            return "", UNREADABLE_KEY.format(reason=(error.strerror or type(error).__name__).lower())
    else:
        return "", PRIVATE_KEY
    problem = key_problem(text)
    return (text, None) if problem is None else ("", problem.format(key=key))


def key_problem(text: str) -> str | None:
    """What is wrong with a PEM private key for a GitHub App (a template with {key}), or None."""
    if "PRIVATE KEY-----" not in text:
        if "-----BEGIN PUBLIC KEY" in text or "-----BEGIN CERTIFICATE" in text or "-----BEGIN RSA PUBLIC" in text:
            return PUBLIC_PEM
        return NO_PEM
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed448, ed25519, rsa
    from cryptography.hazmat.primitives.serialization import load_pem_private_key
    try:
        loaded = load_pem_private_key(text.encode("ascii", "replace"), password=None)
    except TypeError:  # "Password was not given but private key is encrypted"
        return ENCRYPTED_KEY
    except UnsupportedAlgorithm:
        return DAMAGED_KEY.replace("{reason}", "its algorithm is not supported")
    except ValueError:  # cryptography's own text may quote the data: never shown
        if "ENCRYPTED" in text:
            return ENCRYPTED_KEY
        return DAMAGED_KEY.replace("{reason}", DAMAGE)
    if isinstance(loaded, rsa.RSAPrivateKey):
        return None
    kinds = ((ec.EllipticCurvePrivateKey, "EC"), (ed25519.Ed25519PrivateKey, "Ed25519"),
             (ed448.Ed448PrivateKey, "Ed448"), (dsa.DSAPrivateKey, "DSA"))
    kind = next((name for cls, name in kinds if isinstance(loaded, cls)), "non-RSA")
    return NOT_RSA.replace("{kind}", kind)


def is_port(text: str) -> bool:
    """A TCP port number as written in the environment (gunicorn.conf.py binds it too)."""
    return text.isascii() and text.isdigit() and 1 <= int(text) <= 65535
