"""The Flask app: route, validate, inject faults, authenticate, handle, complete and record."""
from __future__ import annotations

import json
import secrets
import time

from flask import Flask, Response, request

from . import graphql_api, handlers_app, handlers_checks, handlers_comments, handlers_git  # noqa: F401
from . import handlers_issues, handlers_pulls, handlers_reactions, handlers_reviewers  # noqa: F401  (importing registers the handlers)
from . import limits, manifest_flow
from .auth import AuthError, bearer, looks_like_jwt
from .faults import Faults
from .filler import Filler
from .ops import DOCS, HANDLERS, ApiError, Ctx, Reply
from .records import Call, Violation
from .spec import Spec
from .state import State

API_PREFIX = "/api/v3"
GRAPHQL_PATHS = ("/graphql", "/api/graphql")  # github.com and GHES spellings
METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE"]
NO_AUTH = "Requires authentication"
NOT_FOR_APPS = "Resource not accessible by integration"
BAD_JSON = "Problems parsing JSON"
NOT_IN_SPEC = "{method} {path} is not an operation of GitHub's REST API (OpenAPI subset)"
NOT_EMULATED = "operation {op} is in the OpenAPI subset but the emulator does not implement it"
# Calls authenticated as the App itself (JWT) rather than as an installation (token).
APP_OPERATIONS = {"apps/get-authenticated", "apps/list-installations", "apps/get-installation",
                  "apps/create-installation-access-token", "apps/get-repo-installation",
                  "apps/list-webhook-deliveries", "apps/get-webhook-delivery",
                  "apps/redeliver-webhook-delivery"}
EITHER_AUTH = {"rate-limit/get"}
# The manifest code is the credential: GitHub takes the conversion without any authentication.
NO_AUTH_OPERATIONS = {"apps/create-from-manifest"}


def create_app(state: State, spec: Spec, faults: Faults, *, check_responses: bool) -> Flask:
    app = Flask("github_emulator")
    filler = Filler(spec.resolve)
    manifest_flow.add_routes(app, state)

    @app.route("/", defaults={"path": ""}, methods=METHODS)
    @app.route("/<path:path>", methods=METHODS)
    def dispatch(path: str) -> Response:
        full = "/" + path
        prefix = API_PREFIX if full.startswith(API_PREFIX + "/") else ""
        api_path = full[len(prefix):]
        api = request.host_url.rstrip("/") + prefix
        raw = request.get_data()
        try:
            body = json.loads(raw) if raw.strip() else None
        except ValueError:
            return _answer(400, _error(400, BAD_JSON), {}, api_path, None, None)
        if full in GRAPHQL_PATHS:
            return _graphql(api, full, body)
        route = spec.route(request.method, api_path)
        if route is None:
            problem = NOT_IN_SPEC.format(method=request.method, path=api_path)
            _violate(state.violations, api_path, None, problem)
            return _answer(404, _error(404, "Not Found"), {}, api_path, body, None)
        checked = spec.check_request(route, api_path, request.args, dict(request.headers),
                                     raw or None, request.mimetype or None)
        if checked.problems:
            _violate(state.violations, api_path, route.operation_id, "; ".join(checked.problems))
            message = "Invalid request.\n\n" + "\n".join(checked.problems)
            return _answer(checked.status, _error(checked.status, message), {}, api_path, body, route)
        faulted = _fault(api_path)
        if faulted is not None:
            return _answer(*faulted, api_path, body, route)
        try:
            token = _authenticate(route.operation_id)
            handler = HANDLERS.get(route.operation_id)
            if handler is None:
                _violate(state.violations, api_path, route.operation_id,
                         NOT_EMULATED.format(op=route.operation_id))
                raise ApiError(501, NOT_EMULATED.format(op=route.operation_id))
            limits.check(body)
            ctx = Ctx(state, api, api_path, checked.query, body, token, dict(request.headers))
            with state.lock:
                reply = handler(ctx, **route.params)
                _complete(reply, route, api_path)
        except AuthError as exc:
            reply = Reply(401, _error(401, exc.message))
        except ApiError as exc:
            reply = Reply(exc.status, exc.body(), exc.headers)
        return _answer(reply.status, reply.body, reply.headers, api_path, body, route)

    def _graphql(api: str, full: str, body) -> Response:
        faulted = _fault(full)
        if faulted is not None:
            return _answer(*faulted, full, body, None, operation="graphql")
        try:
            token = _authenticate("graphql")
        except AuthError as exc:
            return _answer(401, _error(401, exc.message), {}, full, body, None, operation="graphql")
        with state.lock:
            out = graphql_api.execute(Ctx(state, api, full, {}, body, token), body)
        return _answer(200, out, {}, full, body, None, operation="graphql")

    def _fault(path: str):
        fault = faults.take(request.method, path)
        if fault is None:
            return None
        time.sleep(fault.delay)  # outside the state lock: other requests keep flowing
        if fault.status is None:
            return None
        return fault.status, fault.error_body(), dict(fault.headers)

    def _authenticate(operation_id: str):
        if operation_id in NO_AUTH_OPERATIONS:
            return None
        credential = bearer(request.headers.get("Authorization"))
        if credential is None:
            raise AuthError(NO_AUTH)
        value = credential[1]
        if operation_id in APP_OPERATIONS or (operation_id in EITHER_AUTH and looks_like_jwt(value)):
            state.creds.verify_jwt(value)
            return None
        if looks_like_jwt(value):
            raise ApiError(403, NOT_FOR_APPS)
        return state.creds.check_token(value)

    def _complete(reply: Reply, route, api_path: str) -> None:
        if not 200 <= reply.status < 300 or not isinstance(reply.body, (dict, list)):
            return
        schema = spec.response_schema(route, reply.status)
        if schema is not None:
            reply.body = filler.fill(reply.body, schema)
        if check_responses and schema is not None:
            problem = spec.check_response(route, api_path, reply.status, json.dumps(reply.body).encode())
            if problem:
                _violate(state.response_violations, api_path, route.operation_id, problem)

    def _answer(status, payload, headers, api_path, body, route, *, operation=None) -> Response:
        with state.lock:
            state.calls.append(Call(request.method, api_path, dict(request.args), body, status,
                                    operation or (route.operation_id if route else None),
                                    dict(request.headers)))
        headers = {**_rate_headers(), **headers}
        if status == 204 or payload is None:
            return Response(status=status, headers=headers)
        if isinstance(payload, bytes):
            return Response(payload, status=status, headers=headers)
        return Response(json.dumps(payload), status=status, headers=headers,
                        content_type="application/json; charset=utf-8")

    def _rate_headers() -> dict:
        numbers = handlers_app.rate_numbers(state)
        return {"X-RateLimit-Limit": str(numbers["limit"]), "X-RateLimit-Remaining": str(numbers["remaining"]),
                "X-RateLimit-Reset": str(numbers["reset"]), "X-RateLimit-Used": str(numbers["used"]),
                "X-RateLimit-Resource": "core", "X-GitHub-Request-Id": secrets.token_hex(8).upper()}

    def _violate(target: list, path: str, operation_id, problem: str) -> None:
        with state.lock:
            target.append(Violation(request.method, path, operation_id, problem))

    return app


def _error(status: int, message: str) -> dict:
    return {"message": message, "documentation_url": DOCS, "status": str(status)}

