"""gunicorn settings for `gunicorn app:app`: bind $PORT; the embedded queue's workers per process."""
import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "1"))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "8"))
timeout = 60
# Finish running reviews before a worker exits; what does not finish is resumed after restart.
graceful_timeout = 30


def post_worker_init(worker):
    # Reviews are CPU-bound threads in this process; a shorter GIL switch interval lets the
    # request threads answer GitHub within milliseconds while reviews run (default: 5 ms).
    import sys
    sys.setswitchinterval(0.0005)
    # Threads do not survive a fork, so they start here, in the worker, after the app loaded.
    from bot.web import start_workers
    start_workers(worker.wsgi)


def worker_exit(server, worker):
    from bot.web import stop_workers
    if getattr(worker, "wsgi", None) is not None:
        stop_workers(worker.wsgi)
