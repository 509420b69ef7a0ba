"""The one place that talks to GitHub (PyGithub for REST, its requester for GraphQL)."""
from __future__ import annotations

import base64
import collections
import functools
import logging
import threading
from dataclasses import dataclass
from typing import Callable, Iterable

from urllib.parse import quote

from github import Auth, BadCredentialsException, Github, GithubException, UnknownObjectException
from github.File import File
from github.PaginatedList import PaginatedList

from bot.github import review_query
from bot.github.backoff import GitHubBackoff
from bot.github.blobs import Blob, looked_up, lookup
from bot.github.contributions import PULL_COMMITS_LISTED
from bot.ambient.jobs import checkpoint
from bot.ambient.metrics import GITHUB_CALLS, RATE_REMAINING
from bot.render.markdown import clip, clip_title
from bot.config.settings import Settings
from bot.lifecycle.since import Clock, parse_time
from bot.github.tokens import InstallationToken

log = logging.getLogger("schema_review.github")

CHECK_NAME = "schema-review"
CONFIGS_KEPT = 1024
LOOK_UP = object()  # start_check_run: the caller has not looked for the run
FAILURE = "failure"
# GitHub accepts at most 50 annotations per check-run request; more go in later PATCHes.
ANNOTATIONS_PER_REQUEST = 50
# A comparison lists this many changed files at most; a pull request's listing, PULL_FILES_LISTED.
COMPARE_FILES_LISTED = 300
PULL_FILES_LISTED = 3000
# Aliased `object(expression:)` lookups per GraphQL query: one query serves a typical PR.
BLOBS_PER_QUERY = 250  # a 120-file pull request's base and head versions in one query
BLOB_QUERY = """query($owner: String!, $name: String!, {declarations}) {{
  repository(owner: $owner, name: $name) {{ {selections} }}
}}"""
# Aliased `history(path:)` lookups per GraphQL query: the calendar dates every file's versions.
HISTORIES_PER_QUERY = 50
# A version is dated when GitHub merged the pull request that brought it (its commit's date is
# the author's to choose); a commit on the default branch has one such pull request, others may
# list open ones too (no mergedAt).
LANDED = "associatedPullRequests(first: 5) { nodes { mergedAt } }"
HISTORY_QUERY = """query($owner: String!, $name: String!, $ref: String!, $first: Int!, {declarations}) {{
  repository(owner: $owner, name: $name) {{ object(expression: $ref) {{ ... on Commit {{ {selections} }} }} }}
}}"""
MINIMIZE = """mutation($id: ID!) {
  minimizeComment(input: {subjectId: $id, classifier: OUTDATED}) { minimizedComment { isMinimized } }
}"""


@dataclass(frozen=True)
class Verdict:
    """What a completed check run said before this pass set it in progress again."""

    conclusion: str
    title: str
    summary: str
    text: str | None


