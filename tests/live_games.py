"""A seeded random game played to the end at a live table (the story, the report and the
accessibility sweep read finished games of every kind)."""

from __future__ import annotations

from benchmarks.games import random_game
from companion import db
from companion.services import live_tables as live


def finished_live_game(app, game: str, seed: int) -> tuple[str, list]:
    """A seeded random game of ``game`` played to the end through the live-table service:
    (its table id, its move log)."""
    _game, options, names, setup, log = random_game(game, seed)
    with app.app_context():
        session = db.session()
        table = live.open_table(session, game, options, names, setup).table
        for number, (seat, move) in enumerate(log):
            live.submit_move(session, table, seat, move, table.version, f"{game}-{number}")
        assert table.status == "finished"
        return table.id, log
