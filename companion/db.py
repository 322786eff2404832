"""The database: one engine per app, one session per request, Alembic for the schema."""

from __future__ import annotations

import gc
import os
import threading
import time
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

try:
    import fcntl
except ImportError:               # pragma: no cover - not POSIX: SQLite's own lock only
    fcntl = None  # type: ignore[assignment]

from alembic import command
from alembic.config import Config as AlembicConfig
from flask import Flask, current_app, g
from sqlalchemy import event
from sqlalchemy.engine import Connection, Dialect, Engine
from sqlalchemy.sql.expression import Executable
from sqlalchemy.exc import DBAPIError, InterfaceError, InternalError, OperationalError
from sqlmodel import Session, create_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


# heal() starts a new generation of an engine's connections; a connection of an older one is
# closed the moment it comes back from its request, not whenever the garbage collector gets to
# its old pool. On SQLite this matters beyond that connection: one opened while the files could
# not be written keeps the file's shared memory read-only for every connection of the process
# as long as it lives (measured under ``serve``: 2 writes in 3 refused for 5 s, 1 in 6 for the
# next 5 s after the fault was over).
@dataclass
class _Generation:
    number: int = 0                      # heal() raises it
    collected: float = float("-inf")     # when heal() last collected garbage (monotonic)


_GENERATIONS: "weakref.WeakKeyDictionary[Engine, _Generation]" = weakref.WeakKeyDictionary()
COLLECT_EVERY = 0.25     # s: a collection costs ~75 ms in a server; a fault fails many requests


