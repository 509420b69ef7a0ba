"""gunicorn settings for `gunicorn app:app`: bind $PORT; the embedded queue's workers per process."""
import os
import shutil
import sys
import tempfile

from bot.envfile import load_env_file

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


bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
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


def on_exit(server):
    if _OWN_METRICS_DIR:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)


def child_exit(server, worker):
    from bot.metrics import mark_worker_dead
    mark_worker_dead(worker.pid)


def post_worker_init(worker):
    # Threads do not survive a fork, so they start here, in the worker, after the app loaded.
    from bot.web import start_workers
    if start_workers(worker.wsgi):
        # Embedded queue: reviews are CPU-bound threads in this process; a shorter GIL switch
        # interval lets the request threads answer GitHub within milliseconds while they run.
        # With Redis the reviews run in bot.worker and the default 5 ms serves the acks best
        # (bench/load.py: forced switches between request threads cost more than they save).
        sys.setswitchinterval(0.0005)


def worker_exit(server, worker):
    from bot.web import stop_workers
    if getattr(worker, "wsgi", None) is not None:
        stop_workers(worker.wsgi)
