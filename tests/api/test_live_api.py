"""Live tables through the JSON API (companion/api/live_tables.py,
companion/services/live_tables.py).

1. A whole seeded random game played over HTTP, checked move by move against the engine,
   ending with the Scoresheet, the Results rows and the table page.
2. A hand-scripted opening with exact expectations.
3. Bad input: status, error code, and nothing written (version and move log unchanged).
4. Idempotency keys, undo (player, host, refused, several in a row, reopening a finished
   game), and the SSE stream of versions.
"""

from __future__ import annotations

import html
import json
import random
import re
import threading
import time

import pytest
from sqlmodel import select

from companion.models import GameTable, Move, Result, Seat
from companion.rules.ra import RA
from companion.rules.ra.state import to_act
from companion.rules.ra import printed as ra_printed
from tests.api.livetable import (NAMES, SUN_GROUPS, LiveTable, bearer, db_session, pick,
                                 replayed_from_db, stored_moves, stored_table)

pytestmark = pytest.mark.db


def play_to_end(table: LiveTable, seed: int, check=None) -> dict:
    """Play ``table`` to the end with seeded random legal moves; return the engine state.
    ``check(state, seat, move, answer)`` runs after every accepted move."""
    rng = random.Random(seed)
    state = table.state()
    while not RA.is_over(state):
        seat = to_act(state)
        move = pick(rng, state, seat)
        answer = table.ok(seat, move)
        state = RA.apply(state, seat, move)
        if check:
            check(state, seat, move, answer)
    return state


# --------------------------------------------------------------------------------------------
# 1. A whole game
# --------------------------------------------------------------------------------------------


def test_a_whole_random_game_over_http(app, client, count_rows):
    table = LiveTable(client)
    seen_versions = []

    def check(state, seat, move, answer):
        seen_versions.append(answer["version"])
        assert answer["state"] == table.shown(state, seat)
        if not RA.is_over(state):
            # The next player's phone: whose turn it is, and exactly the engine's choices.
            nxt = to_act(state)
            body = table.get(table.tokens[nxt]).get_json()
            assert body["version"] == answer["version"]
            assert body["status"] == "playing"
            assert body["to_act"] == nxt
            assert body["prompts"] == RA.prompts(state, nxt)
            assert body["scores"] is None             # fame hidden during play (default)
            kinds = {m["type"] for m in RA.legal_moves(state, nxt)}
            assert set(body["prompts"]["moves"]) == kinds

    final = play_to_end(table, seed=20261121, check=check)
    moves = len(table.log)
    assert moves > 50
    assert seen_versions == list(range(1, moves + 1))

    body = table.get().get_json()
    sheet = RA.score(final).as_dict()
    assert body["status"] == "finished"
    assert body["to_act"] is None
    assert body["version"] == moves
    assert body["prompts"] == {"moves": []}
    assert body["scores"] == sheet
    assert body["state"]["fame"] == final["fame"]          # shown once the game is over
    assert [p["total"] for p in sheet["players"]] == final["fame"]

    # The log and the results in the database.
    assert count_rows(Move) == moves
    assert count_rows(Result) == 3
    assert replayed_from_db(app, table.id) == final
    with db_session(app) as session:
        rows = session.exec(select(Seat, Result).join(Result, Result.seat_id == Seat.id)
                            .where(Seat.table_id == table.id).order_by(Seat.position)).all()
    assert [(s.name, r.total, r.rank) for s, r in rows] == [
        (p["name"], p["total"], p["rank"]) for p in sheet["players"]]
    stored = stored_table(app, table.id)
    assert stored.status == "finished" and stored.finished_at is not None
    assert stored.final_document == RA.final_document(final)

    # The table page for people names the winner.
    page = client.get(f"/tables/{table.id}")
    assert page.status_code == 200
    text = html.unescape(page.get_data(as_text=True))
    winners = sheet["winners"]
    assert winners
    banner = ("Shared win: " if len(winners) > 1 else "Winner: ") + ", ".join(winners)
    assert banner in text

    # A finished table takes no more moves, and says so.
    refused = table.move(0, {"type": "draw", "tile": "gold"})
    assert refused.status_code == 409
    assert refused.get_json()["error"] == "table.not_playing"
    assert count_rows(Move) == moves


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_with_other_player_counts(client, count_rows, seed):
    """Four and five players (and the bag shown): the scores still equal the engine's."""
    players = 3 + seed
    groups = [list(g) for g in reversed(ra_printed.SUN_GROUPS[players])]
    table = LiveTable(client, names=["P1", "P2", "P3", "P4", "P5"][:players], groups=groups,
                      options={"show_bag_counts": True, "hide_fame_during_play": False})

    def check(state, seat, move, answer):
        assert answer["state"]["bag"] == state["bag"]
        assert answer["state"]["fame"] == state["fame"]
    final = play_to_end(table, seed=seed, check=check)
    body = table.get().get_json()
    assert body["status"] == "finished"
    assert body["scores"] == RA.score(final).as_dict()
    assert count_rows(Result) == players


