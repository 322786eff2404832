"""POST /api/v1/score: the same Scoresheet as the engine, 4xx with a field for bad input."""

from __future__ import annotations

import copy

import pytest

from companion.models import GameTable, Seat
from companion.rules import Capability, all_rulesets
from companion.rules.base import InvalidDocument
from companion.rules.ra.final import score_final
from tests.factories import ra_document

pytestmark = pytest.mark.db


def test_answer_is_the_scoresheet_in_input_order(client):
    document = ra_document(players=5)
    response = client.post("/api/v1/score", json=document)
    assert response.status_code == 200
    body = response.get_json()
    assert body == score_final(document).as_dict()
    assert [p["name"] for p in body["players"]] == [p["name"] for p in document["players"]]
    assert set(body) >= {"game", "players", "winners"}
    assert set(body["players"][0]) == {"name", "total", "rank", "breakdown"}


def _broken(mutate):
    document = ra_document(players=4)
    mutate(document)
    return document


BAD = [
    ("too few players", lambda d: d["players"].__delitem__(slice(1, None)),
     "ra.bad_player_count", "players"),
    ("six players", lambda d: d["players"].extend(copy.deepcopy(d["players"][:2])),
     "ra.bad_player_count", "players"),
    ("empty name", lambda d: d["players"][2].__setitem__("name", "  "), "schema.empty",
     "players.2.name"),
    ("duplicate name", lambda d: d["players"][3].__setitem__("name", "ANA"),
     "ra.duplicate_name", "players.3.name"),
    ("negative", lambda d: d["players"][1]["epochs"][0].__setitem__("gold", -1),
     "schema.negative", "players.1.epochs.0.gold"),
    ("fraction", lambda d: d["players"][1]["epochs"][2].__setitem__("niles", 1.5),
     "schema.not_integer", "players.1.epochs.2.niles"),
    ("string count", lambda d: d["players"][0]["monuments"].__setitem__("palace", "2"),
     "schema.not_integer", "players.0.monuments.palace"),
    ("unknown kind", lambda d: d["players"][0]["monuments"].__setitem__("ziggurat", 1),
     "schema.unknown_key", "players.0.monuments.ziggurat"),
    ("epochs differ", lambda d: d["players"][2]["epochs"].pop(),
     "ra.epoch_count_mismatch", "players.2.epochs"),
    ("26 pharaohs", lambda d: d["players"][3]["epochs"][0].__setitem__("pharaohs", 25),
     "ra.too_many_tiles", "players.3.epochs.0.pharaohs"),
    ("sixth sphinx", lambda d: [p["monuments"].__setitem__("sphinx", 2) for p in d["players"]],
     "ra.too_many_tiles", "players.2.monuments.sphinx"),
    ("nine gods at once", lambda d: d["players"][0]["epochs"][0].__setitem__("gods", 9),
     "ra.too_many_tiles", "players.0.epochs.0.gods"),
    ("ninth god over the game", lambda d: d["players"][0]["epochs"][1].__setitem__("gods", 7),
     "ra.too_many_tiles", "players.1.epochs.1.gods"),   # where the running count passes 8
    ("13 floods", lambda d: d["players"][0]["epochs"][2].__setitem__("floods", 12),
     "ra.too_many_tiles", "players.0.epochs.2.floods"),
    ("sixth gold", lambda d: d["players"][1]["epochs"][1].__setitem__("gold", 5),
     "ra.too_many_tiles", "players.1.epochs.1.gold"),
    ("sixth writing", lambda d: d["players"][3]["epochs"][2]["civilizations"]
     .__setitem__("writing", 5), "ra.too_many_tiles",
     "players.3.epochs.2.civilizations.writing"),
    ("duplicate sun", lambda d: d["players"][1]["suns"].__setitem__(0, 13),
     "ra.duplicate_sun", "players.1.suns.0"),
    ("sun out of range", lambda d: d["players"][1]["suns"].__setitem__(0, 16),
     "ra.sun_out_of_range", "players.1.suns.0"),
    ("too many suns", lambda d: d["players"][1]["suns"].append(1), "ra.sun_count",
     "players.1.suns"),
    ("no suns after epoch 3", lambda d: d["players"][0].pop("suns"), "ra.suns_required",
     "players.0.suns"),
    ("not a document", lambda d: d.clear() or d.update({"game": "ra", "players": 5}),
     "schema.not_list", "players"),
]


