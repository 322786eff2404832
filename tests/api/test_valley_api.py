"""Valley of the Kings through the JSON API: the correction window of spec §7 is the undo
window (``Ruleset.undo_floor``; the table service keeps the highest floor it has seen)."""

from __future__ import annotations

import pytest

from tests.api.livetable import bearer, new_key, stored_table

pytestmark = pytest.mark.db

PYRAMID = {"B1": "axe", "B2": "dagger", "B3": "sling", "M1": "ring", "M2": "brooch", "T": "nut"}


class ValleyTable:
    """A two-player Afterlife table opened over HTTP, both seats claimed."""

    def __init__(self, client):
        self.client = client
        response = client.post("/api/v1/tables", json={
            "game": "valley", "players": ["Ana", "Bo"],
            "setup": {"start_player": 0, "pyramid": PYRAMID, "boneyard": "spear"}})
        assert response.status_code == 201, response.get_data(as_text=True)
        opened = response.get_json()
        self.id, self.host, self.version = opened["id"], opened["host_token"], 0
        self.url = f"/api/v1/tables/{self.id}"
        self.tokens = [client.post(f"{self.url}/seats/{n}/claim").get_json()["seat_token"]
                       for n in (0, 1)]

    def move(self, seat: int, move: dict) -> dict:
        response = self.client.post(f"{self.url}/moves", headers=bearer(self.tokens[seat]),
                                    json={"move": move, "version": self.version,
                                          "idempotency_key": new_key("v")})
        assert response.status_code == 200, response.get_data(as_text=True)
        self.version = response.get_json()["version"]
        return response.get_json()["state"]

    def undo(self, token: str):
        response = self.client.post(f"{self.url}/undo", headers=bearer(token),
                                    json={"version": self.version,
                                          "idempotency_key": new_key("u")})
        if response.status_code == 200:
            self.version = response.get_json()["version"]
        return response


def test_undo_inside_the_correction_window_and_refused_after_the_next_card_play(app, client):
    table = ValleyTable(client)
    table.move(0, {"type": "seal", "card": "shabti"})
    table.move(0, {"type": "buy", "slot": "B1", "cost": 2,
                   "pay": [{"card": "urn", "capital": 1}, {"card": "box_of_food",
                                                           "capital": 1}]})
    table.move(0, {"type": "end_turn"})
    state = table.move(0, {"type": "refill", "cards": ["?"]})
    assert state["current"] == 1 and state["correction_from"] == 0

    # Inside the window: Ana takes back her refill and enters the card she really drew.
    assert table.undo(table.tokens[0]).status_code == 200
    state = table.move(0, {"type": "refill", "cards": ["khopesh"]})
    assert state["pyramid"][5] == "khopesh"

    # Bo seals a card: sealing is not playing (§6), so Ana's turn is still correctable.
    table.move(1, {"type": "seal", "card": "shabti"})
    assert stored_table(app, table.id).undo_floor == 0
    assert table.undo(table.host).status_code == 200          # the host takes the seal back
    assert table.undo(table.tokens[0]).status_code == 200     # and Ana her refill
    table.move(0, {"type": "refill", "cards": ["khopesh"]})

    # Bo's first card play closes Ana's turn for good.
    state = table.move(1, {"type": "buy", "slot": "B1", "cost": 3,
                           "pay": [{"card": "urn", "capital": 1}, {"card": "offering_table",
                                                                   "capital": 2}]})
    assert state["correction_from"] == 4
    assert stored_table(app, table.id).undo_floor == 4
    assert table.undo(table.tokens[1]).status_code == 200     # his own card play: still open
    refused = table.undo(table.host)                          # Ana's refill: closed
    assert refused.status_code == 409
    assert refused.get_json()["error"] == "table.correction_closed"
    assert client.get(table.url).get_json()["version"] == table.version


@pytest.mark.parametrize("names, options, code, field", [
    ([], {}, "table.bad_players", "players"),
    ([f"P{n}" for n in range(7)], {"pool": "six_players"}, "table.bad_player_count", "players"),
    ([f"P{n}" for n in range(5)], {}, "valley.pool_player_count", "options.pool"),
])
def test_a_wrong_player_count_is_refused_naming_its_field(client, names, options, code, field):
    response = client.post("/api/v1/tables", json={"game": "valley", "players": names,
                                                   "options": options})
    assert response.status_code == 422
    assert (response.get_json()["error"], response.get_json()["field"]) == (code, field)
