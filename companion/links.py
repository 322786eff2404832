"""Links that leave the screen (join links, QR codes, printed cards): built on ``PUBLIC_URL``.

``PUBLIC_URL`` is the configured public address, else the machine's LAN address (config.py);
never the request's Host header, so a forged Host cannot reach a QR code, and never
127.0.0.1, which on a phone is the phone itself.
"""

from __future__ import annotations

from flask import current_app, url_for


def public_base() -> str:
    """The address phones open, without a trailing slash."""
    return current_app.config["PUBLIC_URL"]


def public_url(endpoint: str, **values) -> str:
    """``url_for(endpoint, **values)`` on the public base."""
    return public_base() + url_for(endpoint, **values)
