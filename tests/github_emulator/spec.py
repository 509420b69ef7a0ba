"""GitHub's OpenAPI subset: route a request to its operation, validate requests and responses."""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openapi_core import OpenAPI
from openapi_core.testing import MockRequest, MockResponse

from tests.shared import SHARED, shared_path

SHARED_GITHUB = SHARED / "github"
SPEC_FILE = "api.github.com.bot-subset.json"
# openapi-core matches full URLs against `servers`; every request is checked as if sent there.
CANONICAL_HOST = "https://api.github.com"

# Operations the bot uses that the shared subset lacks; written from GitHub's REST reference
# until tools/extract_openapi_subset.py adds them (then this entry is skipped automatically).
EXTRA_PATHS: dict[str, dict] = {
    "/repos/{owner}/{repo}/commits": {"get": {
        "operationId": "repos/list-commits",
        "parameters": [
            {"$ref": "#/components/parameters/owner"}, {"$ref": "#/components/parameters/repo"},
            {"name": "sha", "in": "query", "schema": {"type": "string"}},
            {"name": "path", "in": "query", "schema": {"type": "string"}},
            {"name": "author", "in": "query", "schema": {"type": "string"}},
            {"name": "committer", "in": "query", "schema": {"type": "string"}},
            {"name": "since", "in": "query", "schema": {"type": "string", "format": "date-time"}},
            {"name": "until", "in": "query", "schema": {"type": "string", "format": "date-time"}},
            {"$ref": "#/components/parameters/per-page"}, {"$ref": "#/components/parameters/page"}],
        "responses": {"200": {"description": "Response", "content": {"application/json": {
            "schema": {"type": "array", "items": {"$ref": "#/components/schemas/commit"}}}}}}}},
    # The manifest flow's code exchange (no authentication: the code is the credential).
    "/app-manifests/{code}/conversions": {"post": {
        "operationId": "apps/create-from-manifest",
        "parameters": [{"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": {"201": {"description": "Response", "content": {"application/json": {"schema": {
            "allOf": [{"$ref": "#/components/schemas/integration"}, {
                "type": "object", "additionalProperties": True,
                "required": ["client_id", "client_secret", "webhook_secret", "pem"],
                "properties": {"client_id": {"type": "string"}, "client_secret": {"type": "string"},
                               "webhook_secret": {"type": "string", "nullable": True},
                               "pem": {"type": "string"}}}]}}}},
            "404": {"$ref": "#/components/responses/not_found"},
            "422": {"$ref": "#/components/responses/validation_failed_simple"}}}},
    # Missing from the shared subset: GitHub's issues themselves (list, create, get, update), for
    # the tracking issues of migrations (bot/github/issues.py). Shapes cut down to what GitHub sends.
    "/repos/{owner}/{repo}/issues": {
        "get": {
            "operationId": "issues/list-for-repo",
            "parameters": [
                {"$ref": "#/components/parameters/owner"}, {"$ref": "#/components/parameters/repo"},
                {"name": "state", "in": "query", "schema": {"type": "string", "enum": ["open", "closed", "all"]}},
                {"name": "creator", "in": "query", "schema": {"type": "string"}},
                {"name": "sort", "in": "query", "schema": {"type": "string", "enum": ["created", "updated", "comments"]}},
                {"name": "direction", "in": "query", "schema": {"type": "string", "enum": ["asc", "desc"]}},
                {"$ref": "#/components/parameters/per-page"}, {"$ref": "#/components/parameters/page"}],
            "responses": {"200": {"description": "Response", "content": {"application/json": {
                "schema": {"type": "array", "items": {"$ref": "#/components/schemas/x-emulator-issue"}}}}},
                "404": {"$ref": "#/components/responses/not_found"}}},
        "post": {
            "operationId": "issues/create",
            "parameters": [{"$ref": "#/components/parameters/owner"}, {"$ref": "#/components/parameters/repo"}],
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["title"],
                "properties": {"title": {"type": "string"}, "body": {"type": "string"},
                               "labels": {"type": "array", "items": {"type": "string"}},
                               "assignees": {"type": "array", "items": {"type": "string"}}}}}}},
            "responses": {"201": {"description": "Response", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/x-emulator-issue"}}}},
                "403": {"$ref": "#/components/responses/forbidden"},
                "404": {"$ref": "#/components/responses/not_found"},
                "422": {"$ref": "#/components/responses/validation_failed_simple"}}}},
    "/repos/{owner}/{repo}/issues/{issue_number}": {
        "get": {
            "operationId": "issues/get",
            "parameters": [{"$ref": "#/components/parameters/owner"}, {"$ref": "#/components/parameters/repo"},
                           {"$ref": "#/components/parameters/issue-number"}],
            "responses": {"200": {"description": "Response", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/x-emulator-issue"}}}},
                "404": {"$ref": "#/components/responses/not_found"}}},
        "patch": {
            "operationId": "issues/update",
            "parameters": [{"$ref": "#/components/parameters/owner"}, {"$ref": "#/components/parameters/repo"},
                           {"$ref": "#/components/parameters/issue-number"}],
            "requestBody": {"required": False, "content": {"application/json": {"schema": {
                "type": "object",
                "properties": {"title": {"type": "string"}, "body": {"type": "string", "nullable": True},
                               "state": {"type": "string", "enum": ["open", "closed"]},
                               "state_reason": {"type": "string", "nullable": True,
                                                "enum": ["completed", "not_planned", "reopened"]}}}}}},
            "responses": {"200": {"description": "Response", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/x-emulator-issue"}}}},
                "404": {"$ref": "#/components/responses/not_found"},
                "422": {"$ref": "#/components/responses/validation_failed_simple"}}}},
    # Missing from the shared subset: GitHub's "Request reviewers for a pull request".
    "/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers": {"post": {
        "operationId": "pulls/request-reviewers",
        "parameters": [{"$ref": "#/components/parameters/owner"}, {"$ref": "#/components/parameters/repo"},
                       {"$ref": "#/components/parameters/pull-number"}],
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object",
            "properties": {"reviewers": {"type": "array", "items": {"type": "string"}},
                           "team_reviewers": {"type": "array", "items": {"type": "string"}}},
            "anyOf": [{"required": ["reviewers"]}, {"required": ["team_reviewers"]}]}}}},
        "responses": {"201": {"description": "Response", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/pull-request-simple"}}}},
            "403": {"$ref": "#/components/responses/forbidden"},
            # "Unprocessable Entity if user or team is not a collaborator"
            "422": {"description": "Unprocessable Entity", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/basic-error"}}}}}}},
}

# The subset has no `issue` schema: the fields GitHub always sends, as its issue schema types them.
EXTRA_SCHEMAS: dict[str, dict] = {
    "x-emulator-issue": {
        "type": "object",
        "required": ["id", "node_id", "number", "title", "state", "user", "url", "html_url", "body",
                     "created_at", "updated_at", "closed_at"],
        "properties": {
            "id": {"type": "integer"}, "node_id": {"type": "string"}, "number": {"type": "integer"},
            "title": {"type": "string"}, "state": {"type": "string"},
            "body": {"type": "string", "nullable": True},
            "user": {"$ref": "#/components/schemas/simple-user"},
            "url": {"type": "string"}, "html_url": {"type": "string"},
            "comments_url": {"type": "string"},
            "created_at": {"type": "string", "format": "date-time"},
            "updated_at": {"type": "string", "format": "date-time"},
            "closed_at": {"type": "string", "format": "date-time", "nullable": True},
            "pull_request": {"type": "object"}}},
}


@dataclass(frozen=True)
class Route:
    template: str
    method: str
    operation_id: str
    params: dict[str, str]


@dataclass(frozen=True)
class Checked:
    problems: list[str]
    status: int  # 400 for parameters, 422 for bodies (GitHub's "Invalid request" answer)
    query: dict[str, Any]


class Spec:
    """The OpenAPI subset plus EXTRA_PATHS, loaded once per process."""

    def __init__(self, root: Path | None = None):
        # The emulator validates every request against it: without ../shared it cannot run.
        path = root / SPEC_FILE if root is not None else shared_path("github", SPEC_FILE)
        self.doc = json.loads(path.read_text())
        for template, ops in EXTRA_PATHS.items():
            self.doc["paths"].setdefault(template, copy.deepcopy(ops))
        for name, schema in EXTRA_SCHEMAS.items():
            self.doc["components"]["schemas"].setdefault(name, copy.deepcopy(schema))
        _null_in_nullable_enums(self.doc)
        self.api = OpenAPI.from_dict(self.doc)
        self._routes = sorted(self._compile(), key=lambda r: (r[0].count("{"), -len(r[0])))

    def _compile(self):
        for template, ops in self.doc["paths"].items():
            multi = {p.get("name") for op in ops.values() if isinstance(op, dict)
                     for p in op.get("parameters", []) if p.get("x-multi-segment")}
            regex = re.sub(r"\{(\w+)\}", lambda m: f"(?P<{m.group(1)}>{'.+' if m.group(1) in multi else '[^/]+'})",
                           re.escape(template).replace(r"\{", "{").replace(r"\}", "}"))
            yield template, re.compile(f"^{regex}$"), ops

    def route(self, method: str, path: str) -> Route | None:
        for template, regex, ops in self._routes:
            match = regex.match(path)
            if match and method.lower() in ops:
                return Route(template, method.lower(), ops[method.lower()]["operationId"],
                             match.groupdict())
        return None

    def check_request(self, route: Route, path: str, query, headers, body: bytes | None,
                      content_type: str | None) -> Checked:
        request = self._mock(route, path, query, headers, body, content_type)
        result = self.api.unmarshal_request(request)
        problems = [_explain(error) for error in result.errors]
        body_error = any("body" in type(e).__name__.lower() for e in result.errors)
        return Checked(problems, 422 if body_error else 400, dict(result.parameters.query or {}))

    def check_response(self, route: Route, path: str, status: int, payload: bytes) -> str | None:
        request = self._mock(route, path, {}, {}, None, None)
        try:
            self.api.validate_response(request, MockResponse(payload, status_code=status,
                                                             content_type="application/json"))
        except Exception as error:  # openapi-core raises one family per problem kind
            return _explain(error)
        return None

    def _mock(self, route, path, query, headers, body, content_type) -> MockRequest:
        return MockRequest(CANONICAL_HOST, route.method, path, path_pattern=route.template,
                           args=query, view_args=route.params, headers=headers, data=body,
                           content_type=content_type or "application/json")

    def response_schema(self, route: Route, status: int) -> dict | None:
        op = self.doc["paths"][route.template][route.method]
        answer = self.resolve(op.get("responses", {}).get(str(status)))
        content = (answer or {}).get("content", {}).get("application/json")
        return content.get("schema") if content else None

    def resolve(self, node: Any) -> Any:
        while isinstance(node, dict) and "$ref" in node:
            node = self._pointer(node["$ref"])
        return node

    def _pointer(self, ref: str) -> Any:
        node = self.doc
        for part in ref.lstrip("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node


def _explain(error: BaseException) -> str:
    """The most specific message openapi-core gives (schema errors hide in __cause__)."""
    parts = [f"{type(error).__name__}: {str(error)[:200]}"]
    cause = error.__cause__
    while cause is not None:
        detail = getattr(cause, "schema_errors", None)
        if detail:
            parts.append("; ".join(f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in detail))
        else:
            parts.append(str(cause)[:300])
        cause = cause.__cause__
    return " | ".join(parts)


def _null_in_nullable_enums(node: Any) -> None:
    """GitHub marks enums `nullable` without listing null; the validator needs null listed."""
    if isinstance(node, dict):
        if node.get("nullable") and isinstance(node.get("enum"), list) and None not in node["enum"]:
            node["enum"].append(None)
        for value in node.values():
            _null_in_nullable_enums(value)
    elif isinstance(node, list):
        for value in node:
            _null_in_nullable_enums(value)


_SPEC: Spec | None = None


def load() -> Spec:
    global _SPEC
    if _SPEC is None:
        _SPEC = Spec()
    return _SPEC
