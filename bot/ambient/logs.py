"""One-line JSON log records carrying the delivery id and repository, never a secret."""
from __future__ import annotations

import logging
import re
import sys

from rules.visible import visible_json

# Extra attributes worth keeping; anything else a caller attaches is dropped, so a token
# passed by mistake in `extra=` never reaches the log.
FIELDS = ("delivery", "event", "repository", "work", "reason", "pull", "sha", "conclusion",
          "duration_ms", "calls", "status", "outcome", "retries", "wait", "workers", "count", "owner",
          "stages")
# What a credential looks like: GitHub tokens (installation, personal, OAuth, refresh), a JWT
# (the App's), a PEM block, and an Authorization header value. Masked wherever they appear.
SECRET = re.compile(
    r"\b(?:gh[pousr]_[A-Za-z0-9_]{16,}|github_pat_[A-Za-z0-9_]{20,})"
    r"|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)"
    r"|(?i:(?:token|bearer)\s+)[A-Za-z0-9_.-]{20,}", re.DOTALL)
MASK = "[redacted]"
# Libraries whose warnings we keep, in the same JSON shape.
LIBRARY_LOGGERS = ("huey", "github")


def redact(text: str) -> str:
    return SECRET.sub(MASK, text)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {"level": record.levelname.lower(), "logger": record.name, "message": record.getMessage()}
        out.update({key: getattr(record, key) for key in FIELDS if hasattr(record, key)})
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info).splitlines()[-1]
        # ASCII JSON: no control character of a schema string or file name reaches the log raw.
        return redact(visible_json(out, default=str))


def configure_logging(level: int = logging.INFO) -> None:
    root = logging.getLogger("schema_review")
    if any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    root.setLevel(level)
    root.propagate = False
    for name in LIBRARY_LOGGERS:
        library = logging.getLogger(name)
        library.addHandler(handler)
        library.setLevel(logging.WARNING)
        library.propagate = False
