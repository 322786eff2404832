"""Issue 11 §3: four phones submitting at the same moment in a simultaneous step (every seat of
a 4-player Silver & Gold – Pyramids table marking the same revealed shape) are all accepted on
the version they saw: nobody sees an error, and the table moves on by four versions."""

from __future__ import annotations

import random
import threading

import pytest
from sqlmodel import select

from companion import db
from companion.models import Move
from companion.rules import get_ruleset
from companion.services import live_tables as live

pytestmark = pytest.mark.db

NAMES = ["Ana", "Bo", "Cy", "Dan"]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _state(app, table: str):
    with app.app_context():
        return live.state_at(db.session(), live.get_table(db.session(), table))


def test_four_phones_mark_at_the_same_moment(app):
    client = app.test_client()
    ruleset = get_ruleset("pyramids")
    opened = client.post("/api/v1/tables", json={"game": "pyramids", "players": NAMES})
    assert opened.status_code == 201, opened.get_data(as_text=True)
    table = opened.get_json()["id"]
    tokens = [client.post(f"/api/v1/tables/{table}/seats/{n}/claim").get_json()["seat_token"]
              for n in range(len(NAMES))]
    rng = random.Random(11)
    # play (deal, keep, offer, reveal…) until all four seats are awaited in one marking step
    for step in range(300):
        state = _state(app, table)
        awaited = ruleset.awaiting(state)
        moves = {seat: ruleset.legal_moves(state, seat) for seat in sorted(awaited.seats)}
        if len(awaited.seats) == len(NAMES) and awaited.step is not None and all(
                any(m["type"] == "mark" for m in options) for options in moves.values()):
            break
        chance = ruleset.chance(state)
        if chance is not None and chance.seats:
            seat, move = min(chance.seats), chance.draw(rng)
        else:
            seat = min(awaited.seats)
            move = rng.choice(moves[seat])
        version = client.get(f"/api/v1/tables/{table}").get_json()["version"]
        answer = client.post(f"/api/v1/tables/{table}/moves", headers=_bearer(tokens[seat]),
                             json={"move": move, "version": version,
                                   "idempotency_key": f"set-up-{step}"})
        assert answer.status_code == 200, answer.get_data(as_text=True)
    else:
        raise AssertionError("no marking step awaited every seat")
    version = client.get(f"/api/v1/tables/{table}").get_json()["version"]
    marks = {seat: next(m for m in options if m["type"] == "mark")
             for seat, options in moves.items()}
    barrier = threading.Barrier(len(NAMES))
    results: dict[int, tuple[int, str]] = {}

    def phone(seat: int) -> None:
        own = app.test_client()
        barrier.wait()
        answer = own.post(f"/api/v1/tables/{table}/moves", headers=_bearer(tokens[seat]),
                          json={"move": marks[seat], "version": version,
                                "idempotency_key": f"mark-{seat}"})
        results[seat] = (answer.status_code, answer.get_data(as_text=True)[:300])

    threads = [threading.Thread(target=phone, args=(seat,)) for seat in range(len(NAMES))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {seat: status for seat, (status, _body) in results.items()} \
        == {seat: 200 for seat in range(len(NAMES))}, results
    after = client.get(f"/api/v1/tables/{table}").get_json()
    assert after["version"] == version + len(NAMES)
    with app.app_context():                 # each seat's own mark, once, as it was sent
        logged = db.session().exec(select(Move).where(Move.table_id == table,
                                                      Move.version > version)).all()
        assert sorted((m.seat, m.move["type"]) for m in logged) \
            == [(seat, "mark") for seat in range(len(NAMES))]
        assert all(m.move == marks[m.seat] for m in logged)
