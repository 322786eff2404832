"""Builders for group tests: hand-made histories, finished tables in the database, API calls."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, Sequence

from sqlmodel import Session, select

from companion.models import GameTable, Player, Result, Seat, TableMode, TableStatus
from companion.services.tokens import hash_token
from companion.services.history import Line, Play, as_utc

T0 = datetime(2025, 3, 1, 19, 0, tzinfo=timezone.utc)
# The token a phone at every table built here holds (the keeper's of a saved game, the host's
# of a live one): adding a table to a group needs it (issue 10).
TABLE_TOKEN = "token-of-a-phone-at-the-table"
ANA, BEA, CYRIL, DORA = 1, 2, 3, 4
NAMES = {ANA: "Ana", BEA: "Bea", CYRIL: "Cyril", DORA: "Dora"}


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def play(table_id: str, game: str, played_at: datetime, results: Sequence[tuple],
         location: str | None = None) -> Play:
    """Build a Play by hand: ``results`` is ``(player_id, total, rank[, name])`` per seat."""
    lines = tuple(Line(r[0], r[3] if len(r) > 3 else f"P{r[0]}", i, r[1], r[2])
                  for i, r in enumerate(results))
    return Play(table_id, game, as_utc(played_at), location, lines)


def history() -> list[Play]:
    """Six plays with known answers (see test_stats.py for the numbers worked out by hand)."""
    return [
        play("p1", "ra", at(1), [(ANA, 30, 1), (BEA, 25, 2), (CYRIL, 20, 3)]),
        play("p2", "ra", at(2), [(ANA, 28, 2), (BEA, 35, 1), (CYRIL, 10, 3)]),
        play("p3", "ra", at(3), [(ANA, 40, 1), (BEA, 40, 1), (CYRIL, 12, 3)]),
        play("p4", "imhotep", at(4), [(ANA, 50, 2), (CYRIL, 60, 1), (DORA, 45, 3)]),
        play("p5", "ra", at(5), [(BEA, 33, 1), (CYRIL, 32, 2)]),
        play("p6", "ra", at(6), [(ANA, 38, 1), (CYRIL, 38, 2), (BEA, 20, 3)]),
    ]


def engine(app):
    return app.extensions["scribe.engine"]


def finished_table(app, game: str, results: Sequence[tuple[str, int, int]],
                   when: datetime | None = None, location: str | None = None,
                   mode: str = TableMode.SCORE.value, status: str = TableStatus.FINISHED.value,
                   final_document: dict | None = None) -> str:
    """A table with one new player per seat ``(name, total, rank)``, as the score form or a
    live table leaves it; returns its id."""
    when = when or T0
    with Session(engine(app), expire_on_commit=False) as session:
        live = mode == TableMode.LIVE.value
        table = GameTable(game=game, mode=mode, status=status, options={},
                          final_document=final_document or {"game": game}, location=location,
                          created_at=when,
                          finished_at=when if status == TableStatus.FINISHED.value else None,
                          keeper_hash=None if live else hash_token(TABLE_TOKEN),
                          host_token_hash=hash_token(TABLE_TOKEN) if live else None)
        session.add(table)
        session.flush()
        for position, (name, total, rank) in enumerate(results):
            player = Player(name=name)
            session.add(player)
            session.flush()
            seat = Seat(table_id=table.id, position=position, player_id=player.id, name=name)
            session.add(seat)
            session.flush()
            if status == TableStatus.FINISHED.value:
                session.add(Result(seat_id=seat.id, total=total, rank=rank,
                                   breakdown={"categories": [], "stage_totals": []}))
        session.commit()
        return table.id


def rows(app, model, **where) -> list:
    with Session(engine(app)) as session:
        query = select(model)
        for key, value in where.items():
            query = query.where(getattr(model, key) == value)
        return list(session.exec(query).all())


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Api:
    """A tiny client for one group: ``api.get(path)`` with the right token."""

    def __init__(self, client, name: str = "Tuesday night"):
        answer = client.post("/api/v1/groups", json={"name": name})
        assert answer.status_code == 201, answer.get_json()
        body = answer.get_json()
        self.client = client
        self.id = body["id"]
        self.invite = body["invite_token"]
        self.admin = body["admin_token"]

    def url(self, path: str) -> str:
        return f"/api/v1/groups/{self.id}{path}"

    def get(self, path: str = "", token: Any = "invite", **kwargs):
        return self.client.get(self.url(path), headers=bearer(self._token(token)), **kwargs)

    def post(self, path: str, json: Any = None, token: Any = "invite", **kwargs):
        return self.client.post(self.url(path), json=json, headers=bearer(self._token(token)),
                                **kwargs)

    def patch(self, path: str, json: Any = None, token: Any = "admin"):
        return self.client.patch(self.url(path), json=json, headers=bearer(self._token(token)))

    def _token(self, token: Any) -> str | None:
        return {"invite": self.invite, "admin": self.admin}.get(token, token)

    def join(self, name: str) -> int:
        answer = self.post("/players", {"name": name})
        assert answer.status_code in (200, 201), answer.get_json()
        return answer.get_json()["player_id"]

    def record(self, table_id: str, **extra) -> Any:
        answer = self.post("/plays", {"table": table_id, "table_token": TABLE_TOKEN, **extra})
        assert answer.status_code in (200, 201), answer.get_json()
        return answer.get_json()
