"""Prometheus metrics (prometheus_client): one exposition for all gunicorn workers of a host.

With `PROMETHEUS_MULTIPROC_DIR` set (gunicorn.conf.py sets it up before any worker starts), each
worker writes its samples to files in that folder and `/metrics` adds up every worker's files,
so `WEB_CONCURRENCY>1` reports the whole server, not the worker that happened to answer.
Without it (tests, `python -m bot.worker`), the samples live in this process.
"""
from __future__ import annotations

import os
from typing import Callable

from prometheus_client import CollectorRegistry, disable_created_metrics, generate_latest
from prometheus_client import Counter as _PromCounter
from prometheus_client import Gauge as _PromGauge
from prometheus_client import Histogram as _PromHistogram
from prometheus_client.core import GaugeMetricFamily

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Job durations span a trivial PR (~0.1 s) to a rate-limited one (minutes).
DURATION_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300)


class Counter:
    """`inc(**labels)`: the call sites name their labels as keywords, as before prometheus_client."""

    def __init__(self, name: str, help_text: str, labels: tuple[str, ...] = (), *, registry):
        self._metric = _PromCounter(name, help_text, labels, registry=registry)

    def inc(self, amount: float = 1.0, **labels) -> None:
        (self._metric.labels(**labels) if labels else self._metric).inc(amount)


class Gauge:
    """The most recent value set by any live worker (GitHub's rate-limit answer)."""

    def __init__(self, name: str, help_text: str, *, registry):
        self._metric = _PromGauge(name, help_text, registry=registry, multiprocess_mode="livemostrecent")

    def set(self, value: float) -> None:
        self._metric.set(value)


class Histogram:
    def __init__(self, name: str, help_text: str, labels: tuple[str, ...] = (), *, registry,
                 buckets=DURATION_BUCKETS):
        self._metric = _PromHistogram(name, help_text, labels, registry=registry, buckets=buckets)

    def observe(self, value: float, **labels) -> None:
        (self._metric.labels(**labels) if labels else self._metric).observe(value)


class QueueDepth:
    """A collector read when scraped: the queue is shared, so whichever worker answers counts it."""

    name = "schema_review_queue_depth"

    def __init__(self):
        self.source: Callable[[], float] | None = None

    def collect(self):
        if self.source is None:
            return
        try:
            depth = float(self.source())
        except Exception:  # an unreachable queue shows as a missing sample, not a 500
            return
        yield GaugeMetricFamily(self.name, "Jobs waiting in the queue (due and scheduled).", value=depth)


def render() -> bytes:
    """The exposition text: every worker's samples in multiprocess mode, else this process's."""
    if not os.environ.get(MULTIPROC_ENV):
        return generate_latest(REGISTRY)
    from prometheus_client import multiprocess
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    registry.register(QUEUE_DEPTH)
    return generate_latest(registry)


def mark_worker_dead(pid: int) -> None:
    """gunicorn's child_exit: a dead worker's live gauges stop counting; its counters stay."""
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess
        multiprocess.mark_process_dead(pid)


# `_created` series exist only in single-process mode; without them both modes expose the same names.
disable_created_metrics()
REGISTRY = CollectorRegistry()
DELIVERIES = Counter("schema_review_deliveries_total", "Webhook deliveries by event and outcome.",
                     ("event", "outcome"), registry=REGISTRY)
QUEUE_DEPTH = QueueDepth()
REGISTRY.register(QUEUE_DEPTH)
JOB_DURATION = Histogram("schema_review_job_duration_seconds", "Time a job ran, by outcome.", ("outcome",),
                         registry=REGISTRY)
GITHUB_REQUESTS = Counter("schema_review_github_requests_total", "HTTP requests sent to GitHub (retries included).",
                          registry=REGISTRY)
GITHUB_RETRIES = Counter("schema_review_github_retries_total", "GitHub requests retried, by reason.", ("reason",),
                         registry=REGISTRY)
GITHUB_CALLS = Counter("schema_review_github_calls_total", "Named GitHub operations, by operation and outcome.",
                       ("operation", "outcome"), registry=REGISTRY)
RATE_REMAINING = Gauge("schema_review_github_rate_limit_remaining",
                       "x-ratelimit-remaining of the latest GitHub answer.", registry=REGISTRY)
