"""The emulator's records: recorded calls, violations, and the GitHub objects the bot creates."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Permission(str, Enum):
    """Repository roles, as `set_permission` accepts them."""
    ADMIN = "admin"
    MAINTAIN = "maintain"
    WRITE = "write"
    TRIAGE = "triage"
    READ = "read"
    NONE = "none"

    @property
    def legacy(self) -> str:
        # The REST `permission` field only knows admin/write/read/none; maintain and triage
        # show up there as write and read, the real role is in `role_name`.
        return {"maintain": "write", "triage": "read"}.get(self.value, self.value)


@dataclass(frozen=True)
class Call:
    """One HTTP request the emulator answered."""
    method: str
    path: str  # without the /api/v3 prefix
    query: dict[str, str]
    json: Any
    status: int
    operation: str | None  # OpenAPI operationId, "graphql", or None when unknown
    headers: dict[str, str] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Violation:
    """A request the bot sent that GitHub's OpenAPI description does not allow."""
    method: str
    path: str
    operation: str | None
    problem: str


@dataclass
class CheckRun:
    id: int
    repo: str  # "owner/name"
    name: str
    head_sha: str
    status: str = "queued"
    conclusion: str | None = None
    details_url: str | None = None
    external_id: str | None = None
    started_at: str | None = None
    completed_at: str | None = None
    output: dict = field(default_factory=dict)  # title, summary, text
    annotations: list[dict] = field(default_factory=list)
    actions: list[dict] = field(default_factory=list)
    updates: int = 0  # PATCH count


@dataclass
class Review:
    id: int
    repo: str
    pull_number: int
    user: str
    body: str
    state: str  # APPROVED, CHANGES_REQUESTED, COMMENTED, PENDING, DISMISSED
    commit_id: str
    submitted_at: str | None


@dataclass
class ReviewComment:
    id: int
    repo: str
    pull_number: int
    review_id: int
    user: str
    body: str
    path: str
    commit_id: str
    created_at: str
    updated_at: str
    line: int | None = None
    side: str | None = None
    start_line: int | None = None
    start_side: str | None = None
    position: int | None = None
    diff_hunk: str = ""
    subject_type: str = "line"
    in_reply_to_id: int | None = None
    minimized_reason: str | None = None
    last_edited_at: str | None = None
    user_type: str = "Bot"

    @property
    def node_id(self) -> str:
        return f"PRRC_emu{self.id}"

    @property
    def is_minimized(self) -> bool:
        return self.minimized_reason is not None


@dataclass
class Issue:
    """An issue (not a pull request); it shares the repository's numbers with pull requests."""
    id: int
    repo: str
    number: int
    title: str
    body: str
    user: str
    created_at: str
    updated_at: str
    user_type: str = "User"
    state: str = "open"
    closed_at: str | None = None


@dataclass
class IssueComment:
    id: int
    repo: str
    issue_number: int
    user: str
    body: str
    created_at: str
    updated_at: str
    user_type: str = "User"
    minimized_reason: str | None = None
    last_edited_at: str | None = None  # GraphQL's lastEditedAt: set by an edit, never by creation

    @property
    def node_id(self) -> str:
        return f"IC_emu{self.id}"

    @property
    def is_minimized(self) -> bool:
        return self.minimized_reason is not None


@dataclass
class Reaction:
    id: int
    subject: str  # "issue_comment" or "review_comment"
    comment_id: int
    user: str
    content: str
    created_at: str
    user_type: str = "Bot"


@dataclass
class Delivery:
    """A webhook delivery as GET /app/hook/deliveries lists it."""
    id: int
    guid: str
    event: str
    action: str | None = None
    status_code: int = 200
    delivered_at: str = "2024-01-01T00:00:00Z"
    redelivery: bool = False
    installation_id: int | None = None
    repository_id: int | None = None

    @property
    def status(self) -> str:
        return "OK" if 200 <= self.status_code < 300 else "Invalid HTTP Response: %d" % self.status_code
