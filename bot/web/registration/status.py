"""GET / with credentials: the operator's status page (App name, installations, queue, deliveries).

Public on purpose, so it shows nothing a stranger could use: counts, event names and outcomes,
never a repository, a payload or a setting. Whatever asks for it, GitHub is asked at most once
a minute (the answer is cached), so the page cannot be used to spend the App's rate limit.
"""
from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timezone

from flask import Blueprint, current_app, render_template

log = logging.getLogger("schema_review.status")
blueprint = Blueprint("status", __name__, template_folder="templates")

SOURCE = "schema_review.status"
CACHE_SECONDS = 60
DELIVERIES_SHOWN = 10
UNAVAILABLE = "unavailable"


class StatusSource:
    """What GitHub knows about the App, refreshed at most every `ttl` seconds."""

    def __init__(self, settings, dispatcher, *, ttl: float = CACHE_SECONDS, clock=time.monotonic):
        self._settings, self._dispatcher = settings, dispatcher
        self._ttl, self._clock = ttl, clock
        self._lock = threading.Lock()
        self._github = None
        self._cached: tuple[float, dict] | None = None

    def _client(self):
        if self._github is None:
            from bot.github.app import GitHubApp
            self._github = GitHubApp(self._settings, timeout=5, retries=0)  # a page must answer fast
        return self._github

    def github_part(self) -> dict:
        with self._lock:
            if self._cached is None or self._clock() - self._cached[0] >= self._ttl:
                self._cached = (self._clock(), self._fetch())
            return self._cached[1]

    def _fetch(self) -> dict:
        try:
            name, installations = self._client().about()
            deliveries = self._client().latest_deliveries(DELIVERIES_SHOWN)
        except Exception as error:  # the page still shows the queue; the log keeps the cause
            log.warning("status page could not reach GitHub", extra={"reason": type(error).__name__})
            return {"name": UNAVAILABLE, "installations": UNAVAILABLE, "deliveries": []}
        shown = [_delivery(item) for item in deliveries]
        return {"name": name, "installations": installations,
                "deliveries": [{**item, "outcome": self.outcome(item["guid"])} for item in shown]}

    def queue_depth(self):
        try:
            return self._dispatcher.depth()
        except Exception:
            return UNAVAILABLE

    def outcome(self, guid: str) -> str:
        ledger = getattr(self._dispatcher, "ledger", None)
        entry = ledger.get(guid) if ledger is not None else None
        if entry is None:
            return "not queued"
        return str(entry.get("outcome") or entry.get("state"))


def _delivery(item: dict) -> dict:
    return {"guid": str(item.get("guid", "")), "when": _when(item.get("delivered_at")),
            "event": ".".join(str(part) for part in (item.get("event"), item.get("action")) if part),
            "status": item.get("status_code")}


def _when(value) -> str:
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return ""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


@blueprint.get("/")
def status():
    source: StatusSource = current_app.extensions[SOURCE]
    github = source.github_part()
    return render_template("status.html", name=github["name"], installations=github["installations"],
                           depth=source.queue_depth(), deliveries=github["deliveries"])
