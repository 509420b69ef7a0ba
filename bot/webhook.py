"""POST /webhook: size cap -> signature -> parse -> enqueue; GET /healthz."""
from __future__ import annotations

import json
import logging

from flask import Blueprint, current_app, jsonify, request

from .events import Work, classify
from .jobs import Job
from .signature import is_valid

log = logging.getLogger("schema_review.webhook")
blueprint = Blueprint("webhook", __name__)

# GitHub caps webhook payloads at 25 MB; anything larger is not from GitHub.
MAX_BODY_BYTES = 25 * 1024 * 1024
BAD_SIGNATURE = "missing or invalid X-Hub-Signature-256"
NOT_JSON = "body is not a JSON object"
TOO_LARGE = "payload larger than 25 MB"


def _error(status: int, message: str):
    return jsonify({"error": message}), status


@blueprint.post("/webhook")
def receive():
    if (request.content_length or 0) > MAX_BODY_BYTES:
        return _error(413, TOO_LARGE)
    body = request.get_data(cache=False)
    if len(body) > MAX_BODY_BYTES:
        return _error(413, TOO_LARGE)
    # Nothing is parsed, and GitHub is not called, before the signature checks out.
    if not is_valid(current_app.config["WEBHOOK_SECRET"], body, request.headers.get("X-Hub-Signature-256")):
        return _error(401, BAD_SIGNATURE)
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        payload = None
    if not isinstance(payload, dict):
        return _error(400, NOT_JSON)
    event = request.headers.get("X-GitHub-Event", "")
    delivery = request.headers.get("X-GitHub-Delivery", "")
    if event == "ping":
        return jsonify({"msg": "pong"}), 200
    decision = classify(event, payload)
    log.info("delivery", extra={"delivery": delivery, "event": event, "work": decision.work.value,
                                "reason": decision.reason})
    if decision.work is Work.IGNORE:
        return jsonify({"accepted": False, "reason": decision.reason}), 200
    current_app.extensions["schema_review.dispatcher"].submit(Job(delivery, event, payload))
    return jsonify({"accepted": True, "reason": decision.reason}), 202


@blueprint.get("/healthz")
def healthz():
    return jsonify({"status": "ok"}), 200
