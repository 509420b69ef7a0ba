"""What a job is about: which jobs must not run together, and which push it reviews."""
from __future__ import annotations

from dataclasses import dataclass

from ..events import Work, classify
from ..jobs import Job


@dataclass(frozen=True)
class Subject:
    lock: str  # jobs with the same key run one at a time: "acme/x#12", or "acme/x@<sha>" without a PR
    pull: str | None = None  # set for pushes: a newer push to this pull request supersedes the job
    head: str | None = None
    version: str = ""  # pull_request.updated_at: a late redelivery of an older push changes nothing


def subject_of(job: Job) -> Subject:
    payload, repo = job.payload, job.repository
    if job.event == "pull_request":
        pull = payload.get("pull_request") or {}
        key = f"{repo}#{pull.get('number')}"
        is_push = classify(job.event, payload).work is Work.REVIEW
        return Subject(key, pull=key if is_push else None, head=(pull.get("head") or {}).get("sha"),
                       version=str(pull.get("updated_at") or ""))
    if job.event == "issue_comment":
        return Subject(f"{repo}#{(payload.get('issue') or {}).get('number')}")
    holder = payload.get(job.event) or {}
    pulls = holder.get("pull_requests") or (holder.get("check_suite") or {}).get("pull_requests") or []
    if pulls:
        return Subject(f"{repo}#{pulls[0].get('number')}")
    return Subject(f"{repo}@{holder.get('head_sha')}")
