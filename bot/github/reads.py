"""What a review reads from a repository: pull requests, changed files, versions, trees, histories."""
from __future__ import annotations

import base64
import logging
from typing import Iterable

from github import BadCredentialsException, GithubException, UnknownObjectException
from github.File import File
from github.PaginatedList import PaginatedList

from bot.github import review_query
from bot.github.blobs import Blob, looked_up, lookup
from bot.github.calls import RepoBase, operation
from bot.lifecycle.since import Clock, parse_time

log = logging.getLogger("schema_review.github")

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
# With it, the version the base branch held just before that merge (the merge's first parent):
# `history(path:)` follows whichever parent of a merge holds the same file, and so can skip
# versions the base branch itself held (a branch that merged it with `-s ours`).
LANDED = ("associatedPullRequests(first: 5) {{ nodes {{ mergedAt mergeCommit {{ parents(first: 1) "
          "{{ nodes {{ history(path: $p{index}, first: 1) {{ nodes {{ oid }} }} }} }} }} }} }}")
HISTORY_QUERY = """query($owner: String!, $name: String!, $ref: String!, $first: Int!, {declarations}) {{
  repository(owner: $owner, name: $name) {{ object(expression: $ref) {{ ... on Commit {{ {selections} }} }} }}
}}"""


class RepoReads(RepoBase):
    @operation("pull", reads=True)
    def pull(self, number: int):
        return self._repo.get_pull(number)

    @operation("open_pulls", reads=True)
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

    @operation("compare_files", reads=True)
    def compare_files(self, base_sha: str, head_sha: str) -> tuple[list, bool]:
        """(files, whether that is all of them) between two commits, e.g. a merge group's:
        GitHub's comparison lists the first COMPARE_FILES_LISTED files only."""
        comparison = self._repo.compare(base_sha, head_sha)
        files = list(comparison.files)
        return files, len(files) < COMPARE_FILES_LISTED

    @operation("compare_commits", reads=True)
    def compare_commits(self, base_sha: str, head_sha: str) -> set[str]:
        """The commits between two commits (a merge group's: the queued pull requests' too)."""
        return {commit.sha for commit in self._repo.compare(base_sha, head_sha).commits}

    @operation("changed_files", reads=True)
    def changed_files(self, pull) -> list:
        """The pull request's (or number's) files with their patches; PyGithub follows the Link
        headers page by page (100 a page, GitHub's maximum)."""
        number = int(getattr(pull, "number", pull))
        return list(PaginatedList(File, self._client.requester, f"{self._repo.url}/pulls/{number}/files", None))

    @operation("review_state", reads=True)
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

    @operation("blobs", reads=True)
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

    @operation("tree", reads=True)
    def tree_paths(self, ref: str) -> tuple[list[str], bool]:
        """Paths of every file at a commit (one recursive tree call), and whether GitHub cut
        the listing short (over 100,000 entries or 7 MB)."""
        tree = self._repo.get_git_tree(ref, recursive=True)
        return [entry.path for entry in tree.tree if entry.type == "blob"], bool(tree.truncated)

    def file_text(self, ref: str, path: str) -> str | None:
        blob = self.blobs([(ref, path)]).get((ref, path))
        return blob.text if blob else None

    @operation("shared_file", reads=True)
    def shared_file_text(self, full_name: str, path: str) -> str | None:
        """A file of another repository (an `_extends` base) at its default branch's exact ref."""
        other = type(self)(self._client, full_name)  # the whole client, for another repository
        try:
            branch = other._repo.default_branch  # GET /repos/{owner}/{repo}
        except GithubException as error:
            if error.status in (403, 404):  # missing, or not in this installation
                return None
            raise
        return other.file_text(f"refs/heads/{branch}", path)

    @operation("histories", reads=True)
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
                                    f"{{ nodes {{ oid committedDate {LANDED.format(index=index)} }} }}"
                                    for index in range(len(chunk))))
            data = self._graphql(query, variables)
            commit = ((data.get("data") or {}).get("repository") or {}).get("object") or {}
            for index, path in enumerate(chunk):
                nodes = (commit.get(f"h{index}") or {}).get("nodes") or []
                found[path] = _main_line([(node["oid"], *_landed(node)) for node in nodes if node])
        return found


def _landed(commit: dict) -> tuple[str, Clock, str | None]:
    """When the commit reached the branch: the latest merge of a pull request that brought it
    (never a time in the author's favour), else the date its author gave it; and the commit of
    the version the branch held before that merge (None: unknown, or the file was new)."""
    pulls = (commit.get("associatedPullRequests") or {}).get("nodes") or []
    merges = [(when, pull["mergedAt"], _before(pull)) for pull in pulls
              if pull and (when := parse_time(pull.get("mergedAt") or ""))]
    if merges:
        _when, merged_at, before = max(merges, key=lambda merge: merge[0])
        return merged_at, Clock.MERGED, before
    return commit["committedDate"], Clock.COMMIT, None


def _before(pull: dict) -> str | None:
    parents = ((pull.get("mergeCommit") or {}).get("parents") or {}).get("nodes") or []
    versions = ((parents[0] or {}).get("history") or {}).get("nodes") or [] if parents else []
    return versions[0].get("oid") if versions and versions[0] else None


def _main_line(versions: list[tuple[str, str, Clock, str | None]]) -> list[tuple[str, str, Clock]]:
    """The versions, cut after the first one whose merge followed a side branch past versions the
    base branch held: what the branch said before it is unknown, so no run of versions (and no
    window) reaches back past it. A cut history only ever dates an element later."""
    listed = {sha for sha, *_rest in versions}
    for index, (_sha, _date, _clock, before) in enumerate(versions):
        if before is not None and before not in listed:
            versions = versions[:index + 1]
            break
    return [(sha, date, clock) for sha, date, clock, _before in versions]


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