# --------------------------------------------------------------------------------------------
# 2. A hand-scripted opening
# --------------------------------------------------------------------------------------------


def test_scripted_opening_pharaoh_then_ra_and_an_auction(client, count_rows):
    table = LiveTable(client, options={"show_bag_counts": True})
    assert table.version == 0
    start = table.get(table.tokens[0]).get_json()
    assert start["to_act"] == 0                      # sun 13 starts
    assert start["prompts"]["moves"] == ["draw", "invoke_ra"]
    assert start["state"]["centre"] == 1
    assert table.get(table.tokens[1]).get_json()["prompts"] == {"moves": []}

    # Ana draws a Pharaoh: it lands on the first auction space; Bea is next.
    first = table.ok(0, {"type": "draw", "tile": "pharaoh"})
    assert first["version"] == 1
    assert first["state"]["track"] == ["pharaoh"] + [None] * 7
    assert first["state"]["bag"]["pharaoh"] == 24
    assert first["state"]["current"] == 1
    assert first["prompts"] == {"moves": []}        # Ana's own prompts: not her turn

    # Bea draws Ra: an auction starts, bidding from her left (Cyril), Bea last.
    second = table.ok(1, {"type": "draw", "tile": "ra"})
    assert second["version"] == 2
    state = second["state"]
    assert state["phase"] == "auction"
    assert state["ra_count"] == 1 and state["bag"]["ra"] == 29
    assert state["auction"]["order"] == [2, 0, 1]
    assert state["auction"]["reason"] == "drawn_ra"
    cyril = table.get(table.tokens[2]).get_json()
    assert cyril["to_act"] == 2
    assert cyril["prompts"]["moves"] == ["bid", "pass"]
    assert cyril["prompts"]["suns"] == [11, 10, 7, 4]
    assert cyril["prompts"]["must_bid"] is False

    # Ana may not bid before Cyril.
    early = table.move(0, {"type": "bid", "sun": 13})
    assert early.status_code == 403 and early.get_json()["error"] == "ra.not_bidders_turn"

    table.ok(2, {"type": "bid", "sun": 11})
    ana = table.get(table.tokens[0]).get_json()
    assert ana["to_act"] == 0
    assert ana["prompts"]["suns"] == [13]            # only suns above the high bid (11)
    assert ana["prompts"]["high_bid"] == 11
    low = table.move(0, {"type": "bid", "sun": 8})
    assert low.status_code == 422 and low.get_json()["error"] == "ra.bid_too_low"
    table.ok(0, {"type": "bid", "sun": 13})
    last = table.ok(1, {"type": "pass"})

    # Settlement: Ana wins the Pharaoh and the centre sun (face down), 13 goes to the centre,
    # Cyril's 11 comes back; the next turn is left of the Ra player (Bea): Cyril.
    assert last["version"] == 5
    state = last["state"]
    assert state["phase"] == "turn"
    assert state["current"] == 2
    assert state["holdings"][0]["pharaoh"] == 1
    assert state["suns_down"] == [[1], [], []]
    assert state["suns_up"] == [[8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]]
    assert state["centre"] == 13
    assert state["track"] == [None] * 8
    assert state["auction"] is None
    now = table.get(table.tokens[2]).get_json()
    assert now["to_act"] == 2 and now["version"] == 5
    assert now["prompts"]["moves"] == ["draw", "invoke_ra"]
    assert count_rows(Move) == 5
    assert [(m.seq, m.seat, m.version, m.move) for m in stored_moves(client.application,
                                                                     table.id)] == [
        (1, 0, 1, {"type": "draw", "tile": "pharaoh"}), (2, 1, 2, {"type": "draw", "tile": "ra"}),
        (3, 2, 3, {"type": "bid", "sun": 11}), (4, 0, 4, {"type": "bid", "sun": 13}),
        (5, 1, 5, {"type": "pass"})]


