"""Queue, retry and recovery settings, read once from the environment; errors name the key.

| variable                          | default            | meaning                                             |
|-----------------------------------|--------------------|-----------------------------------------------------|
| REDIS_URL                         | (unset)            | set: Redis queue, workers run `python -m bot.worker` |
| QUEUE_PATH                        | var/queue.db       | SQLite queue file when REDIS_URL is unset           |
| QUEUE_WORKERS                     | 4                  | worker threads (per bot.worker process)             |
| SCHEMA_REVIEW_JOB_RETRIES         | 3                  | attempts after the first before the check fails closed |
| SCHEMA_REVIEW_JOB_RETRY_DELAY     | 10                 | seconds before a failed job's first retry (doubles) |
| SCHEMA_REVIEW_RETRIES             | 5                  | retries of one GitHub request (5xx, connection, limits) |
| SCHEMA_REVIEW_RETRY_BACKOFF       | 1.0                | backoff factor of those retries, seconds (1, 2, 4, ...) |
| SCHEMA_REVIEW_MAX_RATE_WAIT       | 90                 | longest rate-limit wait slept in place; longer: job rescheduled |
| SCHEMA_REVIEW_TOKEN_MARGIN        | 300                | renew an installation token this many seconds before it expires |
| SCHEMA_REVIEW_RECOVERY_INTERVAL   | 600                | seconds between sweeps for failed deliveries (0: only at start) |
| SCHEMA_REVIEW_HEARTBEAT           | 5                  | seconds between worker heartbeats; 6 missed = worker dead |
| METRICS_PORT                      | (unset)            | bot.worker only: serve /metrics on this port        |
| SCHEMA_REVIEW_FILE_BUDGET         | 20                 | seconds one schema file's review may take; then it fails |
| SCHEMA_REVIEW_PULL_BUDGET         | 120                | seconds one push's files may take in all; the rest are not reviewed |
| SCHEMA_REVIEW_JOB_INTERRUPTIONS   | 2                  | times a job's worker may die under it; then the check fails |
| SCHEMA_REVIEW_RECHECK_INTERVAL    | 60                 | seconds between two `/schema-review recheck` runs on one PR |
| SCHEMA_REVIEW_BURST_QUIET         | 2                  | a push within 2 s of the one before waits this long for the next (0: never, at most 60) |
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Mapping

from bot.config.settings import Settings, SettingsError
from bot.config.settings import read as read_settings
from bot.queue.ledger import QUIET_SECONDS

DEFAULT_QUEUE_PATH = os.path.join("var", "queue.db")
NOT_A_NUMBER = "{key} must be a number"
NEGATIVE = "{key} must not be negative"
TOO_LONG = "{key} must be at most {limit:g} seconds"
# A burst's wait is meant in seconds; huey cannot even schedule a job years ahead.
MAX_BURST_QUIET = 60.0


@dataclass(frozen=True)
class Runtime:
    redis_url: str | None = None
    queue_path: str = DEFAULT_QUEUE_PATH
    workers: int = 4
    job_retries: int = 3
    job_retry_delay: float = 10.0
    request_retries: int = 5
    retry_backoff: float = 1.0
    max_rate_wait: float = 90.0
    token_margin: float = 300.0
    recovery_interval: float = 600.0
    heartbeat: float = 5.0
    metrics_port: int | None = None
    file_budget: float = 20.0
    pull_budget: float = 120.0
    job_interruptions: int = 2
    recheck_interval: float = 60.0
    burst_quiet: float = QUIET_SECONDS

    @property
    def embedded(self) -> bool:
        """SQLite on local disk, its worker process started by gunicorn beside the web server."""
        return not self.redis_url

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> "Runtime":
        """Raises SettingsError naming every malformed variable at once."""
        env = os.environ if environ is None else environ
        problems: list[str] = []
        number = lambda key, default, kind=float: _number(env, key, default, kind, problems)  # noqa: E731
        port = env.get("METRICS_PORT", "").strip()
        runtime = cls(redis_url=env.get("REDIS_URL", "").strip() or None,
                      queue_path=env.get("QUEUE_PATH", "").strip() or DEFAULT_QUEUE_PATH,
                      workers=max(number("QUEUE_WORKERS", 4, int), 1),
                      job_retries=number("SCHEMA_REVIEW_JOB_RETRIES", 3, int),
                      job_retry_delay=number("SCHEMA_REVIEW_JOB_RETRY_DELAY", 10.0),
                      request_retries=number("SCHEMA_REVIEW_RETRIES", 5, int),
                      retry_backoff=number("SCHEMA_REVIEW_RETRY_BACKOFF", 1.0),
                      max_rate_wait=number("SCHEMA_REVIEW_MAX_RATE_WAIT", 90.0),
                      token_margin=number("SCHEMA_REVIEW_TOKEN_MARGIN", 300.0),
                      recovery_interval=number("SCHEMA_REVIEW_RECOVERY_INTERVAL", 600.0),
                      heartbeat=max(number("SCHEMA_REVIEW_HEARTBEAT", 5.0), 0.1),
                      metrics_port=number("METRICS_PORT", 0, int) if port else None,
                      file_budget=max(number("SCHEMA_REVIEW_FILE_BUDGET", 20.0), 0.1),
                      pull_budget=max(number("SCHEMA_REVIEW_PULL_BUDGET", 120.0), 0.1),
                      job_interruptions=max(number("SCHEMA_REVIEW_JOB_INTERRUPTIONS", 2, int), 1),
                      recheck_interval=number("SCHEMA_REVIEW_RECHECK_INTERVAL", 60.0),
                      burst_quiet=number("SCHEMA_REVIEW_BURST_QUIET", QUIET_SECONDS))
        if runtime.burst_quiet > MAX_BURST_QUIET:
            problems.append(TOO_LONG.format(key="SCHEMA_REVIEW_BURST_QUIET", limit=MAX_BURST_QUIET))
        if problems:
            raise SettingsError(problems)
        return runtime


def read_environment(environ: Mapping[str, str] | None = None) -> tuple[Settings, Runtime]:
    """The App's settings and the queue's, or one SettingsError naming every problem in both."""
    env = os.environ if environ is None else environ
    reading, problems = read_settings(env), []
    try:
        runtime = Runtime.from_environ(env)
    except SettingsError as error:
        problems = error.problems
    if reading.problems or problems:
        raise SettingsError(reading.problems + problems)
    return reading.settings, runtime


def _number(env: Mapping[str, str], key: str, default, kind, problems: list[str]):
    raw = env.get(key, "").strip()
    if not raw:
        return default
    try:
        value = kind(raw)
    except ValueError:
        problems.append(NOT_A_NUMBER.format(key=key))
        return default
    if not math.isfinite(value):  # "inf" and "nan" parse as floats: no setting means either
        problems.append(NOT_A_NUMBER.format(key=key))
        return default
    if value < 0:
        problems.append(NEGATIVE.format(key=key))
        return default
    return value