@pytest.mark.parametrize("mutate, code, field", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_documents_get_422_naming_the_field(client, count_rows, mutate, code, field):
    response = client.post("/api/v1/score?save=1", json=_broken(mutate))
    assert response.status_code == 422
    body = response.get_json()
    assert (body["error"], body["field"]) == (code, field), body
    assert body["message"] and isinstance(body["errors"], list)
    assert count_rows(GameTable) == 0


@pytest.mark.parametrize("payload, content_type, status, code", [
    (b"{not json", "application/json", 400, "bad_json"),
    (b'{"game": "ra"}', "text/plain", 400, "bad_json"),
    (b'[1, 2]', "application/json", 422, "score.not_object"),
    (b'{"game": "chess", "players": []}', "application/json", 422, "score.unknown_game"),
    (b'{"players": []}', "application/json", 422, "score.unknown_game"),
])
def test_malformed_requests(client, payload, content_type, status, code):
    response = client.post("/api/v1/score", data=payload, content_type=content_type)
    assert response.status_code == status
    assert response.get_json()["error"] == code


def test_api_errors_are_json_and_never_500(client):
    assert client.get("/api/v1/score").status_code == 405
    assert client.get("/api/v1/score").get_json()["error"] == "http_405"
    big = b'{"game": "ra", "players": [' + b" " * (2 * 1024 * 1024) + b"]}"
    response = client.post("/api/v1/score", data=big, content_type="application/json")
    assert response.status_code == 413 and response.get_json()["error"] == "http_413"


def test_messages_follow_accept_language(client):
    document = ra_document(players=4)
    document["players"][1]["epochs"][0]["gold"] = -1
    english = client.post("/api/v1/score", json=document).get_json()["message"]
    czech = client.post("/api/v1/score", json=document,
                        headers={"Accept-Language": "cs"}).get_json()["message"]
    hungarian = client.post("/api/v1/score", json=document,
                            headers={"Accept-Language": "hu-HU"}).get_json()["message"]
    assert english == "This must not be negative."
    assert len({english, czech, hungarian}) == 3


def test_save_keeps_a_finished_table(client, count_rows):
    response = client.post("/api/v1/score?save=1", json=ra_document(players=3))
    table_id = response.get_json()["table"]
    assert count_rows(Seat) == 3
    assert client.get(f"/tables/{table_id}").status_code == 200


def test_games_listing(client):
    games = client.get("/api/v1/games").get_json()["games"]
    assert {"id": "ra", "names": {"en": "Ra", "cs": "Ra", "hu": "Ra"},
            "player_counts": [2, 3, 4, 5], "live_player_counts": [2, 3, 4, 5],
            "capabilities": ["live", "print", "score"]} in games


@pytest.mark.parametrize("game", [r.id for r in all_rulesets(Capability.SCORE)])
def test_a_document_of_40000_players_is_refused_at_once(client, game, monkeypatch):
    """Issue 21 §1: the game's own player limit is checked before any other work: the game
    never reads the document, and the refusal takes well under 0.2 s."""
    import time

    from companion.rules import get_ruleset
    from companion.services.scoring import score_to_keep

    document = {"game": game, "players": [{"name": "x"}] * 40_000}
    answer = client.post("/api/v1/score", json=document)
    assert answer.status_code == 422
    body = answer.get_json()
    assert body["error"] == f"{game}.bad_player_count" and body["field"] == "players"
    assert len(body["errors"]) == 1

    ruleset = get_ruleset(game)

    def never(_document):
        raise AssertionError("the game read a document it should have refused")

    monkeypatch.setattr(ruleset, "score_final", never)
    started = time.perf_counter()
    with pytest.raises(InvalidDocument):
        score_to_keep(ruleset, document)
    assert time.perf_counter() - started < 0.2


def test_a_long_list_of_errors_is_capped(client):
    document = {"game": "ra", "players": [{"name": "", "epochs": [{"gods": -1}] * 3}] * 5}
    document["players"] = [dict(p, junk1=1, junk2=2, junk3=3, junk4=4, junk5=5, junk6=6,
                                junk7=7, junk8=8, junk9=9, junk10=10, junk11=11)
                           for p in document["players"]]
    body = client.post("/api/v1/score", json=document).get_json()
    assert body["errors_not_listed"] > 0
    assert len(body["errors"]) == 51 and body["errors"][-1]["error"] == "more_errors"
    assert str(body["errors_not_listed"]) in body["errors"][-1]["message"]
