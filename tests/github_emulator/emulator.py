"""GitHubEmulator: the test-facing object that owns the state, the server thread and the helpers."""
from __future__ import annotations

import os
import threading
import uuid
from datetime import datetime
from pathlib import Path

from werkzeug.serving import WSGIRequestHandler, make_server

from . import spec as spec_module
from . import webhooks
from .faults import Fault, Faults
from .inspection import Inspection
from .records import CheckRun, Delivery, Issue, IssueComment, Permission, ReviewComment
from .repos import PullRequest, Repo
from .server import create_app
from .state import State

DEFAULT_APP_ID = 424242
DEFAULT_SLUG = "schema-review"
POLL_SECONDS = 0.02
NO_REPO = "no emulated repository {owner}/{name}"


class GitHubEmulator(Inspection):
    """A local GitHub (REST + GraphQL) on 127.0.0.1 backed by real git repositories."""

    def __init__(self, tmpdir, *, app_id: int = DEFAULT_APP_ID, app_slug: str = DEFAULT_SLUG,
                 token_ttl: float = 3600, check_responses: bool = True):
        self.state = State(Path(tmpdir), app_id=app_id, app_slug=app_slug, token_ttl=token_ttl)
        self.faults = Faults()
        self._app = create_app(self.state, spec_module.load(), self.faults, check_responses=check_responses)
        self._server = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> "GitHubEmulator":
        self._server = make_server("127.0.0.1", 0, self._app, threaded=True,
                                   request_handler=_QuietHandler)
        # A short poll interval keeps stop() (and so every test teardown) fast.
        self._thread = threading.Thread(target=self._server.serve_forever, args=(POLL_SECONDS,),
                                        name="github-emulator", daemon=True)
        self._thread.start()
        return self

    def lower_priority(self, niceness: int) -> None:
        """Serve at a lower CPU priority (Linux: the serving thread's nice value, which the
        thread of every request inherits). Benchmarks use it so that an App on the same machine
        gets a core first, as it would if GitHub ran elsewhere."""
        os.setpriority(os.PRIO_PROCESS, self._thread.native_id, niceness)

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(timeout=5)
            self._server = self._thread = None

    def __enter__(self) -> "GitHubEmulator":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("the emulator is not started (call start() or use it in a with block)")
        return f"http://127.0.0.1:{self._server.server_port}"

    @property
    def api_url(self) -> str:
        """The GHES-style base URL (…/api/v3); its GraphQL endpoint is …/api/graphql."""
        return self.url + "/api/v3"

    @property
    def graphql_url(self) -> str:
        return self.url + "/graphql"

    # -- the App -----------------------------------------------------------------------------
    @property
    def app_id(self) -> int:
        return self.state.creds.app_id

    @property
    def private_key(self) -> str:
        """PEM of the App's RSA private key; the bot signs its JWTs with it."""
        return self.state.creds.private_key_pem

    @property
    def bot_login(self) -> str:
        return self.state.bot_login

    @property
    def token_ttl(self) -> float:
        return self.state.creds.token_ttl

    @token_ttl.setter
    def token_ttl(self, seconds: float) -> None:
        self.state.creds.token_ttl = seconds

    def installation_id(self, owner: str) -> int:
        return self.state.installations[owner.lower()]

    def issue_token(self, owner: str) -> str:
        """An installation token for `owner`'s installation, as if the bot had asked for one."""
        return self.state.creds.issue(self.installation_id(owner)).value

    def expire_tokens(self) -> None:
        """Every token issued so far is now rejected with 401 Bad credentials."""
        self.state.creds.expire_all()

    # -- repositories and people ---------------------------------------------------------------
    def create_repo(self, owner: str, name: str, files: dict[str, str | bytes], *,
                    default_branch: str = "main", message: str = "Initial commit") -> Repo:
        with self.state.lock:
            repo = self.state.add_repo(owner, name, default_branch)
        if files:
            repo.commit(default_branch, files, message)
        return repo

    def repo(self, owner: str, name: str) -> Repo:
        found = self.state.repo(owner, name)
        if found is None:
            raise KeyError(NO_REPO.format(owner=owner, name=name))
        return found

    def open_pull(self, owner: str, name: str, head: str, base: str, title: str, *,
                  user: str = "octocat", body: str = "", draft: bool = False) -> PullRequest:
        with self.state.lock:
            return self.state.add_pull(self.repo(owner, name), head=head, base=base, title=title,
                                       user=user, body=body, draft=draft)

    def merge_pull(self, pull: PullRequest, *, squash: bool = False) -> str:
        """Merge `pull` into its base now (a merge commit, or a squash); the commit's sha. Its
        `mergedAt` is GitHub's clock, whatever dates the merged commits carry."""
        with self.state.lock:
            return self.state.merge_pull(pull, squash=squash)

    def pull(self, owner: str, name: str, number: int) -> PullRequest:
        return self.state.pull(self.repo(owner, name), number)

    def set_permission(self, owner: str, name: str, username: str, permission: str | Permission,
                       role_name: str | None = None) -> None:
        level = Permission(permission)
        key = (self.repo(owner, name).full_name.lower(), username.lower())
        self.state.permissions[key] = (level, role_name or level.value)

    def set_team_member(self, org: str, team_slug: str, username: str, *, role: str = "member",
                        state: str = "active") -> None:
        self.state.team_members[(org.lower(), team_slug.lower(), username.lower())] = {
            "role": role, "state": state}

    def grant_team(self, owner: str, name: str, team_slug: str) -> None:
        """Give a team of the owner's organisation access to the repository (so it can review)."""
        self.state.repo_teams.add((self.repo(owner, name).full_name.lower(), team_slug.lower()))

    def add_review_thread(self, pull: PullRequest, body: str, path: str, *, user: str = "octocat") -> ReviewComment:
        """A file-level review comment someone else started (a new thread) on the pull request."""
        with self.state.lock:
            now = self.state.now()
            item = ReviewComment(self.state.next_id(), pull.repo.full_name, pull.number, 0, user, body,
                                 path, pull.head_sha, now, now, subject_type="file", user_type="User")
            self.state.review_comments[item.id] = item
            return item

    def edit_issue_comment(self, comment_id: int, body: str) -> None:
        """An edit by someone with write access (GitHub lets them edit anyone's comment)."""
        with self.state.lock:
            item = self.state.issue_comments[comment_id]
            item.body = body
            item.updated_at = item.last_edited_at = self.state.now()

    def add_issue_comment(self, pull: PullRequest | Issue, body: str, *, user: str = "octocat",
                          user_type: str = "User") -> IssueComment:
        """A comment written by someone else (a human, another bot) on the PR conversation (or
        an issue's)."""
        with self.state.lock:
            now = self.state.now()
            where = pull.repo if isinstance(pull, Issue) else pull.repo.full_name
            item = IssueComment(self.state.next_id(), where, pull.number, user, body,
                                now, now, user_type=user_type)
            self.state.issue_comments[item.id] = item
            return item

    def set_rate_remaining(self, remaining: int) -> None:
        self.state.rate_remaining = remaining

    # -- faults ------------------------------------------------------------------------------------
    def inject(self, method: str, path_regex: str, *, status: int | None = None, times: int | None = 1,
               headers: dict[str, str] | None = None, delay: float = 0.0, body: dict | None = None) -> Fault:
        """Answer the next `times` matching requests with `status` (None: just delay them)."""
        return self.faults.add(Fault(method.upper(), path_regex, status, times, dict(headers or {}),
                                     delay, body))

    def clear_faults(self) -> None:
        self.faults.clear()

    # -- webhooks ----------------------------------------------------------------------------------
    def add_delivery(self, event: str, *, action: str | None = None, status_code: int = 200,
                     guid: str | None = None, redelivery: bool = False,
                     delivered_at: datetime | str | None = None) -> Delivery:
        with self.state.lock:
            item = Delivery(self.state.next_id(), guid or str(uuid.uuid4()), event, action, status_code,
                            _iso(delivered_at) or self.state.now(), redelivery)
            self.state.deliveries.append(item)
            return item

    def deliver(self, app_url: str, event: str, payload: dict, secret: str, *,
                delivery_id: str | None = None):
        return webhooks.deliver(self, app_url, event, payload, secret, delivery_id=delivery_id)

    def pull_request_event(self, action: str, pull: PullRequest, **extra) -> dict:
        return webhooks.pull_request_event(self, action, pull, **extra)

    def issue_comment_event(self, pull: PullRequest, body: str, user: str, *, action: str = "created",
                            user_type: str = "User", comment: IssueComment | None = None) -> dict:
        return webhooks.issue_comment_event(self, pull, body, user, action=action, user_type=user_type,
                                            comment=comment)

    def issue_comment_on_issue_event(self, issue: Issue, body: str, user: str, *, user_type: str = "User",
                                     comment: IssueComment | None = None) -> dict:
        return webhooks.issue_comment_on_issue_event(self, issue, body, user, user_type=user_type,
                                                     comment=comment)

    def merge_group_event(self, repo: Repo, pull: PullRequest, *, base_sha: str, head_sha: str) -> dict:
        return webhooks.merge_group_event(self, repo, pull, base_sha=base_sha, head_sha=head_sha)

    def check_run_event(self, action: str, run: CheckRun, *, identifier: str | None = None) -> dict:
        return webhooks.check_run_event(self, action, run, identifier=identifier)


class _QuietHandler(WSGIRequestHandler):
    """No access log on stderr: `calls` is the record, and pytest output stays readable."""

    def log_request(self, *args, **kwargs) -> None:
        pass


def _iso(value) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")
