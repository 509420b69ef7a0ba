"""Injected faults: error bursts, secondary rate limits and slow answers for reliability tests."""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

# GitHub's bodies for the faults tests inject most; any other status gets a generic message.
FAULT_MESSAGES = {
    403: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. "
         "If you reach out to GitHub Support for help, please include the request ID.",
    429: "API rate limit exceeded.",
    500: "Server Error",
    502: "Server Error",
    503: "Service Unavailable",
    504: "We couldn't respond to your request in time. Sorry about that. Please try resubmitting "
         "your request and contact us if the problem persists.",
}
RATE_LIMIT_DOC = ("https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
                  "#about-secondary-rate-limits")


@dataclass
class Fault:
    """Matches `method` (or "*") and a regex searched in the path without the API prefix."""
    method: str
    path_regex: str
    status: int | None = None  # None: only delay, then answer normally
    times: int | None = 1  # None: forever
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    body: dict | None = None
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        return (self.method in ("*", method.upper())
                and re.search(self.path_regex, path) is not None
                and (self.times is None or self.hits < self.times))

    def error_body(self) -> dict:
        if self.body is not None:
            return self.body
        message = FAULT_MESSAGES.get(self.status, "Injected fault")
        doc = RATE_LIMIT_DOC if self.status in (403, 429) else "https://docs.github.com/rest"
        return {"message": message, "documentation_url": doc, "status": str(self.status)}


class Faults:
    def __init__(self):
        self._lock = threading.Lock()
        self.active: list[Fault] = []

    def add(self, fault: Fault) -> Fault:
        with self._lock:
            self.active.append(fault)
        return fault

    def take(self, method: str, path: str) -> Fault | None:
        """The first matching fault, counted as used."""
        with self._lock:
            for fault in self.active:
                if fault.matches(method, path):
                    fault.hits += 1
                    return fault
        return None

    def clear(self) -> None:
        with self._lock:
            self.active.clear()