def _close_connections_of_older_generations(engine: Engine) -> None:
    current = _GENERATIONS[engine] = _Generation()

    @event.listens_for(engine, "connect")
    def _born(_dbapi_connection, record) -> None:
        record.info["generation"] = current.number

    @event.listens_for(engine, "checkin")
    def _back(dbapi_connection, record) -> None:
        if dbapi_connection is not None and record.info.get("generation") != current.number:
            record.invalidate()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL and foreign keys so it behaves like a server."""
    engine = _make_engine(url)
    _close_connections_of_older_generations(engine)
    return engine


def _make_engine(url: str) -> Engine:
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


class WriterQueue:
    """Writers to one SQLite file wait their turn here, not in SQLite.

    SQLite lets one transaction write at a time; a writer that finds the file locked sleeps
    in its busy handler (1, 2, 5, 10 … ms) and looks again, so with a few server processes
    writing at once the file is often free while every writer sleeps (measured: two ``serve``
    workers made fewer moves per second than one). Around its write section a move takes a
    thread lock (this process's writers) and then an exclusive ``flock`` on ``<file>-writers``
    (the other processes'), both of which wake the next writer the moment they are released.
    Writers that do not queue (rarer ones: seats, undos, opening tables) still meet SQLite's
    own lock, so nothing depends on everyone queueing. Other databases lock rows themselves:
    :func:`writing` does nothing for them."""

    def __init__(self, path: str):
        self.path = path + "-writers"
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._pid = 0

    def _file(self) -> int:
        if self._pid != os.getpid():      # a forked worker: its own open file, its own lock
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            self._pid = os.getpid()
        assert self._fd is not None
        return self._fd

    @contextmanager
    def turn(self) -> Iterator[None]:
        with self._lock:
            fd = self._file()
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)


_QUEUES: dict[str, WriterQueue] = {}
_QUEUES_LOCK = threading.Lock()


@contextmanager
def writing(session: Session | Connection) -> Iterator[None]:
    """This process's and every other process's turn to write to the session's (or the
    connection's) SQLite file (see :class:`WriterQueue`); at once for any other database."""
    url = session.engine.url if isinstance(session, Connection) else session.get_bind().url
    path = url.database
    if url.get_backend_name() != "sqlite" or not path or path == ":memory:" or fcntl is None:
        yield
        return
    queue = _QUEUES.get(path)
    if queue is None:
        with _QUEUES_LOCK:
            queue = _QUEUES.setdefault(path, WriterQueue(path))
    with queue.turn():
        yield


class Prepared:
    """One of the few statements every move runs, compiled once per database dialect and run
    on the driver's cursor, in the transaction of the SQLAlchemy ``Connection`` it is given
    (which commits or rolls it back; a driver error is raised as SQLAlchemy's, e.g.
    ``IntegrityError``). SQLAlchemy's own run of a Core statement (its cache key, the
    parameters it builds, the result it wraps) costs more than the database's work on such a
    statement; this does only what the statement needs: each value through its type's
    processor (JSON, dates) and, for a select, the columns through theirs (JSON decoded).
    Every parameter without a value in the statement must be given."""

    def __init__(self, statement: Executable):
        self.statement = statement
        self._by_dialect: "weakref.WeakKeyDictionary[Dialect, tuple]" = \
            weakref.WeakKeyDictionary()

    def _compiled(self, dialect: Dialect) -> tuple:
        entry = self._by_dialect.get(dialect)
        if entry is None:
            compiled = self.statement.compile(dialect=dialect)
            binds = {name: bind for bind, name in compiled.bind_names.items()}
            names = (list(compiled.positiontup or ()) if compiled.positional
                     else list(binds))
            steps = [(name, binds[name].value if not binds[name].required else None,
                      binds[name].required,
                      binds[name].type.dialect_impl(dialect).bind_processor(dialect))
                     for name in names]
            columns = getattr(self.statement, "selected_columns", ())
            results = [(index, processor) for index, processor in enumerate(
                column.type.dialect_impl(dialect).result_processor(dialect, None)
                for column in columns) if processor is not None]
            entry = self._by_dialect[dialect] = (compiled.string, compiled.positional, steps,
                                                 results)
        return entry

    def _execute(self, connection: Connection, params: Mapping[str, Any]) -> Any:
        """The driver's cursor, the statement run on it (the caller closes it)."""
        sql, positional, steps, _results = self._compiled(connection.dialect)
        values = [params[name] if required else value for name, value, required, _ in steps]
        values = [value if process is None else process(value)
                  for value, (_, _, _, process) in zip(values, steps)]
        arguments = tuple(values) if positional else dict(zip((s[0] for s in steps), values))
        if not connection.in_transaction():
            connection.begin()          # so that the connection's commit() commits this
        cursor = connection.connection.cursor()
        try:
            cursor.execute(sql, arguments)
        except connection.dialect.loaded_dbapi.Error as error:
            cursor.close()
            raise DBAPIError.instance(sql, arguments, error,
                                      connection.dialect.loaded_dbapi.Error,
                                      dialect=connection.dialect) from error
        return cursor

    def run(self, connection: Connection, params: Mapping[str, Any]) -> int:
        """Run an insert, update or delete: how many rows it changed."""
        cursor = self._execute(connection, params)
        try:
            return cursor.rowcount
        finally:
            cursor.close()

    def first(self, connection: Connection, params: Mapping[str, Any]) -> tuple | None:
        """The first row of a select (None: no row)."""
        cursor = self._execute(connection, params)
        try:
            row = cursor.fetchone()
        finally:
            cursor.close()
        return None if row is None else self._read(connection, row)

    def all(self, connection: Connection, params: Mapping[str, Any]) -> list[tuple]:
        """Every row of a select."""
        cursor = self._execute(connection, params)
        try:
            rows = cursor.fetchall()
        finally:
            cursor.close()
        return [self._read(connection, row) for row in rows]

    def _read(self, connection: Connection, row: Any) -> tuple:
        results = self._compiled(connection.dialect)[3]
        if not results:
            return tuple(row)
        values = list(row)
        for index, process in results:
            values[index] = process(values[index])
        return tuple(values)


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


# PostgreSQL SQLSTATEs of a database that cannot take writes now (read-only transaction, disk
# full, out of memory, too many connections, admin shutdown, cannot connect now).
_STORAGE_SQLSTATES = {"25006", "53100", "53200", "53300", "57P01", "57P02", "57P03"}


def is_storage_fault(error: BaseException) -> bool:
    """Whether ``error`` means the database cannot be used right now (a read-only or full
    disk, a lost connection, a server that is restarting) rather than a bug: answered 503."""
    if isinstance(error, (OperationalError, InterfaceError)):
        return True
    if isinstance(error, (InternalError, DBAPIError)):
        state = getattr(getattr(error, "orig", None), "sqlstate", None)
        return state in _STORAGE_SQLSTATES
    return False


def heal(app_engine: Engine) -> None:
    """Forget every pooled connection after a storage fault: a SQLite connection opened while
    the file could not be written stays read-only for good, so the next requests open fresh
    ones (which can write again as soon as the fault is over); a connection still out in a
    request is closed when it comes back (:func:`_close_connections_of_older_generations`)."""
    generation = _GENERATIONS.setdefault(app_engine, _Generation())
    generation.number += 1
    app_engine.dispose()
    # A connection dropped by a failed request can sit in a reference cycle (the fault's
    # traceback, sqlite3's statement cache) until the garbage collector runs, seconds later,
    # and keeps the shared memory read-only meanwhile: collect it now, at most once a second
    # (every request the fault fails heals).
    now = time.monotonic()
    if now - generation.collected >= COLLECT_EVERY:
        generation.collected = now
        gc.collect()


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