class GitHubApp:
    """App-level access: one authenticated client per installation, tokens renewed ahead of expiry."""

    def __init__(self, settings: Settings, *, record_key: bytes | None = None, timeout: int = 15,
                 retries: int = 5, backoff: float = 1.0, max_rate_wait: float = 90.0, token_margin: float = 300.0):
        self.app_id = int(settings.app_id)
        self._auth = Auth.AppAuth(self.app_id, settings.private_key)
        self._base_url = settings.api_url.rstrip("/")
        self._timeout = timeout
        self._token_margin = token_margin
        # 5xx and lost connections back off (backoff, 2x, 4x ...); rate limits wait as GitHub says.
        self._retry = GitHubBackoff(total=retries, backoff_factor=backoff, max_wait=max_rate_wait)
        self._clients: dict[int, Github] = {}
        self._lock = threading.Lock()
        self._login: str | None = None
        # Seals the override records the App writes into its comments (bot/overrides/records.py
        # derives it); None (the status page) seals nothing: sealing or reading a record then fails.
        self.record_key = record_key
        # The last config each repository had: which files to fetch with the review state query
        # before the current config is read (only a guess; a wrong one costs one more query).
        self._configs: collections.OrderedDict[str, object] = collections.OrderedDict()

    def last_config(self, full_name: str):
        with self._lock:
            return self._configs.get(full_name.lower())

    def keep_config(self, full_name: str, config) -> None:
        with self._lock:
            self._configs[full_name.lower()] = config
            self._configs.move_to_end(full_name.lower())
            while len(self._configs) > CONFIGS_KEPT:
                self._configs.popitem(last=False)

    def installation(self, installation_id: int) -> Github:
        with self._lock:
            if installation_id not in self._clients:
                token = InstallationToken(self._auth, installation_id, margin=self._token_margin)
                self._clients[installation_id] = self._client(token)
            return self._clients[installation_id]

    def _client(self, auth) -> Github:
        return Github(auth=auth, base_url=self._base_url, timeout=self._timeout, retry=self._retry,
                      seconds_between_requests=None, seconds_between_writes=None,
                      per_page=100)  # GitHub's maximum: a 120-file pull request is two pages, not four

    def app_requester(self):
        """A requester authenticated as the App itself (JWT), for the App's own endpoints."""
        return self._client(self._auth).requester

    def bot_login(self) -> str:
        """The App's own login ("slug[bot]"), to tell its comments from look-alikes."""
        with self._lock:
            if self._login is None:
                app = self._client(self._auth).get_app()  # GET /app as the App, with the retry policy
                self._login = f"{app.slug}[bot]"
            return self._login

    def about(self) -> tuple[str, int]:
        """The App's name and its number of installations (GET /app as the App)."""
        app = self._client(self._auth).get_app()
        return app.name, app.installations_count

    def latest_deliveries(self, count: int) -> list[dict]:
        """GitHub's record of the newest webhook deliveries (GET /app/hook/deliveries, newest first)."""
        _headers, items = self.app_requester().requestJsonAndCheck(
            "GET", "/app/hook/deliveries", parameters={"per_page": count})
        return list(items or [])[:count]

    def repo(self, installation_id: int, full_name: str) -> "RepoClient":
        return RepoClient(self.installation(installation_id), full_name, app_id=self.app_id)


def convert_manifest(api_url: str, code: str, *, timeout: int = 15) -> dict:
    """The manifest flow's last step: the one-time code buys the new App's credentials.

    POST /app-manifests/{code}/conversions takes no authentication; the answer holds the id,
    the PEM key, the webhook secret and the client secret, which the caller must never log.
    """
    requester = Github(base_url=api_url.rstrip("/"), timeout=timeout, retry=None).requester
    _headers, body = requester.requestJsonAndCheck("POST", f"/app-manifests/{quote(code, safe='')}/conversions")
    return body


def _operation(name: str, *, reads: bool = False):
    """Count the call, renew a rejected token once, and (reads) stop a superseded job early."""
    def wrap(method: Callable) -> Callable:
        @functools.wraps(method)
        def run(self: "RepoClient", *args, **kwargs):
            if reads:
                checkpoint()
            try:
                try:
                    result = method(self, *args, **kwargs)
                except BadCredentialsException:
                    # The token was revoked or expired early (clock skew): renew once, ask again.
                    self._renew_token()
                    result = method(self, *args, **kwargs)
            except Exception:
                GITHUB_CALLS.inc(operation=name, outcome="error")
                raise
            finally:
                self._observe_rate()
            GITHUB_CALLS.inc(operation=name, outcome="ok")
            return result
        return run
    return wrap


