"""Who made a pull request's commits: like GitHub's "require approval of the most recent
reviewable push", an override must come from someone who did not write or push its change.

Two sources, both GitHub's word: the pull request's commit list (each commit's author and
committer, as GitHub links their emails to accounts; a commit can name anyone's email, so this
alone proves nothing about who pushed it) and the App's push log, where each signed delivery that
may bring a head names its sender (bot/github/pushers.py). A head the log cannot explain was pushed by
someone unknown, who could be anyone.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .pushers import explain

PULL_COMMITS_LISTED = 250  # GitHub lists a pull request's first 250 commits, no more


@dataclass(frozen=True)
class Contribution:
    did: str  # "authored or committed", "pushed"
    sha: str


@dataclass(frozen=True)
class Contributions:
    commits: tuple[tuple[str, str | None, str | None], ...]  # (sha, author login, committer login)
    pushes: tuple[tuple[str, ...], ...]  # (head sha, login[, what they did]) from the push log
    total: int  # the pull request's commit count
    unexplained: str | None = None  # the head, when the push log cannot say who pushed it

    @property
    def complete(self) -> bool:
        """Whether every commit was listed (GitHub stops at PULL_COMMITS_LISTED)."""
        return len(self.commits) >= self.total

    def by(self, user: str) -> Contribution | None:
        """The first push, else the first commit, that `user` made (logins ignore case)."""
        login = user.lower()
        for head, pusher, *did in self.pushes:
            if pusher.lower() == login:
                return Contribution(did[0] if did else "pushed", head)
        for sha, *people in self.commits:
            if login in {person.lower() for person in people if person}:
                return Contribution("authored or committed", sha)
        return None


def of_pull(repo, pull, pushes: Sequence[tuple[str, ...]], *, heads: Sequence[str] = ()) -> Contributions:
    """The pull request's commits (one request per 100), the logged pushes' senders, and the
    first of `heads` (those an override is bound to; else the current one) the log cannot explain."""
    log = explain(pushes)
    unexplained = [sha for sha in heads or (pull.head.sha,) if sha not in log.explained]
    return Contributions(commits=tuple(repo.pull_commits(pull.number)),
                         pushes=tuple((sha, login, did) for did, sha, login in log.responsible),
                         total=int(getattr(pull, "commits", 0) or 0),
                         unexplained=unexplained[0] if unexplained else None)
