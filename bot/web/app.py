"""create_app: settings read once, job dispatcher (durable queue) wired, JSON error handlers."""
from __future__ import annotations

import logging
import os
from typing import Callable, Mapping

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from bot.web import probes
from bot.config.envfile import load_env_file
from bot.ambient.jobs import Job
from bot.ambient.logs import configure_logging
from bot.ambient.metrics import QUEUE_DEPTH
from bot.web.registration import pages, status
from bot.web.registration.manifest import SetupSettings
from bot.queue.runtime import Runtime, read_environment
from bot.config.settings import Settings, unregistered
from bot.web.webhook import MAX_BODY_BYTES, blueprint

log = logging.getLogger("schema_review.web")


def create_app(settings: Settings | None = None, *, environ: Mapping[str, str] | None = None,
               handle: Callable[[Job], None] | None = None, dispatcher=None,
               runtime: Runtime | None = None) -> Flask:
    """The WSGI app. Production builds everything from the environment; tests inject pieces.
    It records and queues deliveries; `python -m bot.worker` runs the jobs (gunicorn.conf.py
    starts one beside the server for the local SQLite queue)."""
    if settings is None and environ is None:
        load_env_file()  # the registration page's .env, under whatever the environment sets
    if settings is None and unregistered(os.environ if environ is None else environ):
        return create_registration_app(environ)
    if settings is None and dispatcher is None and runtime is None:
        settings, runtime = read_environment(environ)  # SettingsError names every problem at once
    settings = settings or Settings.from_environ(environ)
    configure_logging()
    app = Flask("schema_review")
    app.config.update(WEBHOOK_SECRET=settings.webhook_secret, MAX_CONTENT_LENGTH=MAX_BODY_BYTES)
    if dispatcher is None:
        from bot.queue.wiring import build_dispatcher
        dispatcher = build_dispatcher(settings, runtime or Runtime.from_environ(environ), handle=handle)
    if hasattr(dispatcher, "depth"):
        QUEUE_DEPTH.source = dispatcher.depth
    app.extensions["schema_review.dispatcher"] = dispatcher
    app.register_blueprint(blueprint)
    app.register_blueprint(probes.blueprint)
    app.extensions[status.SOURCE] = status.StatusSource(settings, dispatcher)
    app.register_blueprint(status.blueprint)
    _error_handlers(app)
    return app


def create_registration_app(environ: Mapping[str, str] | None = None) -> Flask:
    """No App credentials at all: GET / registers an App from the manifest (see bot/web/registration)."""
    configure_logging()
    app = Flask("schema_review")
    app.extensions[pages.SETTINGS] = SetupSettings.from_environ(environ)
    app.register_blueprint(pages.blueprint)
    app.register_blueprint(probes.blueprint)
    _error_handlers(app)
    log.warning("no GitHub App credentials: serving the registration page at /")
    return app


def _error_handlers(app: Flask) -> None:
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected_error)


def _http_error(error: HTTPException):
    return jsonify({"error": error.description or error.name}), error.code


def _unexpected_error(error: Exception):
    log.exception("unhandled error in request")
    return jsonify({"error": "internal error"}), 500
