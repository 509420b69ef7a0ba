"""One-line JSON log records carrying the delivery id and repository, never a secret."""
from __future__ import annotations

import json
import logging
import sys

# Extra attributes worth keeping; anything else a caller attaches is dropped, so a token
# passed by mistake in `extra=` never reaches the log.
FIELDS = ("delivery", "event", "repository", "work", "reason", "pull", "sha", "conclusion",
          "duration_ms", "calls", "status")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {"level": record.levelname.lower(), "logger": record.name, "message": record.getMessage()}
        out.update({key: getattr(record, key) for key in FIELDS if hasattr(record, key)})
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info).splitlines()[-1]
        return json.dumps(out, default=str)


def configure_logging(level: int = logging.INFO) -> None:
    root = logging.getLogger("schema_review")
    if any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    root.setLevel(level)
    root.propagate = False
