"""Which installation, repository, pull request and head commit a review delivery is about."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    installation_id: int
    repository: str
    default_branch: str
    head_sha: str
    pull_number: int | None  # None: a check re-run on a commit no open pull request carries


def review_target(event: str, payload: dict) -> Target | None:
    """None when the payload lacks what a review needs (then there is nothing to report on)."""
    installation = (payload.get("installation") or {}).get("id")
    repository = payload.get("repository") or {}
    if not installation or not repository.get("full_name"):
        return None
    if event == "pull_request":
        pull = payload.get("pull_request") or {}
        head, number = (pull.get("head") or {}).get("sha"), pull.get("number")
    else:
        # check_run / check_suite re-requests: the head commit and the pull requests it belongs to
        holder = payload.get(event) or {}
        head = holder.get("head_sha")
        pulls = holder.get("pull_requests") or (holder.get("check_suite") or {}).get("pull_requests") or []
        number = pulls[0].get("number") if pulls else None
    if not head:
        return None
    return Target(installation_id=int(installation), repository=repository["full_name"],
                  default_branch=repository.get("default_branch") or "main", head_sha=head,
                  pull_number=number)
