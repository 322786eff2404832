"""The database: one engine per app, one session per request, Alembic for the schema."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig
from flask import Flask, current_app, g
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL and foreign keys so it behaves like a server."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):  # pragma: no cover - trivial
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            # WAL's recommended setting: no fsync per commit, the database stays consistent;
            # a power cut may lose the last moves, which the phones would then resend.
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def init_app(app: Flask) -> None:
    """Bind an engine to the app and close each request's session when it ends."""
    app.extensions["scribe.engine"] = make_engine(app.config["DATABASE_URL"])

    @app.teardown_appcontext
    def _close_session(_exc):
        session = g.pop("db_session", None)
        if session is not None:
            session.close()


def engine() -> Engine:
    return current_app.extensions["scribe.engine"]


def session() -> Session:
    """This request's session (created on first use)."""
    if "db_session" not in g:
        g.db_session = Session(engine(), expire_on_commit=False)
    return g.db_session


def alembic_config(url: str) -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` to the current schema."""
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(url), revision)
