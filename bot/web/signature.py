"""Verification of GitHub's X-Hub-Signature-256 header (HMAC-SHA256 of the raw body).

A trust border (SECURITY.md, "The borders"): every byte GitHub sends is checked here before the
webhook parses it.
"""
from __future__ import annotations

import hashlib
import hmac

PREFIX = "sha256="


def sign(secret: bytes, body: bytes) -> str:
    return PREFIX + hmac.new(secret, body, hashlib.sha256).hexdigest()


def is_valid(secret: bytes, body: bytes, header: str | None) -> bool:
    """Constant-time comparison, so response timing leaks nothing about the expected digest."""
    if not header or not header.startswith(PREFIX):
        return False
    return hmac.compare_digest(sign(secret, body).encode(), header.strip().encode())
