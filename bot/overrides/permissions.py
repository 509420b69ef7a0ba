"""Whether a commenter may override the gate, from their real repository permission."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from bot.config.config import OverridePolicy, Permission
from bot.github.contributions import PULL_COMMITS_LISTED, Contributions
from bot.render.escape import code

OWN_PULL = ("you opened this pull request, and this repository does not let authors override "
            "their own (`override.allow_author` in `.github/schema-review.yml`)")
TOO_LOW = ("overriding needs at least `{needed}` permission on this repository and you have "
           "`{actual}`; ask a maintainer, or have an admin add you to `override.allow_users`")

OWN_CHANGE = ("you {did} {sha} in this pull request, and this repository asks that its breaking "
              "changes be accepted by someone who did not write or push them "
              "(`override.allow_committers` in `.github/schema-review.yml`); please ask another "
              "maintainer")
UNLISTED = ("this pull request has {total:,} commits and GitHub lists only the first {listed:,}, so "
            "I cannot tell whether you wrote or pushed one of them (`override.allow_committers` in "
            "`.github/schema-review.yml`); please ask another maintainer, or split the pull request")

UNEXPLAINED = ("I have no record of who pushed {sha} to this pull request (a push "
               "whose delivery I never received, or one made before I was installed), so I cannot "
               "tell whether it was you. If a push just happened, wait for its review and comment "
               "again; otherwise close and reopen the pull request (its reopener answers for the head "
               "and may not override it) and ask a maintainer who did not, or set "
               "`override.allow_committers` in `.github/schema-review.yml`")


@dataclass(frozen=True)
class Decision:
    allowed: bool
    reason: str = ""


def level(permission: str | None, role_name: str | None) -> Permission | None:
    """The effective level: role_name names maintain/triage and custom roles' base is permission."""
    for value in (role_name, permission):
        try:
            return Permission((value or "").lower())
        except ValueError:
            continue
    return None


def decide(user: str, *, author: str, policy: OverridePolicy, permission: Permission | None,
           in_team: Callable[[str], bool]) -> Decision:
    """Listed users and team members may; otherwise the minimum permission decides.

    `author_association` is never consulted: it says how someone relates to the repository,
    not what they may do (an org MEMBER may have only read access).
    """
    if user.lower() == author.lower() and not policy.allow_author:
        return Decision(False, OWN_PULL)
    if user.lower() in {u.lower() for u in policy.allow_users}:
        return Decision(True)
    if any(in_team(team) for team in policy.allow_teams):
        return Decision(True)
    if permission is not None and permission.rank >= policy.min_permission.rank:
        return Decision(True)
    return Decision(False, TOO_LOW.format(needed=policy.min_permission.value,
                                          actual=permission.value if permission else "none"))


def uninvolved(user: str, *, author: str, policy: OverridePolicy,
               contributions: Callable[[], Contributions]) -> Decision:
    """Whether the overrider made none of the pull request's commits or pushes (unless the
    config allows it; the opener's own change is `allow_author`'s to decide, in `decide`).
    `contributions` is asked only when needed: it costs requests. A commit list GitHub cut
    short, or a head the push log cannot explain, cannot clear anyone (the gate fails closed)."""
    if policy.allow_committers or user.lower() == author.lower():
        return Decision(True)
    found = contributions()
    made = found.by(user)
    if made is not None:
        return Decision(False, OWN_CHANGE.format(did=made.did, sha=code(made.sha[:7])))
    if not found.complete:
        return Decision(False, UNLISTED.format(total=found.total, listed=PULL_COMMITS_LISTED))
    if found.unexplained:  # pushed by someone unknown, who may be this user: fail closed
        return Decision(False, UNEXPLAINED.format(sha=code(found.unexplained[:7])))
    return Decision(True)
