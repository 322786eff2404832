"""Storage faults heal by themselves (issue 21 §2): while the SQLite file cannot be written,
writes answer 503 ``storage_unavailable`` (a friendly page on the web) and reads go on; once
it can be written again every write works within seconds, with no restart; nothing is
half-written."""

from __future__ import annotations

import shutil
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.models import GameTable, Move
from tests.api.livetable import LiveTable

pytestmark = pytest.mark.db


def _database_file(app) -> Path | None:
    url = app.config["DATABASE_URL"]
    return Path(url.removeprefix("sqlite:///")) if url.startswith("sqlite:///") else None


@contextmanager
def unwritable(path: Path):
    """The file cannot be written while the block runs (immutable: even root cannot)."""
    if shutil.which("chattr") is None:
        pytest.skip("needs chattr")
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("this file system or user cannot make a file immutable")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_writes_answer_503_during_the_fault_and_work_again_after_it(app, count_rows):
    path = _database_file(app)
    if path is None:
        pytest.skip("a SQLite file fault")
    client = app.test_client()
    table = LiveTable(client)
    table.ok(0, {"type": "draw", "tile": "pharaoh"})
    tables, moves = count_rows(GameTable), count_rows(Move)
    app.extensions["scribe.engine"].dispose()   # connections opened during the fault, as under load
    with unwritable(path):
        for _ in range(3):
            opened = client.post("/api/v1/tables", json={
                "game": "ra", "players": ["Ana", "Bea", "Cyril"],
                "setup": {"sun_groups": [[13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]]}})
            assert opened.status_code == 503, opened.get_data(as_text=True)
            assert opened.get_json()["error"] == "storage_unavailable"
            assert opened.headers["Retry-After"]
        moved = table.move(1, {"type": "draw", "tile": "pharaoh"})
        assert moved.status_code == 503 and moved.get_json()["error"] == "storage_unavailable"
        page = client.post("/tables/new/ra", data={"_players": "3", "action": "open",
                                                   "players.0": "Ana", "players.1": "Bea",
                                                   "players.2": "Cyril"})
        assert page.status_code == 503 and "Nothing was lost" in page.get_data(as_text=True)
        seen = client.get(f"/api/v1/tables/{table.id}")              # reads go on
        assert seen.status_code == 200 and seen.get_json()["version"] == table.version
    healed_at = time.monotonic()
    while True:                                   # every write works again, by itself
        again = table.move(1, {"type": "draw", "tile": "pharaoh"})
        if again.status_code == 200:
            break
        assert again.status_code == 503 and time.monotonic() - healed_at < 5, \
            again.get_data(as_text=True)
    for _ in range(10):                           # not just once: every pooled connection
        reopened = LiveTable(client)
        assert reopened.version == 0
    assert count_rows(GameTable) == tables + 10
    assert count_rows(Move) == moves + 1           # the refused move was never half-written


def test_a_read_while_the_database_cannot_be_reached_answers_503_as_documented(app):
    """A read cannot go on when the database itself is gone (a server down, a file moved
    away): 503 ``storage_unavailable`` too, which the API document lists for every operation;
    the next read after it is back works."""
    path = _database_file(app)
    if path is None:
        pytest.skip("a SQLite file fault")
    client = app.test_client()
    table = LiveTable(client)
    read = client.get("/api/openapi.json").get_json()["paths"]["/api/v1/tables/{table_id}"]
    assert "503" in read["get"]["responses"]
    app.extensions["scribe.engine"].dispose()
    away = path.with_name("away.db")
    path.rename(away)
    path.mkdir()                                  # nothing a database can be opened from
    try:
        seen = client.get(f"/api/v1/tables/{table.id}")
        assert seen.status_code == 503 and seen.get_json()["error"] == "storage_unavailable"
    finally:
        path.rmdir()
        away.rename(path)
    assert client.get(f"/api/v1/tables/{table.id}").status_code == 200