def test_open_and_read_a_table(client):
    opened = client.post("/api/v1/tables", json={"game": "ra", "options": {},
                                                 "players": NAMES,
                                                 "setup": {"sun_groups": SUN_GROUPS}})
    assert opened.status_code == 201
    body = opened.get_json()
    assert set(body) >= {"id", "code", "join_url", "host_token", "version"}
    assert body["version"] == 0 and body["code"] in body["join_url"]
    spectator = client.get(f"/api/v1/tables/{body['id']}").get_json()
    assert spectator["status"] == "playing" and spectator["to_act"] == 0
    assert spectator["prompts"] == {"moves": []}
    assert spectator["state"]["bag"] is None
    assert not any(spectator["state"]["fame"] or [])      # nobody's fame tablets are shown
    opened_seat = client.post(f"/api/v1/tables/{body['id']}/seats/1/claim").get_json()
    bea = client.get(f"/api/v1/tables/{body['id']}",
                     headers=bearer(opened_seat["seat_token"])).get_json()
    assert bea["state"]["fame"] == [None, 10, None]         # her own tablets only (E11)
    host = client.get(f"/api/v1/tables/{body['id']}",
                      headers=bearer(body["host_token"])).get_json()
    assert host["prompts"] == {"moves": []}


@pytest.mark.parametrize("body, status, code", [
    ({"game": "chess", "players": NAMES}, 422, "table.unknown_game"),
    ({"game": "ra", "players": ["A", "B"]}, 422, "ra.bad_player_count"),
    ({"game": "ra", "players": NAMES, "setup": {"sun_groups": [[13, 8, 5, 2]] * 3}}, 422,
     "ra.bad_sun_groups"),
    ({"game": "ra", "players": ["Ana", "ana", "Bo"]}, 422, "table.duplicate_name"),
    ({"game": "ra", "players": NAMES, "options": {"fly": True}}, 422, "schema.unknown_key"),
    ({"game": "ra", "players": NAMES, "setup": []}, 422, "table.bad_setup"),
    ([1, 2], 422, "score.not_object"),
])
def test_opening_a_bad_table_writes_nothing(client, count_rows, body, status, code):
    response = client.post("/api/v1/tables", json=body)
    assert response.status_code == status
    assert response.get_json()["error"] == code
    assert count_rows(GameTable) == 0 and count_rows(Seat) == 0


# --------------------------------------------------------------------------------------------
# 3. Bad input: refused, and nothing changes
# --------------------------------------------------------------------------------------------


@pytest.fixture
def started(client):
    """A table where Ana has drawn a Pharaoh (version 1, Bea to act)."""
    table = LiveTable(client)
    table.ok(0, {"type": "draw", "tile": "pharaoh"})
    return table


def assert_unchanged(table: LiveTable, count_rows, version: int = 1, moves: int = 1):
    assert table.get().get_json()["version"] == version
    assert stored_table(table.client.application, table.id).version == version
    assert count_rows(Move) == moves


def test_malformed_json_is_400_bad_json(started, count_rows):
    response = started.client.post(f"{started.url}/moves", data=b'{"move": {"type": "dr',
                                   content_type="application/json",
                                   headers=bearer(started.tokens[1]))
    assert response.status_code == 400
    assert response.get_json()["error"] == "bad_json"
    assert_unchanged(started, count_rows)


