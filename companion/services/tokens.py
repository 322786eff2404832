"""Capability tokens (issue 10): what a host, a seat, a keeper, a group's invite or admin
link hands out. A token is 256 random bits shown once; only its SHA-256 hash is stored, so the
database alone opens nothing.

Shared by the live tables, score keeping and groups: each of them imports this module, none
of them imports another for it.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any


def hash_token(token: Any) -> str:
    """The stored form of a token; something that is not text (a number, true) from a JSON
    body hashes to a value no stored token has, so it names nothing (never a 500)."""
    if not isinstance(token, str):
        return "-"
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A new token: 256 random bits, URL-safe. Only its hash is stored."""
    return secrets.token_urlsafe(32)
