"""What the bot did: recorded calls, violations, and the objects it created, per repository."""
from __future__ import annotations

import re

from .records import Call, CheckRun, IssueComment, Reaction, Review, ReviewComment, Violation
from .repos import Repo
from .state import State


class Inspection:
    """Read-side helpers of GitHubEmulator (needs `state` and `repo(owner, name)`)."""

    state: State

    def repo(self, owner: str, name: str) -> Repo:
        raise NotImplementedError

    @property
    def calls(self) -> list[Call]:
        return list(self.state.calls)

    def calls_to(self, method: str | None = None, path: str | None = None, *,
                 operation: str | None = None) -> list[Call]:
        """Calls filtered by method, a regex searched in the path, and/or operationId."""
        return [c for c in self.calls if (method is None or c.method == method.upper())
                and (path is None or re.search(path, c.path))
                and (operation is None or c.operation == operation)]

    def clear_calls(self) -> None:
        with self.state.lock:
            self.state.calls.clear()

    @property
    def violations(self) -> list[Violation]:
        return list(self.state.violations)

    def take_violations(self) -> list[Violation]:
        """Return and forget the violations so far (for tests that provoke one on purpose)."""
        with self.state.lock:
            taken = list(self.state.violations)
            self.state.violations.clear()
        return taken

    @property
    def response_violations(self) -> list[Violation]:
        """Responses of the emulator itself that break GitHub's schema (emulator bugs)."""
        return list(self.state.response_violations)

    def check_runs(self, owner: str, name: str, sha: str | None = None) -> list[CheckRun]:
        full = self.repo(owner, name).full_name
        return [r for r in self.state.check_runs.values() if r.repo == full and sha in (None, r.head_sha)]

    def reviews(self, owner: str, name: str, number: int | None = None) -> list[Review]:
        full = self.repo(owner, name).full_name
        return [r for r in self.state.reviews.values() if r.repo == full and number in (None, r.pull_number)]

    def review_comments(self, owner: str, name: str, number: int | None = None) -> list[ReviewComment]:
        full = self.repo(owner, name).full_name
        return [c for c in self.state.review_comments.values()
                if c.repo == full and number in (None, c.pull_number)]

    def issue_comments(self, owner: str, name: str, number: int | None = None) -> list[IssueComment]:
        full = self.repo(owner, name).full_name
        return [c for c in self.state.issue_comments.values()
                if c.repo == full and number in (None, c.issue_number)]

    def issues(self, owner: str, name: str) -> list:
        """The repository's issues (not pull requests), by number."""
        key = self.repo(owner, name).full_name.lower()
        return [i for (k, _n), i in sorted(self.state.issues.items()) if k == key]

    def requested_reviewers(self, owner: str, name: str, number: int) -> dict[str, list[str]]:
        """Who was asked to review: {"users": [logins], "teams": [slugs]}, in the order asked."""
        found = self.state.requested.get((self.repo(owner, name).full_name.lower(), number), {})
        return {"users": list(found.get("users", [])), "teams": list(found.get("teams", []))}

    def reactions(self, comment_id: int | None = None) -> list[Reaction]:
        return [r for r in self.state.reactions.values() if comment_id in (None, r.comment_id)]

    @property
    def statuses(self) -> list[dict]:
        return list(self.state.statuses)

    @property
    def redeliveries(self) -> list[int]:
        """Delivery ids the bot asked GitHub to redeliver, in order."""
        return list(self.state.redeliveries)