@pytest.mark.parametrize("move, status, code", [
    ({"type": "fly"}, 422, "ra.unknown_move"),
    ({"tile": "gold"}, 422, "ra.bad_move"),
    ("draw", 422, "ra.bad_move"),
    (None, 422, "ra.bad_move"),
    ({"type": "draw", "tile": "dragon"}, 422, "ra.bad_move"),
    ({"type": "draw"}, 422, "ra.bad_move"),
    ({"type": "bid", "sun": 12}, 422, "ra.wrong_phase"),
    ({"type": "use_gods", "take": [0]}, 422, "ra.not_enough_gods"),
    ({"type": "use_gods", "take": [9]}, 422, "ra.bad_move"),
    ({"type": "discard", "tiles": []}, 422, "ra.wrong_phase"),
])
def test_illegal_moves_are_refused(started, count_rows, move, status, code):
    response = started.move(1, move)
    assert response.status_code == status, response.get_json()
    body = response.get_json()
    assert body["error"] == code
    assert set(body) >= {"error", "message", "field"} and body["message"]
    assert_unchanged(started, count_rows)


@pytest.mark.parametrize("seat, code", [(0, "ra.not_your_turn"), (2, "ra.not_your_turn")])
def test_a_move_out_of_turn_is_403(started, count_rows, seat, code):
    response = started.move(seat, {"type": "draw", "tile": "gold"})
    assert response.status_code == 403
    assert response.get_json()["error"] == code
    assert_unchanged(started, count_rows)


@pytest.mark.parametrize("token, code", [
    ("forged-token", "table.bad_token"),
    ("", "table.seat_token_needed"),           # no Authorization header at all
    ("host", "table.seat_token_needed"),       # the host makes no moves
    ("other-table", "table.bad_token"),        # a seat token of another table
])
def test_moves_need_this_tables_seat_token(started, count_rows, token, code):
    if token == "host":
        token = started.host
    elif token == "other-table":
        token = LiveTable(started.client).tokens[1]
    response = started.move(1, {"type": "draw", "tile": "gold"}, token=token or None)
    assert response.status_code == (401 if not token else 403)    # 401: no token at all
    assert response.get_json()["error"] == code
    assert_unchanged(started, count_rows)


def test_a_forged_token_cannot_read_or_undo(started, count_rows):
    assert started.get("forged").status_code == 403
    response = started.undo("forged")
    assert response.status_code == 403 and response.get_json()["error"] == "table.bad_token"
    response = started.undo(None)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Bearer"
    assert response.get_json()["error"] == "table.seat_token_needed"
    assert_unchanged(started, count_rows)


def test_a_stale_version_is_409_with_the_current_one(started, count_rows):
    response = started.move(1, {"type": "draw", "tile": "gold"}, version=0)
    assert response.status_code == 409
    body = response.get_json()
    assert body["error"] == "stale_version" and body["version"] == 1
    assert body["state"]["track"][0] == "pharaoh"         # the table as it is now
    assert body["prompts"]["moves"] == ["draw", "invoke_ra"]
    ahead = started.move(1, {"type": "draw", "tile": "gold"}, version=7)
    assert ahead.status_code == 409 and ahead.get_json()["version"] == 1
    assert_unchanged(started, count_rows)


@pytest.mark.parametrize("body, code", [
    ({"move": {"type": "draw", "tile": "gold"}, "version": "1", "idempotency_key": "a"},
     "table.bad_version"),
    ({"move": {"type": "draw", "tile": "gold"}, "version": True, "idempotency_key": "a"},
     "table.bad_version"),
    ({"move": {"type": "draw", "tile": "gold"}, "idempotency_key": "a"}, "table.bad_version"),
    ({"move": {"type": "draw", "tile": "gold"}, "version": 1}, "table.bad_idempotency_key"),
    ({"move": {"type": "draw", "tile": "gold"}, "version": 1, "idempotency_key": ""},
     "table.bad_idempotency_key"),
    ({"move": {"type": "draw", "tile": "gold"}, "version": 1, "idempotency_key": "x" * 81},
     "table.bad_idempotency_key"),
    ({"move": {"type": "draw", "tile": "gold"}, "version": 1, "idempotency_key": 5},
     "table.bad_idempotency_key"),
    (["not", "an", "object"], "score.not_object"),
])
def test_a_bad_envelope_is_422(started, count_rows, body, code):
    response = started.client.post(f"{started.url}/moves", json=body,
                                   headers=bearer(started.tokens[1]))
    assert response.status_code == 422
    assert response.get_json()["error"] == code
    assert_unchanged(started, count_rows)


