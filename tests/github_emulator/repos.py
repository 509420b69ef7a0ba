"""Test-facing handles on an emulated repository and its pull requests."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from .diffs import FileDiff, diff_files
from .gitstore import GitStore

NO_SUCH_BRANCH = "branch {branch!r} does not exist in {repo} (commit to it first or pass base=)"


class Repo:
    """A repository backed by a bare git repo; `commit` is how tests push."""

    def __init__(self, root: Path, owner: str, name: str, *, repo_id: int,
                 installation_id: int, default_branch: str):
        self.owner, self.name = owner, name
        self.id = repo_id
        self.installation_id = installation_id
        self.default_branch = default_branch
        self.git = GitStore(root / owner / f"{name}.git")
        self.git.run("symbolic-ref", "HEAD", f"refs/heads/{default_branch}")

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"

    def commit(self, branch: str, files: dict[str, str | bytes | None], message: str = "Update", *,
               author_date: datetime | str | None = None, base: str | None = None,
               merged: tuple[str, ...] = (), by: str | None = None) -> str:
        """Commit `files` (None deletes a file) to `branch` and return the new sha.

        A new branch starts from `base` (default: the default branch); an empty repo's first
        commit has no parent. `merged` commits become further parents (a merge commit). `by` is
        the login that authored and committed it (default: octocat).
        """
        parent = self.git.branch_sha(branch)
        if parent is None and (base or self.git.branches()):
            parent = self.git.resolve(base or self.default_branch)
            if parent is None:
                raise ValueError(NO_SUCH_BRANCH.format(branch=base, repo=self.full_name))
        return self.git.commit(branch, files, message, parent=parent, author_date=author_date,
                               merged=merged, by=by)

    def sha(self, ref: str) -> str:
        # A pull request's sides are branches: a tag with a branch's name does not move them.
        sha = self.git.branch_sha(ref) or self.git.resolve(ref)
        if sha is None:
            raise ValueError(NO_SUCH_BRANCH.format(branch=ref, repo=self.full_name))
        return sha

    def read(self, ref: str, path: str) -> bytes | None:
        found = self.git.blob_at(ref, path)
        return found[1] if found else None


@dataclass
class PullRequest:
    """An open pull request; head/base shas follow their branches like on GitHub."""
    repo: Repo
    number: int
    head: str
    base: str
    title: str
    user: str
    body: str = ""
    created_at: str = ""
    state: str = "open"
    draft: bool = False
    labels: list[str] = field(default_factory=list)
    id: int = 0
    # Set by a merge (GitHubEmulator.merge_pull): GitHub's time, the commit it made, and the
    # commits it brought to the base (each is then associated with this pull request).
    merged_at: str | None = None
    merge_commit_sha: str | None = None
    landed: tuple[str, ...] = ()
    # The base branch's commit when it merged: GitHub keeps showing it (and the files) after.
    merged_base: str | None = None

    @property
    def merged(self) -> bool:
        return self.merged_at is not None

    @property
    def graphql_state(self) -> str:
        return "MERGED" if self.merged else self.state.upper()

    @property
    def head_sha(self) -> str:
        return self.repo.sha(self.head)

    @property
    def base_sha(self) -> str:
        return self.merged_base or self.repo.sha(self.base)

    @property
    def merge_base(self) -> str:
        return self.repo.git.merge_base(self.base_sha, self.head_sha) or self.base_sha

    def files(self, head_sha: str | None = None) -> list[FileDiff]:
        """The PR's files as GitHub lists them: merge base (three-dot) diff to the head."""
        head_sha = head_sha or self.head_sha
        base = self.repo.git.merge_base(self.base_sha, head_sha) or self.base_sha
        return diff_files(self.repo.git, base, head_sha)

    def commits(self) -> list[str]:
        """Commit shas on the head branch not on the base, oldest first (as GitHub lists them)."""
        return list(reversed(self.repo.git.log(self.head_sha, exclude=self.base_sha)))
