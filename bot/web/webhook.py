"""POST /webhook: size cap -> signature -> parse -> record and enqueue -> 202, in milliseconds."""
from __future__ import annotations

import enum
import json
import logging

from flask import Blueprint, current_app, jsonify, request

from bot.handlers.events import Work, classify
from bot.ambient.jobs import Admission, Job
from bot.ambient.metrics import DELIVERIES
from bot.web.signature import is_valid

log = logging.getLogger("schema_review.webhook")
blueprint = Blueprint("webhook", __name__)

# GitHub caps webhook payloads at 25 MB; anything larger is not from GitHub.
MAX_BODY_BYTES = 25 * 1024 * 1024
BAD_SIGNATURE = "missing or invalid X-Hub-Signature-256"
NOT_JSON = "body is not a JSON object"
TOO_LARGE = "payload larger than 25 MB"
DUPLICATE = "delivery {delivery} was already received"
NOT_AN_EVENT = "payload is not shaped like a {event} event"
# The `event` label of schema_review_deliveries_total is a closed vocabulary: the events GitHub
# sends an App, named only once the signature verified. A sender without the secret must not be
# able to add a single time series, whatever X-GitHub-Event says.
KNOWN_EVENTS = frozenset({
    "ping", "pull_request", "issue_comment", "check_run", "check_suite", "merge_group", "installation",
    "installation_repositories", "installation_target", "github_app_authorization", "meta",
    "pull_request_review", "pull_request_review_comment", "pull_request_review_thread", "push",
    "repository", "member", "membership", "organization", "team"})
UNVERIFIED_EVENT = "unverified"
OTHER_EVENT = "other"


class Outcome(str, enum.Enum):
    """How a delivery ended, as counted in schema_review_deliveries_total."""
    ACCEPTED = "accepted"
    DUPLICATE = "duplicate"
    IGNORED = "ignored"
    PING = "ping"
    TOO_LARGE = "too_large"
    BAD_SIGNATURE = "bad_signature"
    NOT_JSON = "not_json"


def _error(status: int, message: str, outcome: Outcome, *, verified: bool = True):
    _count(request.headers.get("X-GitHub-Event", "") if verified else UNVERIFIED_EVENT, outcome)
    return jsonify({"error": message}), status


def _count(event: str, outcome: Outcome) -> None:
    label = event if event in KNOWN_EVENTS or event == UNVERIFIED_EVENT else OTHER_EVENT
    DELIVERIES.inc(event=label, outcome=outcome.value)


@blueprint.post("/webhook")
def receive():
    if (request.content_length or 0) > MAX_BODY_BYTES:
        return _error(413, TOO_LARGE, Outcome.TOO_LARGE, verified=False)
    body = request.get_data(cache=False)
    if len(body) > MAX_BODY_BYTES:
        return _error(413, TOO_LARGE, Outcome.TOO_LARGE, verified=False)
    # Nothing is parsed, and GitHub is not called, before the signature checks out.
    if not is_valid(current_app.config["WEBHOOK_SECRET"], body, request.headers.get("X-Hub-Signature-256")):
        return _error(401, BAD_SIGNATURE, Outcome.BAD_SIGNATURE, verified=False)
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        payload = None
    if not isinstance(payload, dict):
        return _error(400, NOT_JSON, Outcome.NOT_JSON)
    event = request.headers.get("X-GitHub-Event", "")
    delivery = request.headers.get("X-GitHub-Delivery", "")[:100]
    if event == "ping":
        _count(event, Outcome.PING)
        return jsonify({"msg": "pong"}), 200
    try:
        decision = classify(event, payload)
    except (AttributeError, TypeError):  # signed, but not shaped like the event it names
        return _error(400, NOT_AN_EVENT.format(event=event[:40]), Outcome.NOT_JSON)
    extra = {"delivery": delivery, "event": event, "work": decision.work.value, "reason": decision.reason,
             "repository": Job(delivery, event, payload).repository}
    if decision.work is Work.IGNORE:
        _count(event, Outcome.IGNORED)
        log.info("delivery ignored", extra=extra)
        return jsonify({"accepted": False, "reason": decision.reason}), 200
    # The job is on disk (or in Redis) before GitHub hears 202; the review runs on a worker.
    admitted = current_app.extensions["schema_review.dispatcher"].submit(Job(delivery, event, payload))
    if admitted is Admission.DUPLICATE:
        _count(event, Outcome.DUPLICATE)
        log.info("duplicate delivery", extra=extra)
        return jsonify({"accepted": False, "reason": DUPLICATE.format(delivery=delivery)}), 200
    _count(event, Outcome.ACCEPTED)
    log.info("delivery accepted", extra=extra)
    return jsonify({"accepted": True, "reason": decision.reason}), 202