def test_a_sixth_gold_tile_is_exhausted(client, count_rows):
    table = LiveTable(client)
    for turn in range(5):                    # Ana, Bea, Cyril, Ana, Bea: all five gold tiles
        table.ok(turn % 3, {"type": "draw", "tile": "gold"})
    response = table.move(2, {"type": "draw", "tile": "gold"})
    assert response.status_code == 422
    body = response.get_json()
    assert body["error"] == "ra.tile_exhausted"
    assert "gold" in body["message"].lower()
    assert_unchanged(table, count_rows, version=5, moves=5)
    assert table.ok(2, {"type": "draw", "tile": "god"})["version"] == 6


@pytest.mark.parametrize("method, suffix", [
    ("get", ""), ("post", "/moves"), ("post", "/undo"), ("post", "/seats/0/claim"),
    ("get", "/events"),
])
def test_an_unknown_table_is_404_json(client, method, suffix):
    response = getattr(client, method)(f"/api/v1/tables/no-such-table{suffix}", json={})
    assert response.status_code == 404
    assert response.is_json
    assert response.get_json()["error"] == "table.not_found"


def test_an_unknown_seat_is_404(client):
    table = LiveTable(client, claim=False)
    response = table.claim(3)
    assert response.status_code == 404
    assert response.get_json()["error"] == "table.no_such_seat"


def test_a_taken_seat_cannot_be_claimed_again(client, count_rows):
    table = LiveTable(client)
    again = table.claim(1)
    assert again.status_code == 409
    assert again.get_json()["error"] == "table.seat_taken"
    forged = table.claim(1, token="forged")
    assert forged.status_code == 403 and forged.get_json()["error"] == "table.bad_token"
    with_seat_token = table.claim(1, token=table.tokens[0])   # another seat is not the host
    assert with_seat_token.status_code == 409
    # Bea's token still works.
    assert table.get(table.tokens[1]).status_code == 200


