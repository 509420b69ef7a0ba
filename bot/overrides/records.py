"""Records the App hides in its own comments, sealed with an HMAC only the App can compute.

A trust border (SECURITY.md, "The borders"): what the App trusts from its own comments is unsealed
here, and nowhere else.

The key is derived with HKDF-SHA256 (RFC 5869) from the webhook secret: it is the one secret
every process of the App already holds (web and workers, on every machine), is never sent to
GitHub with a request, and changing it is already an operator's deliberate act. The derived key
differs from the secret itself, so a record's MAC says nothing about the webhook signatures.
Rotating the secret invalidates the records: their overrides stop counting (the gate fails closed).

Each record is bound to one pull request (`scope`), so a record cannot be moved to another one,
and a reader takes the last valid record of a body: the App writes its record at the very end.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re

MARKER = "<!-- schema-review:record {payload}.{mac} -->"
MARKER_PATTERN = re.compile(r"<!-- schema-review:record ([A-Za-z0-9_=-]+)\.([0-9a-f]{64}) -->")
SALT = b"schema-review records"
INFO = b"schema-review override records v1"


def derive_key(secret: bytes) -> bytes:
    """HKDF-SHA256 (extract, then one block of expand) from the App's webhook secret."""
    prk = hmac.new(SALT, secret, hashlib.sha256).digest()
    return hmac.new(prk, INFO + b"\x01", hashlib.sha256).digest()


def scope_of(repository: str, number: int) -> str:
    """What a record is bound to: one pull request of one repository."""
    return f"{repository.lower()}#{int(number)}"


def _mac(key: bytes, scope: str, payload: str) -> str:
    return hmac.new(key, f"{scope}\n{payload}".encode(), hashlib.sha256).hexdigest()


def seal(data: dict, *, key: bytes, scope: str) -> str:
    """The hidden marker carrying `data`, authenticated for `scope`."""
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    payload = base64.urlsafe_b64encode(raw).decode()
    return MARKER.format(payload=payload, mac=_mac(key, scope, payload))


def unseal(body: str | None, *, key: bytes, scope: str) -> dict | None:
    """The last record in `body` whose MAC checks out for `scope`; None when there is none."""
    for match in reversed(list(MARKER_PATTERN.finditer(body or ""))):
        payload, mac = match.groups()
        if not hmac.compare_digest(mac, _mac(key, scope, payload)):
            continue
        try:
            data = json.loads(base64.urlsafe_b64decode(payload))
        except ValueError:
            continue
        if isinstance(data, dict):
            return data
    return None


__all__ = ["derive_key", "scope_of", "seal", "unseal", "MARKER_PATTERN"]
