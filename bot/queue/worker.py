"""`python -m bot.worker`: the queue's workers as their own process (Redis mode, any machine;
`--local`: the SQLite queue's worker, which gunicorn starts beside the web server)."""
from __future__ import annotations

import logging
import os
import sys
import threading
from wsgiref.simple_server import WSGIRequestHandler, make_server

from bot.config.envfile import load_env_file
from bot.ambient.logs import configure_logging
from bot.ambient.metrics import CONTENT_TYPE, QUEUE_DEPTH, render
from bot.queue.runtime import read_environment
from bot.queue.sidecar import started_by_live_parent
from bot.config.settings import SettingsError

log = logging.getLogger("schema_review.worker")

# Reviews are batch work: on a machine that also answers GitHub's webhooks (gunicorn), the
# acks get a core first. Set before any thread starts, so every thread and child inherits it.
NICENESS = 10
NEEDS_REDIS = ("bot.worker needs REDIS_URL: without it the queue is the SQLite file of the web "
               "server, whose own worker process (started by gunicorn) runs the jobs")
# gunicorn's arbiter starts the worker of its local SQLite queue with this (bot/queue/sidecar.py).
LOCAL = "--local"


class _Quiet(WSGIRequestHandler):
    def log_message(self, *args) -> None:
        pass


def _serve_metrics(port: int) -> None:
    def metrics(environ, start_response):
        start_response("200 OK", [("Content-Type", CONTENT_TYPE)])
        return [render()]
    server = make_server("0.0.0.0", port, metrics, handler_class=_Quiet)
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()


def main(argv: list[str] | None = None) -> int:
    local = LOCAL in (sys.argv[1:] if argv is None else argv)
    if local and not started_by_live_parent():
        return 0  # the arbiter is gone already: nobody would stop this worker
    configure_logging()
    load_env_file()
    try:
        settings, runtime = read_environment()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    if runtime.embedded and not local:
        print(NEEDS_REDIS, file=sys.stderr)
        return 2
    from bot.queue.wiring import build_dispatcher
    os.nice(NICENESS)
    dispatcher = build_dispatcher(settings, runtime)
    QUEUE_DEPTH.source = dispatcher.depth
    if runtime.metrics_port:
        _serve_metrics(runtime.metrics_port)
    dispatcher.leases.beat()
    upkeep = dispatcher.upkeep()
    upkeep.start()
    log.info("worker started", extra={"workers": runtime.workers})
    try:
        dispatcher.consumer().run()  # SIGTERM/SIGINT: finish running jobs, then exit
    finally:
        upkeep.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
