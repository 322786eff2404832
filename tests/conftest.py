"""Fixtures (design.md §4): ``app``, ``client``, ``runner`` on a fresh, migrated database.

The database is a SQLite file per test unless TEST_DATABASE_URL names another server, and live
updates fan out in-process unless TEST_REDIS_URL names a Redis (CI sets both and runs the
``db`` and ``redis`` tests again against the local PostgreSQL and Redis).
"""

from __future__ import annotations

import os

import pytest
from sqlalchemy import create_engine, text

from companion import create_app, db
from companion.config import TestConfig

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL")      # live updates through Redis (CI)


def _reset(url: str) -> None:
    """Empty a server database before a test (PostgreSQL: drop and recreate the schema)."""
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def _reset_rate_limits(url: str) -> None:
    """Forget the rate-limit counts a Redis keeps (a day's limit would otherwise count every
    table the whole suite opens)."""
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match="LIMITS:*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
def make_app(tmp_path):
    """Build a migrated app; ``csrf`` stays on unless a test turns it off."""
    created = []

    def factory(csrf: bool = False):
        if TEST_DATABASE_URL:
            _reset(TEST_DATABASE_URL)
        if TEST_REDIS_URL:
            _reset_rate_limits(TEST_REDIS_URL)
        config = TestConfig(tmp_path / f"instance{len(created)}", TEST_DATABASE_URL)
        config.WTF_CSRF_ENABLED = csrf
        config.REDIS_URL = TEST_REDIS_URL
        db.upgrade(config.DATABASE_URL)
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
