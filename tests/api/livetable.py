"""Helpers for the live-table API tests: open a table, claim seats, submit moves, replay.

Not a test module (pytest collects test_*.py only); imported by tests/api/test_live_*.py.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, Iterable

from sqlmodel import Session, select

from companion.models import GameTable, Move
from companion.rules.ra import RA
from companion.rules.ra.setup import setup as ra_setup
from companion.services import live_tables as live

NAMES = ["Ana", "Bea", "Cyril"]
SUN_GROUPS = [[13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]]     # seat 0 (13) starts
_keys = itertools.count()


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def new_key(prefix: str = "k") -> str:
    return f"{prefix}-{next(_keys)}"


class LiveTable:
    """One table opened through the API, with its host token and every seat's token."""

    def __init__(self, client, names=NAMES, groups=SUN_GROUPS, options=None, claim=True):
        self.client = client
        self.names = list(names)
        self.groups = [list(g) for g in groups]
        self.options = dict(options or {})
        response = client.post("/api/v1/tables", json={
            "game": "ra", "options": self.options, "players": self.names,
            "setup": {"sun_groups": self.groups}})
        assert response.status_code == 201, response.get_data(as_text=True)
        self.opened = response.get_json()
        self.id: str = self.opened["id"]
        self.host: str = self.opened["host_token"]
        self.version: int = self.opened["version"]
        self.tokens: list[str | None] = [None] * len(self.names)
        self.log: list[tuple[int, dict[str, Any]]] = []   # moves in effect, as the test sees them
        if claim:
            for seat in range(len(self.names)):
                self.tokens[seat] = self.claim(seat).get_json()["seat_token"]

    def for_client(self, client) -> "LiveTable":
        """The same table, tokens and version, seen through another client (another phone)."""
        other = LiveTable.__new__(LiveTable)
        other.__dict__.update(self.__dict__, client=client, log=list(self.log))
        return other

    # ---- requests ---------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"/api/v1/tables/{self.id}"

    def claim(self, seat: int, token: str | None = None):
        return self.client.post(f"{self.url}/seats/{seat}/claim", headers=bearer(token))

    def get(self, token: str | None = None):
        return self.client.get(self.url, headers=bearer(token))

    def move(self, seat: int, move: Any, *, version: int | None = None, key: str | None = None,
             token: str | None = "seat", **kwargs):
        """POST a move for ``seat`` (its own token unless ``token`` says otherwise); a 200
        advances the version and the log this helper keeps."""
        token = self.tokens[seat] if token == "seat" else token
        body = {"move": move, "version": self.version if version is None else version,
                "idempotency_key": key or new_key()}
        response = self.client.post(f"{self.url}/moves", json=body, headers=bearer(token),
                                    **kwargs)
        if response.status_code == 200 and response.get_json()["version"] > self.version:
            self.version = response.get_json()["version"]
            self.log.append((seat, move))
        return response

    def ok(self, seat: int, move: dict[str, Any], **kwargs) -> dict[str, Any]:
        response = self.move(seat, move, **kwargs)
        assert response.status_code == 200, response.get_data(as_text=True)
        return response.get_json()

    def undo(self, token: str | None, *, version: int | None = None, key: str | None = None):
        response = self.client.post(f"{self.url}/undo", headers=bearer(token), json={
            "version": self.version if version is None else version,
            "idempotency_key": key or new_key("u")})
        if response.status_code == 200:
            self.version = response.get_json()["version"]
            self.log.pop()
        return response

    # ---- the engine's view of the same game -------------------------------------------------

    def setup_state(self) -> dict[str, Any]:
        return ra_setup(self.options, self.names, self.groups)

    def state(self) -> dict[str, Any]:
        """The engine state after the log this helper kept (replayed from setup)."""
        return replay(self.setup_state(), self.log)

    def shown(self, state: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
        """What the API shows of ``state`` (the ruleset's view, with this table's options)."""
        return RA.view(state, seat, live.clean_options(RA, self.options))


def replay(state: dict[str, Any], log: Iterable[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    for seat, move in log:
        state = RA.apply(state, seat, move)
    return state


def pick(rng: random.Random, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """A seeded random legal move; a drawn tile is picked by bag weight, as from a real bag
    (so the Ra tiles come out at the real pace and a game is a real length)."""
    move = rng.choice(RA.legal_moves(state, seat))
    if move["type"] == "draw":
        bag = state["bag"]
        kinds = list(bag)
        move = {"type": "draw", "tile": rng.choices(kinds, weights=[bag[k] for k in kinds])[0]}
    return move


def db_session(app) -> Session:
    return Session(app.extensions["scribe.engine"])


def stored_moves(app, table_id: str) -> list[Move]:
    with db_session(app) as session:
        return list(session.exec(select(Move).where(Move.table_id == table_id)
                                 .order_by(Move.seq)).all())


def stored_table(app, table_id: str) -> GameTable:
    with db_session(app) as session:
        table = session.get(GameTable, table_id)
        session.expunge(table)
        return table


def replayed_from_db(app, table_id: str, version: int | None = None) -> dict[str, Any]:
    """services.live_tables.state_at with an empty cache: the log decides, nothing else."""
    live._CACHE.clear()
    live._NEWEST.clear()
    with db_session(app) as session:
        table = session.get(GameTable, table_id)
        return live.state_at(session, table, version)
