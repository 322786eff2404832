"""Fixtures (design.md §4): ``app``, ``client``, ``runner`` on a fresh, migrated database.

The database is a copy of one migrated once per test process (:mod:`tests.databases`): a
SQLite file per test unless TEST_DATABASE_URL names another server, and live updates fan out
in-process unless TEST_REDIS_URL names a Redis (CI sets both and runs the ``db`` and ``redis``
tests again against the local PostgreSQL and Redis).
"""

from __future__ import annotations

import pytest

from companion import create_app
from companion.config import TestConfig

from .databases import fresh_database_url, redis_url, reset_rate_limits


@pytest.fixture
def make_app(tmp_path):
    """Build a migrated app; ``csrf`` stays on unless a test turns it off."""
    created = []

    def factory(csrf: bool = False):
        instance = tmp_path / f"instance{len(created)}"
        reset_rate_limits(redis_url())
        config = TestConfig(instance, fresh_database_url(instance, len(created)))
        config.WTF_CSRF_ENABLED = csrf
        config.REDIS_URL = redis_url()
        app = create_app(config)
        created.append(app)
        return app

    yield factory
    for app in created:
        app.extensions["scribe.engine"].dispose()


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def count_rows(app):
    """How many rows a table has now (to prove that a refused request wrote nothing)."""
    def count(model) -> int:
        from sqlmodel import Session, func, select
        with Session(app.extensions["scribe.engine"]) as session:
            return session.exec(select(func.count()).select_from(model)).one()
    return count
