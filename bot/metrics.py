"""Prometheus metrics of this process, rendered in the text exposition format at /metrics."""
from __future__ import annotations

import math
import threading
from typing import Callable

# Job durations span a trivial PR (~0.1 s) to a rate-limited one (minutes).
DURATION_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300)


class _Metric:
    kind = "untyped"

    def __init__(self, name: str, help_text: str, labels: tuple[str, ...] = ()):
        self.name, self.help, self.labels = name, help_text, labels
        self._values: dict[tuple[str, ...], float] = {}
        self._lock = threading.Lock()

    def _key(self, labels: dict) -> tuple[str, ...]:
        return tuple(str(labels.get(name, "")) for name in self.labels)

    def samples(self):
        with self._lock:
            return [(self.name, key, value) for key, value in sorted(self._values.items())]


class Counter(_Metric):
    kind = "counter"

    def inc(self, amount: float = 1.0, **labels) -> None:
        key = self._key(labels)
        with self._lock:
            self._values[key] = self._values.get(key, 0.0) + amount

    def value(self, **labels) -> float:
        return self._values.get(self._key(labels), 0.0)


class Gauge(_Metric):
    """A value set by the code, or read from `source` when scraped (queue depth)."""
    kind = "gauge"

    def __init__(self, *args, source: Callable[[], float] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.source = source

    def set(self, value: float, **labels) -> None:
        with self._lock:
            self._values[self._key(labels)] = float(value)

    def samples(self):
        if self.source is not None:
            try:
                self.set(self.source())
            except Exception:  # an unreachable queue shows as a missing sample, not a 500
                return []
        return super().samples()


class Histogram(_Metric):
    kind = "histogram"

    def __init__(self, *args, buckets=DURATION_BUCKETS, **kwargs):
        super().__init__(*args, **kwargs)
        self.buckets = tuple(buckets) + (math.inf,)
        self._series: dict[tuple[str, ...], list[float]] = {}

    def observe(self, value: float, **labels) -> None:
        key = self._key(labels)
        with self._lock:
            series = self._series.setdefault(key, [0.0] * (len(self.buckets) + 2))
            for index, bound in enumerate(self.buckets):
                if value <= bound:
                    series[index] += 1
            series[-2] += value
            series[-1] += 1

    def samples(self):
        out = []
        with self._lock:
            for key, series in sorted(self._series.items()):
                for index, bound in enumerate(self.buckets):
                    out.append((self.name + "_bucket", key + (_bound(bound),), series[index]))
                out.append((self.name + "_sum", key, series[-2]))
                out.append((self.name + "_count", key, series[-1]))
        return out


def _bound(value: float) -> str:
    return "+Inf" if math.isinf(value) else repr(float(value))


class Registry:
    def __init__(self):
        self.metrics: list[_Metric] = []

    def add(self, metric):
        self.metrics.append(metric)
        return metric

    def render(self) -> str:
        lines = []
        for metric in self.metrics:
            lines += [f"# HELP {metric.name} {metric.help}", f"# TYPE {metric.name} {metric.kind}"]
            names = metric.labels + (("le",) if isinstance(metric, Histogram) else ())
            for name, key, value in metric.samples():
                labels = ",".join(f'{n}="{_escape(v)}"' for n, v in zip(names, key))
                lines.append(f"{name}{{{labels}}} {_number(value)}" if labels else f"{name} {_number(value)}")
        return "\n".join(lines) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)


REGISTRY = Registry()
DELIVERIES = REGISTRY.add(Counter("schema_review_deliveries_total",
                                  "Webhook deliveries by event and outcome.", ("event", "outcome")))
QUEUE_DEPTH = REGISTRY.add(Gauge("schema_review_queue_depth", "Jobs waiting in the queue (due and scheduled)."))
JOB_DURATION = REGISTRY.add(Histogram("schema_review_job_duration_seconds",
                                      "Time a job ran, by outcome.", ("outcome",)))
GITHUB_REQUESTS = REGISTRY.add(Counter("schema_review_github_requests_total",
                                       "HTTP requests sent to GitHub (retries included)."))
GITHUB_RETRIES = REGISTRY.add(Counter("schema_review_github_retries_total",
                                      "GitHub requests retried, by reason.", ("reason",)))
GITHUB_CALLS = REGISTRY.add(Counter("schema_review_github_calls_total",
                                    "Named GitHub operations, by operation and outcome.",
                                    ("operation", "outcome")))
RATE_REMAINING = REGISTRY.add(Gauge("schema_review_github_rate_limit_remaining",
                                    "x-ratelimit-remaining of the latest GitHub answer."))
