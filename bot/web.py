"""create_app: settings read once, job dispatcher (durable queue) wired, JSON error handlers."""
from __future__ import annotations

import logging
from typing import Callable, Mapping

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from . import probes
from .jobs import Job
from .logs import configure_logging
from .metrics import QUEUE_DEPTH
from .runtime import Runtime
from .settings import Settings
from .webhook import MAX_BODY_BYTES, blueprint

log = logging.getLogger("schema_review.web")


def create_app(settings: Settings | None = None, *, environ: Mapping[str, str] | None = None,
               handle: Callable[[Job], None] | None = None, dispatcher=None,
               runtime: Runtime | None = None) -> Flask:
    """The WSGI app. Production builds everything from the environment; tests inject pieces.

    The embedded queue's worker threads are not started here (a fork would lose them):
    gunicorn.conf.py starts them in each worker with `start_workers(app)`.
    """
    settings = settings or Settings.from_environ(environ)
    configure_logging()
    app = Flask("schema_review")
    app.config.update(WEBHOOK_SECRET=settings.webhook_secret, MAX_CONTENT_LENGTH=MAX_BODY_BYTES)
    if dispatcher is None:
        from .queue.wiring import build_dispatcher
        dispatcher = build_dispatcher(settings, runtime or Runtime.from_environ(environ), handle=handle)
    if hasattr(dispatcher, "depth"):
        QUEUE_DEPTH.source = dispatcher.depth
    app.extensions["schema_review.dispatcher"] = dispatcher
    app.register_blueprint(blueprint)
    app.register_blueprint(probes.blueprint)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected_error)
    return app


def start_workers(app: Flask) -> None:
    """Start the embedded queue's worker threads in this process (a no-op with Redis)."""
    start = getattr(app.extensions["schema_review.dispatcher"], "start", None)
    if start is not None:
        start()


def stop_workers(app: Flask) -> None:
    stop = getattr(app.extensions["schema_review.dispatcher"], "stop", None)
    if stop is not None:
        stop()


def _http_error(error: HTTPException):
    return jsonify({"error": error.description or error.name}), error.code


def _unexpected_error(error: Exception):
    log.exception("unhandled error in request")
    return jsonify({"error": "internal error"}), 500
