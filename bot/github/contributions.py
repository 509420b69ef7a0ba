"""Who made a pull request's commits: like GitHub's "require approval of the most recent
reviewable push", an override must come from someone who did not write or push its change.

Two sources, both GitHub's word: the pull request's commit list (each commit's author and
committer, as GitHub links their emails to accounts; a commit can name anyone's email, so this
alone proves nothing about who pushed it) and the App's push log, where each signed `synchronize`
delivery names its sender, the account that pushed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

PULL_COMMITS_LISTED = 250  # GitHub lists a pull request's first 250 commits, no more


@dataclass(frozen=True)
class Contribution:
    did: str  # "authored or committed", "pushed"
    sha: str


@dataclass(frozen=True)
class Contributions:
    commits: tuple[tuple[str, str | None, str | None], ...]  # (sha, author login, committer login)
    pushes: tuple[tuple[str, str], ...]  # (head sha, pusher login) from the push log
    total: int  # the pull request's commit count

    @property
    def complete(self) -> bool:
        """Whether every commit was listed (GitHub stops at PULL_COMMITS_LISTED)."""
        return len(self.commits) >= self.total

    def by(self, user: str) -> Contribution | None:
        """The first push, else the first commit, that `user` made (logins ignore case)."""
        login = user.lower()
        for head, pusher in self.pushes:
            if pusher.lower() == login:
                return Contribution("pushed", head)
        for sha, *people in self.commits:
            if login in {person.lower() for person in people if person}:
                return Contribution("authored or committed", sha)
        return None


def of_pull(repo, pull, pushes: Sequence[tuple[str, ...]]) -> Contributions:
    """The pull request's commits (one request per 100) and the logged pushes' senders."""
    pushers = tuple((entry[1], entry[2]) for entry in pushes if len(entry) > 2 and entry[2])
    return Contributions(commits=tuple(repo.pull_commits(pull.number)), pushes=pushers,
                         total=int(getattr(pull, "commits", 0) or 0))
