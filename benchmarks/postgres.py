"""An empty PostgreSQL database of a benchmark's own on the local server (created if missing,
emptied if not), so a run starts from nothing and never touches the tests' databases."""

from __future__ import annotations

PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"


def empty_database(name: str) -> str:
    """The URL of database ``name``, created if missing, its public schema emptied."""
    from sqlalchemy import create_engine, text

    admin = create_engine(f"{PG_SERVER}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        if not connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                                  {"name": name}).first():
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    url = f"{PG_SERVER}/{name}"
    bench = create_engine(url)
    with bench.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    bench.dispose()
    return url
