"""Fresh databases for tests, migrated once per test process (design.md §4).

Alembic runs once per pytest process (one per xdist worker): into a SQLite template file, or
into a template database on the server TEST_DATABASE_URL names. Each test then gets a copy:
a file copy on SQLite (milliseconds), ``CREATE DATABASE … TEMPLATE`` on PostgreSQL. Every
worker has databases of its own (``<name>_gw0`` …) and a Redis database number of its own, so
workers share nothing but read-only data. ``tests/test_migrations.py`` is the one test of
Alembic itself.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import threading
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from companion import db

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL")      # live updates through Redis (CI)
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")   # "gw0", "gw1" … under xdist


def worker_number() -> int:
    """0 without xdist, 1 + the worker's index under it."""
    return int(WORKER[2:]) + 1 if WORKER.startswith("gw") else 0


def redis_url() -> str | None:
    """TEST_REDIS_URL with this worker's own database number (pub/sub channels carry table
    ids, which are random, so workers never hear each other's tables)."""
    if not TEST_REDIS_URL:
        return None
    url = make_url(TEST_REDIS_URL)
    return url.set(database=str(worker_number() % 16)).render_as_string(hide_password=False)


class _SQLiteTemplates:
    """A migrated SQLite file, copied for each test."""

    def __init__(self) -> None:
        self._template: Path | None = None
        self._lock = threading.Lock()

    def _migrated(self) -> Path:
        with self._lock:
            if self._template is None:
                folder = Path(tempfile.mkdtemp(prefix=f"scribe-template-{WORKER}-"))
                path = folder / "template.db"
                db.upgrade(f"sqlite:///{path}")
                with sqlite3.connect(path) as connection:   # fold the WAL into the file
                    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                self._template = path
            return self._template

    def fresh(self, folder: Path, index: int = 0) -> str:
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / "test.db"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{target}{suffix}").unlink(missing_ok=True)
        shutil.copyfile(self._migrated(), target)
        return f"sqlite:///{target}"


class _ServerTemplates:
    """A migrated template database on the server, cloned for each test (this worker's own
    ``<name>_<worker>``, dropped and made again from ``<name>_<worker>_template``)."""

    def __init__(self, url: str) -> None:
        self.base = make_url(url)
        self.work = f"{self.base.database}_{WORKER}".lower()
        self.template = f"{self.work}_template"
        self._ready = False
        self._lock = threading.Lock()
        self._admin = create_engine(self.base, isolation_level="AUTOCOMMIT",
                                    pool_pre_ping=True)

    def _url(self, database: str) -> str:
        return self.base.set(database=database).render_as_string(hide_password=False)

    def _recreate(self, name: str, template: str | None = None) -> None:
        with self._admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            clause = f' TEMPLATE "{template}"' if template else ""
            connection.execute(text(f'CREATE DATABASE "{name}"{clause}'))

    def fresh(self, folder: Path, index: int = 0) -> str:
        name = self.work if index == 0 else f"{self.work}_{index}"
        with self._lock:
            if not self._ready:
                self._recreate(self.template)
                db.upgrade(self._url(self.template))
                self._ready = True
            self._recreate(name, self.template)
        return self._url(name)


_TEMPLATES = _ServerTemplates(TEST_DATABASE_URL) if TEST_DATABASE_URL else _SQLiteTemplates()


def fresh_database_url(folder: Path, index: int = 0) -> str:
    """A freshly migrated, empty database: a SQLite file in ``folder``, or this worker's
    database number ``index`` on the test server (made again: a worker runs one test at a
    time; a test that needs two apps gives each its own ``index``)."""
    return _TEMPLATES.fresh(folder, index)


def reset_rate_limits(url: str | None) -> None:
    """Forget the rate-limit counts a Redis database keeps (a day's limit would otherwise
    count every table the whole suite opens)."""
    if not url:
        return
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match="LIMITS:*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()
