"""The bare baselines of benchmarks/bench_live_load.py, served by gunicorn like Scribe is.

  * ``POST /api/v1/tables/<id>/moves``: parse the JSON body, INSERT one row in one
    transaction, answer a small JSON object: the floor any move endpoint stands on;
  * ``POST /echo``: parse the JSON body, answer a small JSON object: the floor of
    ``POST /api/v1/score``.

``BARE_DATABASE_URL`` names the database (the benchmark creates the ``bare_move`` table
first); the engine is Scribe's (companion.db.make_engine: the same SQLite pragmas).
``wsgi`` is the Flask app (gunicorn ``-k gthread``); ``asgi`` is the same app behind
a2wsgi as Scribe's server runs it (``-k companion.asgi.ScribeWorker``).
"""

from __future__ import annotations

import json
import os

from a2wsgi import WSGIMiddleware
from flask import Flask, request
from sqlalchemy import Column, Integer, MetaData, String, Table, Text, insert

from companion.db import make_engine

ROWS = Table("bare_move", MetaData(), Column("id", Integer, primary_key=True),
             Column("table_id", String(32)), Column("idempotency_key", String(80)),
             Column("move", Text), Column("version", Integer))


def create_table(url: str) -> None:
    """Create (or empty) the bare endpoint's table; run once before the servers start."""
    engine = make_engine(url)
    ROWS.metadata.drop_all(engine)
    ROWS.metadata.create_all(engine)
    engine.dispose()


def create_app() -> Flask:
    engine = make_engine(os.environ["BARE_DATABASE_URL"])
    app = Flask("bare")
    statement = insert(ROWS)

    @app.post("/api/v1/tables/<table_id>/moves")
    def move(table_id: str):
        body = request.get_json()
        with engine.begin() as connection:
            connection.execute(statement, {
                "table_id": table_id, "idempotency_key": body["idempotency_key"],
                "move": json.dumps(body["move"]), "version": body["version"] + 1})
        return {"version": body["version"] + 1}

    @app.post("/echo")
    def echo():
        document = request.get_json()
        return {"players": len(document["players"])}

    return app


if os.environ.get("BARE_DATABASE_URL"):
    wsgi = create_app()
    asgi = WSGIMiddleware(wsgi, workers=int(os.environ.get("BARE_THREADS", "8")))
