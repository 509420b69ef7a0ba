"""Which webhook deliveries the App acts on, decided from the event name and payload alone."""
from __future__ import annotations

import enum
from dataclasses import dataclass


class Work(str, enum.Enum):
    REVIEW = "review"  # run the review of a pull request's head
    COMMAND = "command"  # a /schema-... comment on a pull request
    ACTION = "action"  # the check run's "Override…" button
    MERGED = "merged"  # a merged pull request: open or close migrations' tracking issues
    MIGRATED = "migrated"  # /schema-migrated in an issue (a migration's tracking issue)
    IGNORE = "ignore"


MIGRATED_COMMAND = "/schema-migrated"  # the one command of an issue (bot/handlers/migrated.py)
REVIEW_ACTIONS = {"opened", "synchronize", "reopened", "ready_for_review"}


@dataclass(frozen=True)
class Decision:
    work: Work
    reason: str


def classify(event: str, payload: dict) -> Decision:
    """Guard clauses first: each says why a delivery is not worth a job."""
    action = payload.get("action")
    if event == "pull_request":
        if action in REVIEW_ACTIONS:
            return Decision(Work.REVIEW, f"pull_request.{action}")
        if action == "edited" and "base" in (payload.get("changes") or {}):
            return Decision(Work.REVIEW, "pull_request.edited (base changed)")
        if action == "closed" and (payload.get("pull_request") or {}).get("merged") is True:
            return Decision(Work.MERGED, "pull_request.closed (merged): migrations' tracking issues")
        return Decision(Work.IGNORE, f"pull_request.{action} does not change what is reviewed")
    if event == "check_run" and action == "rerequested":
        return Decision(Work.REVIEW, "check_run.rerequested")
    if event == "check_run" and action == "requested_action":
        identifier = (payload.get("requested_action") or {}).get("identifier")
        if identifier == "override-help":
            return Decision(Work.ACTION, "check_run.requested_action override-help")
        return Decision(Work.IGNORE, f"unknown requested action {identifier!r}")
    if event == "check_suite" and action == "rerequested":
        return Decision(Work.REVIEW, "check_suite.rerequested")
    if event == "merge_group" and action == "checks_requested":
        # With a merge queue, a required check must report on the group's commit too.
        return Decision(Work.REVIEW, "merge_group.checks_requested")
    if event == "issue_comment":
        return _comment(payload)
    return Decision(Work.IGNORE, f"{event}.{action} is not handled")


def _comment(payload: dict) -> Decision:
    action = payload.get("action")
    if action != "created":
        # An edited comment must not grant what its original text did not.
        return Decision(Work.IGNORE, f"issue_comment.{action} never triggers a command")
    sender = payload.get("sender") or {}
    comment_user = (payload.get("comment") or {}).get("user") or {}
    if sender.get("type") == "Bot" or comment_user.get("type") == "Bot":
        return Decision(Work.IGNORE, "comments from bots (this App included) never trigger commands")
    body = ((payload.get("comment") or {}).get("body") or "").lstrip()
    if not (payload.get("issue") or {}).get("pull_request"):
        if body.startswith(MIGRATED_COMMAND):
            return Decision(Work.MIGRATED, "issue_comment.created with /schema-migrated on an issue")
        return Decision(Work.IGNORE, "comment is on an issue, not a pull request")
    if not body.startswith("/schema-"):
        return Decision(Work.IGNORE, "comment is not a /schema- command")
    return Decision(Work.COMMAND, "issue_comment.created with a /schema- command")
