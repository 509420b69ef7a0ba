"""What a job is about: which jobs must not run together, and which push it reviews."""
from __future__ import annotations

from dataclasses import dataclass

from bot.handlers.events import Work, classify
from bot.local.pull_event import SHA
from bot.ambient.jobs import Job

# Deliveries that may show a head nobody else's delivery did (a push while the pull request was
# closed or before it was opened has no `synchronize`): their sender is logged with that head.
SENDER_LOGGED = {"opened", "reopened", "synchronize", "edited"}


@dataclass(frozen=True)
class Subject:
    lock: str  # jobs with the same key run one at a time: "acme/x#12", or "acme/x@<sha>" without a PR
    pull: str | None = None  # set for pushes: a newer push to this pull request supersedes the job
    head: str | None = None
    version: str = ""  # pull_request.updated_at: a late redelivery of an older push changes nothing
    pusher: str = ""  # the sender of a delivery that may bring a new head (bot/github/pushers.py)
    action: str = ""  # which one: opened, reopened, synchronize, edited (the base)
    before: str = ""  # a `synchronize`'s previous head (a commit name): it supersedes, and chains the log


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _replaced(payload: dict, head) -> str:
    """A `synchronize`'s previous head, if the body names it as a commit and its `after` is the
    pull request's head (the body is untrusted: anything else is no link in the push chain)."""
    before, after = payload.get("before"), payload.get("after", head)
    if isinstance(head, str) and SHA.fullmatch(head) and after == head \
            and isinstance(before, str) and SHA.fullmatch(before):
        return before
    return ""


def subject_of(job: Job) -> Subject:
    """Shape-tolerant: a payload without the expected keys still gets a (coarser) subject."""
    payload, repo = job.payload, job.repository
    if job.event == "pull_request":
        pull = _dict(payload.get("pull_request"))
        key = f"{repo}#{pull.get('number')}"
        is_push = classify(job.event, payload).work is Work.REVIEW
        head = _dict(pull.get("head")).get("sha")
        action = payload.get("action") if is_push and payload.get("action") in SENDER_LOGGED else ""
        pusher = _dict(payload.get("sender")).get("login") if action else ""
        return Subject(key, pull=key if is_push else None, head=head if isinstance(head, str) else None,
                       version=str(pull.get("updated_at") or ""),
                       pusher=pusher if isinstance(pusher, str) else "", action=action or "",
                       before=_replaced(payload, head) if action == "synchronize" else "")
    if job.event == "issue_comment":
        return Subject(f"{repo}#{_dict(payload.get('issue')).get('number')}")
    holder = _dict(payload.get(job.event))
    pulls = holder.get("pull_requests") or _dict(holder.get("check_suite")).get("pull_requests")
    if isinstance(pulls, list) and pulls:
        return Subject(f"{repo}#{_dict(pulls[0]).get('number')}")
    return Subject(f"{repo}@{holder.get('head_sha')}")
