"""GET /healthz (the process answers), /readyz (the queue is reachable), /metrics (Prometheus)."""
from __future__ import annotations

import logging

from flask import Blueprint, Response, current_app, jsonify

from bot.ambient import metrics as prometheus

log = logging.getLogger("schema_review.web")
blueprint = Blueprint("probes", __name__)

@blueprint.get("/healthz")
def healthz():
    return jsonify({"status": "ok"}), 200


@blueprint.get("/readyz")
def readyz():
    if "schema_review.dispatcher" not in current_app.extensions:  # registration mode: no App yet
        return jsonify({"status": "unavailable", "app": "not registered"}), 503
    ready = getattr(current_app.extensions["schema_review.dispatcher"], "ready", None)
    try:
        if ready is not None:
            ready()
    except Exception as error:  # a load balancer only needs the verdict; the log keeps the cause
        log.warning("queue unreachable", extra={"reason": type(error).__name__})
        return jsonify({"status": "unavailable", "queue": "unreachable"}), 503
    return jsonify({"status": "ready"}), 200


@blueprint.get("/metrics")
def metrics():
    return Response(prometheus.render(), mimetype=None, content_type=prometheus.CONTENT_TYPE)
