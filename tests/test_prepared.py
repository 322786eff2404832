"""The statements every move runs are handed to the driver as compiled (db.Prepared): what
they write and read is what SQLAlchemy's own run writes and reads, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError

from companion.db import Prepared
from companion.models import GameTable, Move

pytestmark = pytest.mark.db

MOVES, TABLES = Move.__table__, GameTable.__table__


def test_a_prepared_statement_writes_and_reads_as_sqlalchemy_does(app, client):
    opened = client.post("/api/v1/tables", json={"game": "ra", "players": ["A", "B", "C"]})
    table_id = opened.get_json()["id"]
    when = datetime(2026, 5, 1, 20, 15, 30, 123456, tzinfo=timezone.utc)
    move = {"action": "draw", "tiles": ["ř", 3, None], "nested": {"n": 2 ** 40}}
    row = {"table_id": table_id, "seq": 1, "seat": 0, "move": move, "idempotency_key": "k",
           "version": 1, "created_at": when}
    add = Prepared(insert(MOVES).values({name: bindparam(name) for name in row}))
    read = select(MOVES.c.seat, MOVES.c.move, MOVES.c.created_at, TABLES.c.options,
                  TABLES.c.undo_request).join(TABLES, TABLES.c.id == MOVES.c.table_id).where(
        MOVES.c.table_id == bindparam("table_id"))
    with app.extensions["scribe.engine"].connect() as connection:
        assert add.run(connection, row) == 1
        connection.commit()
        core = tuple(connection.execute(read, {"table_id": table_id}).first())
        prepared = Prepared(read).first(connection, {"table_id": table_id})
        assert Prepared(read).first(connection, {"table_id": "none"}) is None
        with pytest.raises(IntegrityError):         # the driver's error, as SQLAlchemy's
            add.run(connection, row)                # (the same key twice in one table)
        connection.rollback()
        assert len(Prepared(read).all(connection, {"table_id": table_id})) == 1
    assert prepared == core                      # JSON decoded, the date parsed, alike
    assert core[1] == move and isinstance(core[3], dict) and core[4] is None
    assert core[2].replace(tzinfo=timezone.utc) == when
