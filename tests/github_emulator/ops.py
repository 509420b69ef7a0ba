"""The handler contract: operation registry, request context, replies, errors, pagination."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import urlencode

from .auth import Token
from .repos import PullRequest, Repo
from .state import State

DOCS = "https://docs.github.com/rest"
NOT_FOUND = "Not Found"
MAX_PER_PAGE = 100

HANDLERS: dict[str, Callable[..., "Reply"]] = {}


def operation(operation_id: str):
    """Register a handler for an OpenAPI operationId; path parameters arrive as keywords."""
    def register(fn):
        HANDLERS[operation_id] = fn
        return fn
    return register


@dataclass
class Reply:
    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


class ApiError(Exception):
    """An error answer in GitHub's shape: message, documentation_url, status, optional errors."""

    def __init__(self, status: int, message: str, *, errors: list | None = None, doc: str = DOCS,
                 headers: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.errors, self.doc = status, message, errors, doc
        self.headers = headers or {}

    def body(self) -> dict:
        out = {"message": self.message, "documentation_url": self.doc, "status": str(self.status)}
        if self.errors is not None:
            out["errors"] = self.errors
        return out


@dataclass
class Ctx:
    state: State
    api: str  # API root as the client addresses it, e.g. http://127.0.0.1:PORT/api/v3
    path: str  # request path without the API prefix
    query: dict[str, Any]
    body: Any
    token: Token | None  # installation token, None for App JWT calls
    headers: dict[str, str] = field(default_factory=dict)
    # What a request works out once however often it asks (the state lock is held throughout).
    memo: dict[Any, Any] = field(default_factory=dict)

    def repo(self, owner: str, name: str) -> Repo:
        repo = self.state.repo(owner, name)
        # An installation token only opens its own installation's repositories; others are 404.
        visible = repo is not None and (self.token is None or (
            repo.installation_id == self.token.installation_id
            and (self.token.repositories is None or repo.name in self.token.repositories)))
        if not visible:
            raise ApiError(404, NOT_FOUND, doc=f"{DOCS}/repos/repos#get-a-repository")
        return repo

    def pull(self, owner: str, name: str, number: int) -> PullRequest:
        pr = self.state.pull(self.repo(owner, name), int(number))
        if pr is None:
            raise ApiError(404, NOT_FOUND, doc=f"{DOCS}/pulls/pulls#get-a-pull-request")
        return pr

    def json(self, key: str, default: Any = None) -> Any:
        return self.body.get(key, default) if isinstance(self.body, dict) else default


def paginate(ctx: Ctx, items: list) -> Reply:
    """One page of `items` with GitHub's Link header (next/last, and prev/first after page 1)."""
    per_page = max(1, min(int(ctx.query.get("per_page") or 30), MAX_PER_PAGE))
    page = max(1, int(ctx.query.get("page") or 1))
    last = max(1, -(-len(items) // per_page))
    chunk = items[(page - 1) * per_page: page * per_page]
    links = []
    if page < last:
        links += [("next", page + 1), ("last", last)]
    if page > 1:
        links += [("prev", page - 1), ("first", 1)]
    headers = {}
    if links:
        base = {k: v for k, v in ctx.query.items() if v is not None and k != "page"}
        headers["Link"] = ", ".join(
            f'<{ctx.api}{ctx.path}?{urlencode({**base, "per_page": per_page, "page": n})}>; rel="{rel}"'
            for rel, n in links)
    return Reply(200, chunk, headers)


def require(condition: bool, status: int, message: str, **kw) -> None:
    if not condition:
        raise ApiError(status, message, **kw)
