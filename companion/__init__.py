"""Scribe: a table companion that referees and scores Egyptian board games.

The package imports nothing heavy by itself, so that ``companion.rules`` stays importable
without Flask or the database (design.md §1); the app factory lives in :mod:`companion.app`.
"""

from __future__ import annotations

from typing import Any


def create_app(config: Any = None):
    """Create the Flask app (see :func:`companion.app.create_app`)."""
    from .app import create_app as factory

    return factory(config)
