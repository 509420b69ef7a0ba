"""Which installation, repository, pull request and head commit a review delivery is about."""
from __future__ import annotations

import re
from dataclasses import dataclass

# GitHub names a merge group's branch gh-readonly-queue/<base>/pr-<number>-<sha>.
QUEUED_PULL = re.compile(r"/pr-(\d+)-[0-9a-f]{40}$")


@dataclass(frozen=True)
class Target:
    installation_id: int
    repository: str
    default_branch: str
    head_sha: str
    pull_number: int | None  # None: a check re-run whose payload names no pull request (forks)
    # A merge queue's group: its head is reviewed against this base; pull_number is the queued PR.
    group_base: str | None = None
    # The base commit the event named (pull_request events): the review state query fetches the
    # base versions with the head's at once; a base that moved since costs one more query.
    base_sha: str | None = None


def review_target(event: str, payload: dict) -> Target | None:
    """None when the payload lacks what a review needs (then there is nothing to report on)."""
    installation = (payload.get("installation") or {}).get("id")
    repository = payload.get("repository") or {}
    if not installation or not repository.get("full_name"):
        return None
    group_base = base_sha = None
    if event == "pull_request":
        pull = payload.get("pull_request") or {}
        head, number = (pull.get("head") or {}).get("sha"), pull.get("number")
        base_sha = (pull.get("base") or {}).get("sha")
    elif event == "merge_group":
        group = payload.get("merge_group") or {}
        head, group_base = group.get("head_sha"), group.get("base_sha")
        queued = QUEUED_PULL.search(str(group.get("head_ref") or ""))
        number = int(queued.group(1)) if queued else None
        if not group_base:
            return None
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
                  pull_number=number, group_base=group_base,
                  base_sha=base_sha if isinstance(base_sha, str) else None)
