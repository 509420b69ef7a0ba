"""gunicorn settings for `gunicorn app:app`: bind $PORT; the local queue's worker process beside it."""
import os
import shutil
import sys
import tempfile

from bot.config.envfile import load_env_file
from bot.config.settings import BAD_PORT, is_port

# Settings in .env (written by the registration page) apply to gunicorn's own knobs too.
load_env_file()
# Every worker writes its metrics to files here and /metrics adds them up (prometheus_client's
# multiprocess mode). It must be set before any worker imports prometheus_client; a folder made
# here is this server's alone and removed at exit, one named by the operator is emptied at start.
_OWN_METRICS_DIR = not os.environ.get("PROMETHEUS_MULTIPROC_DIR")
if _OWN_METRICS_DIR:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="schema-review-metrics-")


def _count(key: str, default: str) -> int:
    raw = os.environ.get(key, "").strip() or default
    if not (raw.isascii() and raw.isdigit() and int(raw) > 0):
        sys.exit(f"schema-review cannot start: {key} must be a whole number above 0")  # no traceback
    return int(raw)


def _port() -> str:
    raw = os.environ.get("PORT", "").strip() or "8000"
    if not is_port(raw):
        sys.exit(f"schema-review cannot start: {BAD_PORT}")  # no traceback; before the App's own check
    return raw


bind = f"0.0.0.0:{_port()}"
workers = _count("WEB_CONCURRENCY", "1")  # gunicorn itself also reads it, and fails on a non-number
worker_class = "gthread"
threads = _count("WEB_THREADS", "8")
timeout = 60
# Finish running reviews before a worker exits; what does not finish is resumed after restart.
graceful_timeout = 30


def on_starting(server):
    folder = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):  # a previous run's samples would be added to this one's
        if name.endswith(".db"):
            os.remove(os.path.join(folder, name))


def when_ready(server):
    # No REDIS_URL: the SQLite queue's jobs run in one worker process this arbiter keeps running
    # (bot/queue/sidecar.py), never in the threads that answer GitHub.
    from bot.ambient.metrics import mark_worker_dead
    from bot.queue.sidecar import start_if_local
    server.queue_sidecar = start_if_local(on_exit=mark_worker_dead, clean_exit_delay=graceful_timeout + 10)


def on_reload(server):
    # HUP (a deploy): the web workers restart on the new code and settings; so does the queue's.
    _stop_queue_worker(server)
    when_ready(server)


def _stop_queue_worker(server):
    sidecar = getattr(server, "queue_sidecar", None)
    if sidecar is not None:
        sidecar.stop(timeout=graceful_timeout)


def on_exit(server):
    _stop_queue_worker(server)
    if _OWN_METRICS_DIR:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)


def child_exit(server, worker):
    from bot.ambient.metrics import mark_worker_dead
    mark_worker_dead(worker.pid)
