"""Registration mode (no credentials): GET / posts the manifest to GitHub; the callback writes `.env`.

The browser carries the manifest to GitHub (GitHub's flow needs a form post from the person's own
session). `state` is a random value kept in an HttpOnly cookie and echoed by GitHub: a callback
without the matching cookie was not started here, so someone else's code is never written.
"""
from __future__ import annotations

import hmac
import json
import logging
import secrets
from urllib.parse import urlencode

from flask import Blueprint, current_app, make_response, redirect, render_template, request
from github import GithubException
from requests import RequestException

from bot.config.envfile import write_env_file
from bot.github.app import convert_manifest
from bot.web.registration.manifest import (DEFAULT_API_URL, ORG_NAME, SetupSettings, base_url, build_manifest, loopback,
                       loopback_host)

log = logging.getLogger("schema_review.registration")
blueprint = Blueprint("registration", __name__, template_folder="templates")

STATE_COOKIE = "schema_review_setup_state"
STATE_SECONDS = 3600  # GitHub's manifest codes expire after an hour too
SETTINGS = "schema_review.setup"
NOT_LOCAL = ("This server has no PUBLIC_URL, so it registers an App only for a browser on this "
             "machine (http://localhost:PORT/). Set PUBLIC_URL to the address GitHub reaches it at.")
BAD_ORG = "“{org}” is not a GitHub organisation name."
BAD_STATE = "This answer was not started from this page (the state does not match). Start again."
NO_CODE = "GitHub sent no code back. Start again."
ALREADY = "{path} already exists: this server is registered. Restart it to use those credentials."
REFUSED = "GitHub refused the code (HTTP {status}); codes work once and for an hour. Start again."
INCOMPLETE = "GitHub's answer lacked the App's id, key or webhook secret. Nothing was saved."
UNWRITABLE = "Could not write {path} ({reason}). Nothing was saved; fix the folder and start again."


def _settings() -> SetupSettings:
    return current_app.extensions[SETTINGS]


def _problem(message: str, status: int):
    return render_template("problem.html", message=message), status


@blueprint.before_request
def only_where_it_is_safe():
    # Without PUBLIC_URL the manifest's URLs come from the request, whose Host header the client
    # writes: acceptable for the operator's own browser on this machine, for no one else. The
    # Host must be a loopback name too, or a site the operator visits could rebind its own
    # name to 127.0.0.1 and drive this page from their browser.
    if _settings().public_url is None and not (loopback(request.remote_addr) and loopback_host(request.host)):
        return _problem(NOT_LOCAL, 403)
    return None


@blueprint.after_request
def never_cached(response):
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Frame-Options"] = "DENY"
    return response


@blueprint.get("/")
def start():
    base = base_url(_settings(), request.host_url)
    manifest = build_manifest(base)
    return render_template("register.html", manifest=json.dumps(manifest), base=base,
                           github=_settings().web_url, webhook=manifest["hook_attributes"]["url"],
                           permissions=manifest.get("default_permissions", {}),
                           events=manifest.get("default_events", []))


@blueprint.post("/setup/register")
def register():
    """307 keeps the method and the form: the browser posts the same manifest on to GitHub."""
    org = request.form.get("org", "").strip()
    if org and not ORG_NAME.fullmatch(org):
        return _problem(BAD_ORG.format(org=org[:60]), 400)
    state = secrets.token_urlsafe(32)
    target = f"{_settings().new_app_url(org or None)}?{urlencode({'state': state})}"
    response = redirect(target, code=307)
    response.set_cookie(STATE_COOKIE, state, max_age=STATE_SECONDS, httponly=True, samesite="Lax",
                        secure=request.is_secure, path="/setup")
    return response


@blueprint.get("/setup/callback")
def callback():
    settings = _settings()
    expected, given = request.cookies.get(STATE_COOKIE, ""), request.args.get("state", "")
    if not expected or not hmac.compare_digest(expected.encode(), given.encode()):
        return _problem(BAD_STATE, 400)
    code = request.args.get("code", "")
    if not code or len(code) > 200:
        return _problem(NO_CODE, 400)
    if settings.env_file.exists():
        return _problem(ALREADY.format(path=settings.env_file), 409)
    try:
        created = convert_manifest(settings.api_url, code)
    except GithubException as error:
        log.warning("manifest conversion refused", extra={"status": error.status})
        return _problem(REFUSED.format(status=error.status), 502)
    except RequestException as error:
        log.warning("manifest conversion failed", extra={"reason": type(error).__name__})
        return _problem(REFUSED.format(status=type(error).__name__), 502)
    if not all(isinstance(created, dict) and created.get(key) for key in ("id", "pem", "webhook_secret")):
        return _problem(INCOMPLETE, 502)
    try:
        write_env_file(settings.env_file, _env_values(created, settings))
    except OSError as error:
        return _problem(UNWRITABLE.format(path=settings.env_file, reason=type(error).__name__), 500)
    log.info("App registered", extra={"app_id": created.get("id"), "slug": created.get("slug")})
    response = make_response(render_template(
        "registered.html", name=created.get("name"), html_url=created.get("html_url"),
        env_file=settings.env_file.resolve()))
    response.delete_cookie(STATE_COOKIE, path="/setup")
    return response


def _env_values(created: dict, settings: SetupSettings) -> dict[str, str]:
    values = {"GITHUB_APP_ID": str(created["id"]), "GITHUB_PRIVATE_KEY": created["pem"],
              "GITHUB_WEBHOOK_SECRET": created["webhook_secret"],
              "GITHUB_CLIENT_ID": created.get("client_id") or "",
              "GITHUB_CLIENT_SECRET": created.get("client_secret") or ""}
    if settings.api_url != DEFAULT_API_URL:
        values["GITHUB_API_URL"] = settings.api_url
    return values
