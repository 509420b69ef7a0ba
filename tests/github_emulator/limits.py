"""GitHub's size limits on what an App writes, answered as GitHub answers them (422).

The OpenAPI description does not carry them; GitHub enforces them all the same: a comment or
review body over 65,536 characters, a check run's summary or text over 65,535.
"""
from __future__ import annotations

from typing import Any

from .ops import ApiError

MAX_BODY = 65_536
MAX_OUTPUT = 65_535
TOO_LONG = "{field} is too long (maximum is {limit} characters)"
DOCS = "https://docs.github.com/rest"


def check(body: Any) -> None:
    """Raise the 422 GitHub gives when any field of the request is over its limit."""
    if not isinstance(body, dict):
        return
    fields: list[tuple[str, Any, int]] = [("body", body.get("body"), MAX_BODY)]
    for comment in body.get("comments") or []:
        if isinstance(comment, dict):
            fields.append(("comments.body", comment.get("body"), MAX_BODY))
    output = body.get("output")
    if isinstance(output, dict):
        fields += [("output.summary", output.get("summary"), MAX_OUTPUT),
                   ("output.text", output.get("text"), MAX_OUTPUT)]
    for name, value, limit in fields:
        if isinstance(value, str) and len(value) > limit:
            raise ApiError(422, "Validation Failed", doc=DOCS, errors=[
                {"resource": "Request", "field": name, "code": "custom",
                 "message": TOO_LONG.format(field=name, limit=limit)}])
