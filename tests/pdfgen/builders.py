"""Tables for the printing tests, built through the services as the app builds them.

Not a test module. ``finished_live_table`` plays a seeded Ra game to the end through
``services.live_tables`` (about 250 moves, under a second on SQLite).
"""

from __future__ import annotations

import random

from sqlmodel import Session

from companion.rules.ra import RA
from companion.rules.ra.state import to_act
from companion.rules.ra.final import score_final
from companion.services import live_tables as live
from companion.services.scoring import save_scored_table
from tests.factories import ra_document

LIVE_NAMES = ["Ana", "Řehoř", "Ödön"]
SUN_GROUPS = [[13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]]


def pick(rng: random.Random, state: dict, seat: int) -> dict:
    """A seeded random legal move; a drawn tile is chosen by bag weight, as from a real bag."""
    move = rng.choice(RA.legal_moves(state, seat))
    if move["type"] == "draw":
        bag = state["bag"]
        move = {"type": "draw", "tile": rng.choices(list(bag), weights=list(bag.values()))[0]}
    return move


def session_for(app) -> Session:
    return Session(app.extensions["scribe.engine"], expire_on_commit=False)


def scored_table(session: Session, players: int = 4, epochs: int = 3) -> str:
    """A score-only Ra table (finished when all three epochs are given)."""
    document = ra_document(players=players, epochs=epochs)
    return save_scored_table(session, document, score_final(document), location="Brno").id


def open_live_table(session: Session, colors=("brown", "white", "black")):
    """A live Ra table that has just been opened (no moves yet), its seats given colours
    (Ra's set-up has none, but a pad draws any seat colour it is given)."""
    table = live.open_table(session, "ra", {}, LIVE_NAMES, {"sun_groups": SUN_GROUPS},
                            location="Győr").table
    for seat, colour in zip(live.seats(session, table), colors):
        seat.color = colour
        session.add(seat)
    session.commit()
    return table


def finished_live_table(session: Session, seed: int = 7) -> str:
    """A live Ra table played to the end with seeded random legal moves; plus one undo."""
    table = open_live_table(session)
    rng = random.Random(seed)
    key = 0
    while table.status != "finished":
        state = live.state_at(session, table)
        seat = to_act(state)
        live.submit_move(session, table, seat, pick(rng, state, seat), table.version,
                         f"k{key}")
        key += 1
        session.refresh(table)
        if key == 5:                                   # one undo: it must not count as a move
            live.undo(session, table, live.HOST, table.version, f"undo{key}")
            session.refresh(table)
    return table.id
