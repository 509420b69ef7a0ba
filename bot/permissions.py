"""Whether a commenter may override the gate, from their real repository permission."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .config import OverridePolicy, Permission

OWN_PULL = ("you opened this pull request, and this repository does not let authors override "
            "their own (`override.allow_author` in `.github/schema-review.yml`)")
TOO_LOW = ("overriding needs at least `{needed}` permission on this repository and you have "
           "`{actual}`; ask a maintainer, or have an admin add you to `override.allow_users`")


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
