"""Everything the emulated GitHub knows: repos, pulls, checks, reviews, comments, people."""
from __future__ import annotations

import itertools
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from .auth import AppCredentials
from .records import (Call, CheckRun, Delivery, Issue, IssueComment, Permission, Reaction, Review,
                      ReviewComment, Violation)
from .repos import PullRequest, Repo


def now_iso(clock=time.time) -> str:
    return datetime.fromtimestamp(clock(), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class State:
    """The data behind every endpoint; `lock` serialises handlers (the server is threaded)."""

    def __init__(self, root: Path, *, app_id: int, app_slug: str, token_ttl: float, clock=time.time):
        self.root = Path(root)
        self.lock = threading.RLock()
        self.clock = clock
        self.app_slug = app_slug
        self.creds = AppCredentials(app_id, token_ttl=token_ttl, clock=clock)
        self._ids = itertools.count(1001)
        self.repos: dict[str, Repo] = {}
        self.installations: dict[str, int] = {}  # account login (lower) -> installation id
        self.pulls: dict[tuple[str, int], PullRequest] = {}
        self.check_runs: dict[int, CheckRun] = {}
        self.reviews: dict[int, Review] = {}
        self.review_comments: dict[int, ReviewComment] = {}
        self.issue_comments: dict[int, IssueComment] = {}
        self.issues: dict[tuple[str, int], Issue] = {}  # (repository lower, number)
        self.reactions: dict[int, Reaction] = {}
        self.permissions: dict[tuple[str, str], tuple[Permission, str]] = {}
        self.team_members: dict[tuple[str, str, str], dict] = {}
        # Teams with access to a repository: (repository, team slug), lower case.
        self.repo_teams: set[tuple[str, str]] = set()
        # Review requests per pull request: (repository, number) -> {"users": [...], "teams": [...]}.
        self.requested: dict[tuple[str, int], dict[str, list[str]]] = {}
        self.deliveries: list[Delivery] = []
        self.redeliveries: list[int] = []
        self.statuses: list[dict] = []
        self.calls: list[Call] = []
        self.violations: list[Violation] = []
        self.response_violations: list[Violation] = []
        self.rate_remaining = 5000
        # The App-manifest flow: codes not yet converted, forms posted, conversions answered.
        self.manifest_codes: dict[str, dict] = {}
        self.manifest_posts: list[dict] = []
        self.manifest_conversions: list[dict] = []

    def next_id(self) -> int:
        return next(self._ids)

    def now(self) -> str:
        return now_iso(self.clock)

    @property
    def bot_login(self) -> str:
        return f"{self.app_slug}[bot]"

    def add_repo(self, owner: str, name: str, default_branch: str) -> Repo:
        key = f"{owner}/{name}".lower()
        if key in self.repos:
            raise ValueError(f"repository {owner}/{name} already exists")
        installation = self.installations.setdefault(owner.lower(), self.next_id())
        repo = Repo(self.root / "git", owner, name, repo_id=self.next_id(),
                    installation_id=installation, default_branch=default_branch)
        self.repos[key] = repo
        return repo

    def repo(self, owner: str, name: str) -> Repo | None:
        return self.repos.get(f"{owner}/{name}".lower())

    def repo_by_key(self, key: str) -> Repo:
        return self.repos[key.lower()]

    def add_pull(self, repo: Repo, *, head: str, base: str, title: str, user: str,
                 body: str = "", draft: bool = False) -> PullRequest:
        repo.sha(head), repo.sha(base)  # both branches must exist, as on GitHub
        number = self.next_number(repo)
        pull = PullRequest(repo, number, head, base, title, user, body, self.now(), draft=draft,
                           id=self.next_id())
        self.pulls[(repo.full_name.lower(), number)] = pull
        return pull

    def next_number(self, repo: Repo) -> int:
        """Issues and pull requests share one sequence of numbers per repository, as on GitHub."""
        key = repo.full_name.lower()
        return 1 + max((n for (k, n) in [*self.pulls, *self.issues] if k == key), default=0)

    def add_issue(self, repo: Repo, *, title: str, body: str, user: str, user_type: str) -> Issue:
        now = self.now()
        issue = Issue(self.next_id(), repo.full_name, self.next_number(repo), title, body, user, now, now,
                      user_type=user_type)
        self.issues[(repo.full_name.lower(), issue.number)] = issue
        return issue

    def merge_pull(self, pull: PullRequest, *, squash: bool = False) -> str:
        """Merge the pull request now, as GitHub does; the merge commit's sha."""
        landed = tuple(pull.commits())  # the head's commits the base did not have yet
        pull.merged_base = pull.base_sha
        sha = pull.repo.git.merge(pull.base, pull.head_sha, f"Merge pull request #{pull.number} "
                                  f"from {pull.head}", squash=squash)
        pull.state, pull.merged_at, pull.merge_commit_sha = "closed", self.now(), sha
        pull.landed = (*landed, sha)
        return sha

    def pull(self, repo: Repo, number: int) -> PullRequest | None:
        return self.pulls.get((repo.full_name.lower(), number))

    def permission(self, repo: Repo, user: str) -> tuple[Permission, str]:
        return self.permissions.get((repo.full_name.lower(), user.lower()),
                                    (Permission.NONE, Permission.NONE.value))

    def installation_repos(self, installation_id: int) -> list[Repo]:
        return [r for r in self.repos.values() if r.installation_id == installation_id]
