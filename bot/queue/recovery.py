"""Lost deliveries: ask GitHub to redeliver the App's failed webhook deliveries of the last three days.

GitHub never retries a failed delivery on its own; while the App was down or answered 5xx, its
pull requests got no check. GET /app/hook/deliveries lists every attempt (newest first, cursor
pages); a delivery whose every attempt failed, and that this App never recorded, is redelivered
with POST /app/hook/deliveries/{id}/attempts, once.
"""
from __future__ import annotations

import logging
import re
import time
from datetime import datetime
from typing import Callable, Iterator

from github import GithubException

log = logging.getLogger("schema_review.recovery")

# GitHub only redelivers deliveries of the past three days.
WINDOW_SECONDS = 3 * 24 * 3600
PER_PAGE = 100
MAX_PAGES = 50
NEXT_LINK = re.compile(r'<([^>]+)>\s*;\s*rel="next"')


def recent_deliveries(requester, *, since: float) -> Iterator[dict]:
    url, params = "/app/hook/deliveries", {"per_page": PER_PAGE}
    for _page in range(MAX_PAGES):
        headers, items = requester.requestJsonAndCheck("GET", url, parameters=params)
        recent = [item for item in items or [] if _timestamp(item.get("delivered_at")) >= since]
        yield from recent
        found = NEXT_LINK.search(headers.get("link", "") or "")
        if not found or not recent:  # newest first: a page with nothing recent ends the window
            return
        url, params = found.group(1), None


def recover_deliveries(requester, *, known: Callable[[str], bool], claim: Callable[[str], bool],
                       now: float | None = None) -> list[int]:
    """Redeliver what failed and was never received; returns the redelivered delivery ids.

    `known(guid)`: this App recorded the delivery (a timeout on GitHub's side, not a loss).
    `claim(guid)`: True once per guid, so concurrent sweepers ask GitHub only once.
    """
    now = time.time() if now is None else now
    attempts = list(recent_deliveries(requester, since=now - WINDOW_SECONDS))
    delivered = {a["guid"] for a in attempts if 200 <= int(a.get("status_code") or 0) < 300}
    redelivered, asked = [], set()
    for attempt in attempts:  # newest first: the newest failed attempt of a guid is redelivered
        guid = attempt["guid"]
        if guid in delivered or guid in asked or known(guid):
            continue
        asked.add(guid)
        if not claim(guid):
            continue
        try:
            requester.requestJsonAndCheck("POST", f"/app/hook/deliveries/{int(attempt['id'])}/attempts")
        except GithubException as error:  # e.g. 422 for one GitHub no longer keeps: the rest still count
            log.warning("redelivery refused", extra={"delivery": guid, "status": error.status})
            continue
        redelivered.append(int(attempt["id"]))
    if redelivered:
        log.warning("asked GitHub to redeliver failed deliveries", extra={"count": len(redelivered)})
    return redelivered


def _timestamp(value) -> float:
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0
