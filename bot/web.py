"""create_app: settings read once, GitHub client and job dispatcher wired, JSON error handlers."""
from __future__ import annotations

import logging
from typing import Callable, Mapping

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from .jobs import Job, ThreadDispatcher
from .logs import configure_logging
from .settings import Settings
from .webhook import MAX_BODY_BYTES, blueprint

log = logging.getLogger("schema_review.web")


def create_app(settings: Settings | None = None, *, environ: Mapping[str, str] | None = None,
               handle: Callable[[Job], None] | None = None, dispatcher=None) -> Flask:
    """The WSGI app. Production builds everything from the environment; tests inject pieces."""
    settings = settings or Settings.from_environ(environ)
    configure_logging()
    app = Flask("schema_review")
    app.config.update(WEBHOOK_SECRET=settings.webhook_secret, MAX_CONTENT_LENGTH=MAX_BODY_BYTES)
    if dispatcher is None:
        if handle is None:
            from .github import GitHubApp
            from .handlers import handle_job
            github = GitHubApp(settings)
            handle = lambda job: handle_job(job, github=github)  # noqa: E731
        dispatcher = ThreadDispatcher(handle)
    app.extensions["schema_review.dispatcher"] = dispatcher
    app.register_blueprint(blueprint)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected_error)
    return app


def _http_error(error: HTTPException):
    return jsonify({"error": error.description or error.name}), error.code


def _unexpected_error(error: Exception):
    log.exception("unhandled error in request")
    return jsonify({"error": "internal error"}), 500