class RepoClient:
    """Named operations on one repository, as the handlers need them."""

    def __init__(self, client: Github, full_name: str, *, app_id: int = 0):
        self._client = client
        self.app_id = app_id  # finds the App's own check suite on a commit
        self.full_name = full_name
        self.owner, self.name = full_name.split("/", 1)
        self._repo = client.get_repo(full_name, lazy=True)

    def _renew_token(self) -> None:
        auth = self._client.requester.auth
        if isinstance(auth, InstallationToken):
            auth.invalidate()

    def _observe_rate(self) -> None:
        remaining, _limit = self._repo.requester.rate_limiting
        if remaining >= 0:
            RATE_REMAINING.set(remaining)

    # --- reading -------------------------------------------------------------------------------
    @_operation("pull", reads=True)
    def pull(self, number: int):
        return self._repo.get_pull(number)


    @_operation("open_pulls", reads=True)
    def open_pulls(self) -> list[tuple[int, str]]:
        """(number, head sha) of every open pull request, most recently updated first (forks'
        included: they are this repository's pull requests)."""
        return [(pull.number, pull.head.sha)
                for pull in self._repo.get_pulls(state="open", sort="updated", direction="desc")]

    def pulls_for_commit(self, head_sha: str) -> list[int]:
        """Every open pull request whose head is this commit. Check events from forks carry no
        `pull_requests`; and one head can be proposed to several bases, each with its own
        verdict on the one check run."""
        return [number for number, head in self.open_pulls() if head == head_sha]

    @_operation("compare_files", reads=True)
    def compare_files(self, base_sha: str, head_sha: str) -> tuple[list, bool]:
        """(files, whether that is all of them) between two commits, e.g. a merge group's:
        GitHub's comparison lists the first COMPARE_FILES_LISTED files only."""
        comparison = self._repo.compare(base_sha, head_sha)
        files = list(comparison.files)
        return files, len(files) < COMPARE_FILES_LISTED

    @_operation("compare_commits", reads=True)
    def compare_commits(self, base_sha: str, head_sha: str) -> set[str]:
        """The commits between two commits (a merge group's: the queued pull requests' too)."""
        return {commit.sha for commit in self._repo.compare(base_sha, head_sha).commits}

    @_operation("changed_files", reads=True)
    def changed_files(self, pull) -> list:
        """The pull request's (or number's) files with their patches; PyGithub follows the Link
        headers page by page (100 a page, GitHub's maximum)."""
        number = int(getattr(pull, "number", pull))
        return list(PaginatedList(File, self._client.requester, f"{self._repo.url}/pulls/{number}/files", None))

    @_operation("review_state", reads=True)
    def review_state(self, number: int, *, head_sha: str, config_ref: str, config_path: str,
                     blobs: Iterable[tuple[str, str]] = (), tree: bool = False) -> review_query.ReviewState:
        """Everything a review reads but the file listing, in one GraphQL query (plus a page per
        100 older comments or threads, and a query per BLOBS_PER_QUERY more blobs); `tree`:
        the head's file list too, where the query's nesting reaches (state.tree)."""
        wanted = list(dict.fromkeys(blobs))
        first, rest = wanted[:BLOBS_PER_QUERY], wanted[BLOBS_PER_QUERY:]

        def ask(with_tree: bool) -> dict:
            return self._graphql(*review_query.query(
                self.owner, self.name, number, head_sha=head_sha, config=f"{config_ref}:{config_path}",
                app_id=self.app_id, blobs=first, tree=with_tree))
        try:
            data = ask(tree)
        except GithubException as error:
            if not tree or isinstance(error, (BadCredentialsException, UnknownObjectException)):
                raise
            # A tree too large for GitHub to answer in time must not cost the review: asked
            # again without it, the head is listed through REST when needed (Listing.tree).
            log.warning("review state query with the head's tree failed (%s); asking without it",
                        error.status)
            tree, data = False, ask(False)
        state = review_query.parse(data, first, fetch_text=self._blob_text, tree=tree)
        pull = ((data.get("data") or {}).get("repository") or {}).get("pullRequest") or {}
        for threads, name, into in ((False, "comments", state.conversation),
                                    (True, "reviewThreads", state.threads)):
            before = review_query.earlier_cursor(pull.get(name))
            while before:
                page, before = review_query.page_of(self._graphql(*review_query.more_query(
                    self.owner, self.name, number, threads=threads, before=before)), threads=threads)
                into[:0] = page  # older first
        after = review_query.later_cursor(((data.get("data") or {}).get("repository") or {}).get("open"))
        while after:
            more = self._graphql(*review_query.more_open_query(self.owner, self.name, after=after))
            connection = ((more.get("data") or {}).get("repository") or {}).get("open")
            state.open_pulls += review_query.open_pulls(connection)
            after = review_query.later_cursor(connection)
        if rest:
            state.blobs.update(self.blobs(rest))
        return state

    @_operation("blobs", reads=True)
    def blobs(self, wanted: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Blob | None]:
        """Contents of (ref, path) pairs: aliased GraphQL lookups, the blob API when truncated."""
        wanted = list(dict.fromkeys(wanted))
        found: dict[tuple[str, str], Blob | None] = {}
        for start in range(0, len(wanted), BLOBS_PER_QUERY):
            chunk = wanted[start:start + BLOBS_PER_QUERY]
            data = self._graphql(*_blob_query(self.owner, self.name, chunk))
            repository = (data.get("data") or {}).get("repository") or {}
            for index, key in enumerate(chunk):
                found[key] = looked_up(repository, index, fetch_text=self._blob_text)
        return found

    def _blob_text(self, oid: str) -> str:
        """A blob GraphQL truncated, read whole through the git blob API."""
        git_blob = self._repo.get_git_blob(oid)
        return base64.b64decode(git_blob.content).decode("utf-8", "replace")

    @_operation("tree", reads=True)
    def tree_paths(self, ref: str) -> tuple[list[str], bool]:
        """Paths of every file at a commit (one recursive tree call), and whether GitHub cut
        the listing short (over 100,000 entries or 7 MB)."""
        tree = self._repo.get_git_tree(ref, recursive=True)
        return [entry.path for entry in tree.tree if entry.type == "blob"], bool(tree.truncated)

    def file_text(self, ref: str, path: str) -> str | None:
        blob = self.blobs([(ref, path)]).get((ref, path))
        return blob.text if blob else None

    @_operation("shared_file", reads=True)
    def shared_file_text(self, full_name: str, path: str) -> str | None:
        """A file of another repository (an `_extends` base) at its default branch's exact ref."""
        other = RepoClient(self._client, full_name)
        try:
            branch = other._repo.default_branch  # GET /repos/{owner}/{repo}
        except GithubException as error:
            if error.status in (403, 404):  # missing, or not in this installation
                return None
            raise
        return other.file_text(f"refs/heads/{branch}", path)

    @_operation("histories", reads=True)
    def histories(self, paths: Iterable[str], ref: str,
                  limit: int) -> dict[str, list[tuple[str, str, Clock]]]:
        """Path -> (sha, ISO date, clock) of the newest `limit` (at most 100) commits on `ref`
        that touched it, each dated by GitHub's merge of its pull request where it had one;
        one GraphQL query per HISTORIES_PER_QUERY paths."""
        wanted, found = list(dict.fromkeys(paths)), {}
        for start in range(0, len(wanted), HISTORIES_PER_QUERY):
            chunk = wanted[start:start + HISTORIES_PER_QUERY]
            variables = {"owner": self.owner, "name": self.name, "ref": ref, "first": min(limit, 100),
                         **{f"p{index}": path for index, path in enumerate(chunk)}}
            query = HISTORY_QUERY.format(
                declarations=", ".join(f"$p{index}: String!" for index in range(len(chunk))),
                selections=" ".join(f"h{index}: history(path: $p{index}, first: $first) "
                                    f"{{ nodes {{ oid committedDate {LANDED} }} }}"
                                    for index in range(len(chunk))))
            data = self._graphql(query, variables)
            commit = ((data.get("data") or {}).get("repository") or {}).get("object") or {}
            for index, path in enumerate(chunk):
                nodes = (commit.get(f"h{index}") or {}).get("nodes") or []
                found[path] = [(node["oid"], *_landed(node)) for node in nodes if node]
        return found

    # --- check runs ----------------------------------------------------------------------------
    @_operation("find_check_run")
    def find_check_run(self, head_sha: str):
        """The App's own run on the commit: a workflow or another App may name one the same."""
        for run in self._repo.get_commit(head_sha).get_check_runs(check_name=CHECK_NAME):
            if run.app and run.app.id == self.app_id and run.name == CHECK_NAME:
                return run
        return None

    def start_check_run(self, head_sha: str, *, known=LOOK_UP) -> tuple[int, Verdict | None]:
        """The head's schema-review run (its id), created once and reused on every later pass,
        and the verdict it carried before, so a pass that cannot finish never downgrades it.
        `known` is the run as the review state query found it (None: there is none yet).

        A `failure` is left showing while the head is reviewed again (not set in progress): it
        is the last real verdict, and a retry or a give-up later still finds it there.
        """
        if known is LOOK_UP:
            found = self.find_check_run(head_sha)
            known = None if found is None else review_query.RunInfo(
                id=found.id, status=found.status, conclusion=found.conclusion,
                title=getattr(found.output, "title", None) or "",
                summary=getattr(found.output, "summary", None) or "", text=getattr(found.output, "text", None))
        if known is None:
            return self._create_check_run(head_sha), None
        before = None
        if known.status == "completed" and known.conclusion:
            before = Verdict(known.conclusion, known.title, known.summary, known.text)
        if before is None or before.conclusion != FAILURE:
            self._edit_check_run(known.id, {"status": "in_progress"})
        return known.id, before

    @_operation("create_check_run")
    def _create_check_run(self, head_sha: str) -> int:
        _headers, data = self._client.requester.requestJsonAndCheck(
            "POST", f"{self._repo.url}/check-runs",
            input={"name": CHECK_NAME, "head_sha": head_sha, "status": "in_progress"})
        return int(data["id"])

    @_operation("edit_check_run")
    def _edit_check_run(self, run_id: int, fields: dict) -> None:
        self._client.requester.requestJsonAndCheck(
            "PATCH", f"{self._repo.url}/check-runs/{int(run_id)}", input=fields)

    def complete_check_run(self, run, *, conclusion: str, title: str, summary: str,
                           text: str | None, annotations: list[dict], actions: list[dict] | None = None):
        """`run` is the id start_check_run returned (or a PyGithub CheckRun)."""
        run_id = run if isinstance(run, int) else run.id
        batches = [annotations[i:i + ANNOTATIONS_PER_REQUEST]
                   for i in range(0, len(annotations), ANNOTATIONS_PER_REQUEST)] or [[]]
        # A rejected update would leave the verdict unwritten: every body is fitted here.
        output = {"title": clip_title(title), "summary": clip(summary)}
        if text:
            output["text"] = clip(text)
        # Annotations accumulate across updates; the last request completes the run.
        for batch in batches[:-1]:
            self._edit_check_run(run_id, {"output": {**output, "annotations": batch}})
        extra = {"actions": actions} if actions is not None else {}
        self._edit_check_run(run_id, {"status": "completed", "conclusion": conclusion,
                                      "output": {**output, "annotations": batches[-1]}, **extra})

    # --- reviews and comments ------------------------------------------------------------------
    @_operation("create_review")
    def create_review(self, pull, *, head_sha: str, body: str, comments: list[dict]):
        comments = [{**c, "body": clip(c["body"])} for c in comments]
        _headers, data = self._client.requester.requestJsonAndCheck(
            "POST", f"{self._repo.url}/pulls/{int(pull.number)}/reviews",
            input={"commit_id": head_sha, "body": clip(body), "event": "COMMENT", "comments": comments})
        return data

    @_operation("create_file_comment")
    def create_file_comment(self, pull, *, head_sha: str, path: str, body: str):
        _headers, data = self._client.requester.requestJsonAndCheck(
            "POST", f"{self._repo.url}/pulls/{int(pull.number)}/comments",
            input={"body": clip(body), "commit_id": head_sha, "path": path, "subject_type": "file"})
        return data

    @_operation("edit_review_comment")
    def edit_review_comment(self, comment_id: int, body: str) -> None:
        self._client.requester.requestJsonAndCheck(
            "PATCH", f"{self._repo.url}/pulls/comments/{int(comment_id)}", input={"body": clip(body)})

    @_operation("review_comments", reads=True)
    def review_comments(self, number: int) -> list[review_query.Posted]:
        """The pull request's review comments that start a thread (the App's always do)."""
        return [_posted(c) for c in self._repo.get_pull(number).get_review_comments()
                if c.in_reply_to_id is None]

    # --- conversation and people (slash commands) ------------------------------------------
    @_operation("issue_comments")
    def issue_comments(self, number: int) -> list[review_query.Posted]:
        return [_posted(c) for c in self._repo.get_issue(number).get_comments()]

    @_operation("issue_comment", reads=True)
    def issue_comment(self, comment_id: int) -> dict | None:
        """One conversation comment as GitHub has it now; None when it was deleted."""
        try:
            _headers, data = self._client.requester.requestJsonAndCheck(
                "GET", f"{self._repo.url}/issues/comments/{int(comment_id)}")
        except GithubException as error:
            if error.status == 404:
                return None
            raise
        return data

    @_operation("comment")
    def comment(self, number: int, body: str):
        return self._repo.get_issue(number).create_comment(clip(body))

    @_operation("edit_comment")
    def edit_comment(self, comment_id: int, body: str) -> None:
        self._client.requester.requestJsonAndCheck(
            "PATCH", f"{self._repo.url}/issues/comments/{int(comment_id)}", input={"body": clip(body)})

    @_operation("react")
    def react(self, comment_id: int, content: str) -> None:
        self._client.requester.requestJsonAndCheck(
            "POST", f"{self._repo.url}/issues/comments/{int(comment_id)}/reactions", input={"content": content})

    @_operation("permission")
    def permission(self, username: str) -> tuple[str | None, str | None]:
        """(permission, role_name) of a user on this repository: the real access, not association."""
        _headers, data = self._client.requester.requestJsonAndCheck(
            "GET", f"{self._repo.url}/collaborators/{quote(username)}/permission")
        return data.get("permission"), data.get("role_name")

    @_operation("in_team")
    def in_team(self, team: str, username: str) -> bool:
        """`org/slug` or a slug of the repository owner's organisation; an active membership."""
        org, _, slug = team.rpartition("/")
        try:
            _headers, data = self._client.requester.requestJsonAndCheck(
                "GET", f"/orgs/{quote(org or self.owner)}/teams/{quote(slug)}/memberships/{quote(username)}")
        except GithubException as error:
            if error.status == 404:
                return False
            raise
        return data.get("state") == "active"

    @_operation("pull_commits", reads=True)
    def pull_commits(self, number: int) -> list[tuple[str, str | None, str | None]]:
        """(sha, author login, committer login) of the pull request's commits, oldest first, a
        page of 100 a request (GitHub lists 250 at most); None where GitHub links the commit's
        email to no account."""
        url, out = f"{self._repo.url}/pulls/{int(number)}/commits", []
        for page in range(1, -(-PULL_COMMITS_LISTED // 100) + 1):
            _headers, data = self._client.requester.requestJsonAndCheck(
                "GET", url, parameters={"per_page": 100, "page": page})
            out += [(item["sha"], (item.get("author") or {}).get("login"),
                     (item.get("committer") or {}).get("login")) for item in data]
            if len(data) < 100:
                break
        return out

    @_operation("minimize")
    def minimize(self, node_id: str) -> None:
        self._graphql(MINIMIZE, {"id": node_id})

    def _graphql(self, query: str, variables: dict) -> dict:
        _headers, data = self._client.requester.graphql_query(query, variables)
        return data


def _posted(comment) -> review_query.Posted:
    user = comment.user
    return review_query.Posted(id=comment.id, node_id=comment.node_id or "", body=comment.body or "",
                               login=user.login if user else "", is_bot=bool(user and user.type == "Bot"),
                               created_at=comment.created_at.isoformat() if comment.created_at else "",
                               edited=comment.updated_at != comment.created_at)


def _landed(commit: dict) -> tuple[str, Clock]:
    """When the commit reached the branch: the latest merge of a pull request that brought it
    (never a time in the author's favour), else the date its author gave it."""
    pulls = (commit.get("associatedPullRequests") or {}).get("nodes") or []
    merges = [(when, pull["mergedAt"]) for pull in pulls
              if pull and (when := parse_time(pull.get("mergedAt") or ""))]
    if merges:
        return max(merges)[1], Clock.MERGED
    return commit["committedDate"], Clock.COMMIT


def _blob_query(owner: str, name: str, chunk: list[tuple[str, str]]) -> tuple[str, dict]:
    """One query, one alias per file; expressions travel as variables, never spliced in."""
    variables = {"owner": owner, "name": name}
    declarations, selections = [], []
    for index, (ref, path) in enumerate(chunk):
        more, declared, selected = lookup(index, ref, path)
        variables.update(more)
        declarations += declared
        selections += selected
    return BLOB_QUERY.format(declarations=", ".join(declarations), selections=" ".join(selections)), variables


__all__ = ["GitHubApp", "RepoClient", "Blob", "CHECK_NAME", "GithubException"]
