"""GitHub's App-manifest flow: the `settings/apps/new` form and the code's conversion into credentials.

On GitHub a person POSTs `manifest=<json>` to `/settings/apps/new?state=S` (or an organisation's
`/organizations/ORG/settings/apps/new`), confirms, and is redirected to the manifest's
`redirect_url?code=C&state=S`; the App's server then trades the one-time code for the new App's
id, PEM key, webhook secret and client secret with POST /app-manifests/{code}/conversions.
The emulated App keeps the emulator's one identity (id and key), so the credentials work here.
"""
from __future__ import annotations

import json
import re
import secrets
from urllib.parse import urlencode

from flask import Flask, request

from . import shapes
from .ops import DOCS, NOT_FOUND, ApiError, Ctx, Reply, operation
from .state import State

MANIFEST_DOCS = f"{DOCS}/apps/apps#create-a-github-app-from-a-manifest"
BAD_MANIFEST = "Invalid manifest: {problem}"
SLUG_CHARACTERS = re.compile(r"[^a-z0-9]+")


def add_routes(app: Flask, state: State) -> None:
    """The browser side: the form GitHub shows when a manifest is posted to it."""

    @app.post("/settings/apps/new")
    def new_personal_app():
        return _accept(state, owner="octocat")

    @app.post("/organizations/<org>/settings/apps/new")
    def new_org_app(org: str):
        return _accept(state, owner=org)


def _accept(state: State, *, owner: str):
    try:
        manifest = json.loads(request.form.get("manifest", ""))
        problem = _problem(manifest)
    except ValueError:
        manifest, problem = None, "not JSON"
    if problem:
        return BAD_MANIFEST.format(problem=problem), 422, {"Content-Type": "text/plain; charset=utf-8"}
    code = secrets.token_hex(10)
    with state.lock:
        state.manifest_codes[code] = {"manifest": manifest, "owner": owner}
        state.manifest_posts.append({"owner": owner, "manifest": manifest, "state": request.args.get("state")})
    query = urlencode({"code": code, "state": request.args.get("state", "")})
    return "", 302, {"Location": f"{manifest['redirect_url']}?{query}"}


def _problem(manifest) -> str | None:
    if not isinstance(manifest, dict):
        return "not an object"
    if not isinstance(manifest.get("url"), str) or not manifest["url"]:
        return "url is required"
    hook = manifest.get("hook_attributes")
    if not isinstance(hook, dict) or not str(hook.get("url", "")).startswith(("http://", "https://")):
        return "hook_attributes.url is required"
    if not str(manifest.get("redirect_url", "")).startswith(("http://", "https://")):
        return "redirect_url is required"
    return None


@operation("apps/create-from-manifest")
def create_from_manifest(ctx: Ctx, code: str) -> Reply:
    found = ctx.state.manifest_codes.pop(code, None)  # a code is good for one conversion
    if found is None:
        raise ApiError(404, NOT_FOUND, doc=MANIFEST_DOCS)
    manifest = found["manifest"]
    slug = SLUG_CHARACTERS.sub("-", str(manifest.get("name") or "app").lower()).strip("-") or "app"
    ctx.state.app_slug = slug
    creds = ctx.state.creds
    body = {**shapes.app(ctx.api, creds.app_id, slug, owner=found["owner"]),
            "name": manifest.get("name") or slug, "description": manifest.get("description") or "",
            "permissions": dict(manifest.get("default_permissions") or {}),
            "events": list(manifest.get("default_events") or []),
            "client_id": f"Iv1.{secrets.token_hex(8)}", "client_secret": secrets.token_hex(20),
            "webhook_secret": secrets.token_hex(20), "pem": creds.private_key_pem}
    ctx.state.manifest_conversions.append(body)
    return Reply(201, body)