def test_phones_claiming_one_seat_at_once_get_one_token(app, client):
    """Two people tap the same free seat at the same moment: one gets it, the others a 409,
    and the token that was handed out works (nobody holds a dead token believing it is
    theirs)."""
    table = LiveTable(client, claim=False)
    phones = 6
    barrier = threading.Barrier(phones)
    answers: list = [None] * phones

    def claim(number: int) -> None:
        phone = app.test_client()
        barrier.wait()
        response = phone.post(f"{table.url}/seats/0/claim")
        answers[number] = (response.status_code, response.get_json())

    threads = [threading.Thread(target=claim, args=(n,)) for n in range(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    granted = [body["seat_token"] for status, body in answers if status == 200]
    assert len(granted) == 1, answers
    assert sorted(body["error"] for status, body in answers if status != 200) == [
        "table.seat_taken"] * (phones - 1)
    assert table.get(granted[0]).status_code == 200


def test_the_host_reassigns_a_seat_and_the_old_token_stops_working(client, count_rows):
    table = LiveTable(client)
    table.ok(0, {"type": "draw", "tile": "pharaoh"})
    old = table.tokens[1]
    blind = table.claim(1, token=table.host)              # which claim does it replace?
    assert blind.status_code == 422 and blind.get_json()["field"] == "generation"
    seen = {s["seat"]: s for s in table.get(table.host).get_json()["seats"]}[1]
    stale = client.post(f"{table.url}/seats/1/claim", headers=bearer(table.host),
                        json={"generation": seen["generation"] - 1})
    assert stale.status_code == 409 and stale.get_json()["error"] == "table.seat_changed"
    response = client.post(f"{table.url}/seats/1/claim", headers=bearer(table.host),
                           json={"generation": seen["generation"]})
    assert response.status_code == 200
    new = response.get_json()["seat_token"]
    assert new != old
    refused = table.move(1, {"type": "draw", "tile": "gold"}, token=old)
    assert refused.status_code == 403 and refused.get_json()["error"] == "table.bad_token"
    assert table.get(old).status_code == 403
    assert_unchanged(table, count_rows)
    table.tokens[1] = new
    assert table.ok(1, {"type": "draw", "tile": "gold"})["version"] == 2


def test_seats_of_a_finished_table_cannot_be_claimed(client):
    table = LiveTable(client)
    play_to_end(table, seed=5)
    response = table.claim(0, token=table.host)
    assert response.status_code == 409 and response.get_json()["error"] == "table.closed"


# --------------------------------------------------------------------------------------------
# 4. Idempotency, undo, events
# --------------------------------------------------------------------------------------------


def test_the_same_idempotency_key_twice_gives_the_same_answer(client, count_rows):
    table = LiveTable(client)
    body = {"move": {"type": "draw", "tile": "pharaoh"}, "version": 0, "idempotency_key": "k1"}
    url, headers = f"{table.url}/moves", bearer(table.tokens[0])
    first = client.post(url, json=body, headers=headers)
    again = client.post(url, json=body, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json()
    assert first.get_json()["version"] == 1
    assert count_rows(Move) == 1
    assert table.get().get_json()["version"] == 1

    # The table moves on; a late retry of k1 still gets its own answer, and nothing is added.
    table.version = 1
    table.ok(1, {"type": "draw", "tile": "gold"})
    late = client.post(url, json=body, headers=headers)
    assert late.status_code == 200 and late.get_json() == first.get_json()
    assert count_rows(Move) == 2
    assert table.get().get_json()["version"] == 2


def test_undo_by_the_player_who_moved(client, count_rows):
    table = LiveTable(client)
    before = table.get().get_json()
    table.ok(0, {"type": "draw", "tile": "pharaoh"})
    refused = table.undo(table.tokens[1])                 # Bea did not make that move
    assert refused.status_code == 403
    assert refused.get_json()["error"] == "table.undo_not_allowed"
    assert table.get().get_json()["version"] == 1

    undone = table.undo(table.tokens[0])
    assert undone.status_code == 200
    assert undone.get_json()["version"] == 2
    after = table.get().get_json()
    assert after["version"] == 2
    assert after["state"] == before["state"]
    assert after["to_act"] == 0
    assert undone.get_json()["prompts"]["moves"] == ["draw", "invoke_ra"]   # Ana's again
    [move] = stored_moves(client.application, table.id)
    assert (move.seq, move.version, move.undone_by, move.undone_version) == (1, 1, "seat:0", 2)
    assert move.undone_at is not None
    nothing = table.undo(table.tokens[0])
    assert nothing.status_code == 409
    assert nothing.get_json()["error"] == "table.nothing_to_undo"

    # Play goes on: the next move gets seq 2 and version 3.
    assert table.ok(0, {"type": "draw", "tile": "gold"})["version"] == 3
    moves = stored_moves(client.application, table.id)
    assert [(m.seq, m.version, m.undone_by) for m in moves] == [(1, 1, "seat:0"),
                                                                 (2, 3, None)]
    assert count_rows(Move) == 2


def test_several_undos_in_a_row_restore_earlier_states_exactly(app, client, count_rows):
    table = LiveTable(client)
    rng = random.Random(7)
    views = {0: table.get().get_json()}
    state = table.state()
    for _ in range(6):
        seat = to_act(state)
        move = pick(rng, state, seat)
        table.ok(seat, move)
        state = RA.apply(state, seat, move)
        views[table.version] = table.get().get_json()
    assert table.version == 6
    log = list(table.log)

    # The host undoes three moves, the player of the fourth-last undoes one more.
    for step, version in enumerate((5, 4, 3)):
        response = table.undo(table.host)
        assert response.status_code == 200
        assert response.get_json()["version"] == 7 + step
        now = table.get().get_json()
        assert now["state"] == views[version]["state"]
        assert now["to_act"] == views[version]["to_act"]
        assert replayed_from_db(app, table.id) == replayed_from_db(app, table.id, version)
    last_seat = log[2][0]
    assert table.undo(table.tokens[last_seat]).status_code == 200
    assert table.get().get_json()["state"] == views[2]["state"]
    assert table.version == 10

    # Every move row is kept, the undone ones marked, each undo with its own version.
    moves = stored_moves(app, table.id)
    assert count_rows(Move) == 6
    assert [m.seq for m in moves] == [1, 2, 3, 4, 5, 6]
    assert [m.version for m in moves] == [1, 2, 3, 4, 5, 6]
    assert [m.undone_by for m in moves] == [None, None, f"seat:{last_seat}", "host", "host",
                                            "host"]
    assert [m.undone_version for m in moves] == [None, None, 10, 9, 8, 7]
    # The history is still readable at every version, and equal to what was shown then.
    for version, shown in views.items():
        assert table.shown(replayed_from_db(app, table.id, version)) == shown["state"]
    assert replayed_from_db(app, table.id) == table.state()


def test_undoing_the_final_move_reopens_the_game(app, client, count_rows):
    table = LiveTable(client)
    final = play_to_end(table, seed=11)
    moves = len(table.log)
    last_seat, last_move = table.log[-1]
    assert count_rows(Result) == 3
    assert table.undo(table.tokens[(last_seat + 1) % 3]).status_code == 403

    response = table.undo(table.tokens[last_seat])
    assert response.status_code == 200
    assert response.get_json()["version"] == moves + 1
    body = table.get().get_json()
    assert body["status"] == "playing"
    assert body["to_act"] == last_seat
    assert body["scores"] is None
    assert count_rows(Result) == 0
    stored = stored_table(app, table.id)
    assert stored.status == "playing" and stored.finished_at is None
    assert stored.final_document is None
    assert table.get(table.tokens[last_seat]).get_json()["prompts"]["moves"]

    # The same final move again finishes the game again, with the same scores.
    table.ok(last_seat, last_move)
    body = table.get().get_json()
    assert body["status"] == "finished"
    assert body["scores"] == RA.score(final).as_dict()
    assert count_rows(Result) == 3
    assert count_rows(Move) == moves + 1


def test_a_finished_game_in_a_group_cannot_be_reopened_by_undo(app, client, count_rows):
    """Undoing the end of a play that a group keeps would silently change its history and
    ladder (issue 11 §8): refused; the group's admin corrects or voids it instead."""
    table = LiveTable(client)
    play_to_end(table, seed=11)
    group = client.post("/api/v1/groups", json={"name": "Club"}).get_json()
    recorded = client.post(f"/api/v1/groups/{group['id']}/plays",
                           json={"table": table.id, "table_token": table.host},
                           headers={"Authorization": f"Bearer {group['invite_token']}"})
    assert recorded.status_code == 201
    last_seat, _move = table.log[-1]
    for token in (table.tokens[last_seat], table.host):
        refused = table.undo(token)
        assert refused.status_code == 409 and refused.get_json()["error"] == "table.in_group"
    assert table.get().get_json()["status"] == "finished" and count_rows(Result) == 3


def test_sse_announces_a_move_made_by_another_phone(app, client):
    app.config["SSE_MAX_SECONDS"] = 1
    table = LiveTable(client)
    stream = client.get(f"{table.url}/events", buffered=False)
    assert stream.status_code == 200
    assert stream.mimetype == "text/event-stream"
    chunks = iter(stream.response)
    first = next(chunks).decode()        # subscribed by now: nothing after this is lost

    other = table.for_client(app.test_client())

    def other_phone():
        other.ok(0, {"type": "draw", "tile": "pharaoh"})
        assert other.undo(table.tokens[0]).status_code == 200

    thread = threading.Thread(target=other_phone)
    thread.start()
    text = first + "".join(chunk.decode() for chunk in chunks)
    thread.join(10)
    stream.close()
    events = [json.loads(m) for m in re.findall(r"event: version\nid: \d+\ndata: (.*)\n", text)]
    assert events == [{"version": 0}, {"version": 1}, {"version": 2}]
    assert "retry: 2000" in text


def test_sse_starts_with_the_current_version(app, client):
    app.config["SSE_MAX_SECONDS"] = 0.3
    table = LiveTable(client)
    table.ok(0, {"type": "draw", "tile": "pharaoh"})
    text = client.get(f"{table.url}/events").get_data(as_text=True)
    assert 'event: version\nid: 1\ndata: {"version": 1}\n\n' in text


def test_concurrent_retries_of_one_move_all_get_its_answer(app, client, count_rows):
    """A phone that times out and sends again while the first request is still running: every
    copy gets the one answer, none a stale_version, and the log has the move once."""
    table = LiveTable(client)
    body = {"move": {"type": "draw", "tile": "pharaoh"}, "version": 0, "idempotency_key": "r1"}
    copies = 6
    barrier = threading.Barrier(copies)
    answers: list = [None] * copies

    def send(number: int) -> None:
        phone = app.test_client()
        barrier.wait()
        response = phone.post(f"{table.url}/moves", json=body, headers=bearer(table.tokens[0]))
        answers[number] = (response.status_code, response.get_json())

    threads = [threading.Thread(target=send, args=(n,)) for n in range(copies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert [status for status, _ in answers] == [200] * copies, answers
    assert all(answer == answers[0][1] for _, answer in answers)
    assert answers[0][1]["version"] == 1
    assert count_rows(Move) == 1
    assert table.get().get_json()["version"] == 1


def test_a_failed_announcement_does_not_fail_the_move(app, client, count_rows):
    """The fan-out is a hint sent after the commit: with Redis unreachable the move is still
    200 (not a 500 for a move that was recorded), and so is an undo."""
    from companion.services.broker import RedisBroker
    from tests.test_serve import free_port

    table = LiveTable(client)
    app.extensions["scribe.broker"] = RedisBroker(f"redis://127.0.0.1:{free_port()}/0")
    assert table.ok(0, {"type": "draw", "tile": "pharaoh"})["version"] == 1
    assert table.undo(table.tokens[0]).status_code == 200
    assert count_rows(Move) == 1
    assert table.get().get_json()["version"] == 2


def test_a_local_subscription_keeps_the_subscription_contract(app):
    """LocalBroker: what is published after subscribing is heard, in order; a quiet get()
    waits its timeout; nothing is heard once the subscription ends."""
    from companion.services.broker import LocalBroker

    hub = LocalBroker()
    with hub.subscribe("t1") as subscription, hub.subscribe("t1") as other:
        hub.publish("t1", 1)
        hub.publish("t2", 9)                    # another table: not for us
        hub.publish("t1", 2)
        assert [subscription.get(1), subscription.get(1)] == [1, 2]
        assert [other.get(1), other.get(1)] == [1, 2]
        started = time.monotonic()
        assert subscription.get(0.2) is None
        assert time.monotonic() - started >= 0.15
    assert hub._listeners == {}
    hub.publish("t1", 3)                        # nobody listens: no error


def test_a_table_of_90000_players_is_refused_before_a_name_is_read(client, monkeypatch):
    """Issue 21 §1: the game's own player limit comes first; a 1 MiB list of names costs
    one comparison, not a check of every name against every other."""
    from companion.services import live_tables

    read: list[str] = []
    monkeypatch.setattr(live_tables, "text_problem", lambda name: read.append(name))
    answer = client.post("/api/v1/tables", json={
        "game": "ra", "options": {}, "players": [f"P{n}" for n in range(90_000)]})
    assert answer.status_code == 422
    body = answer.get_json()
    assert body["error"] == "table.bad_player_count" and body["field"] == "players"
    assert "90000" in body["message"] and read == []
