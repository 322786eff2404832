"""Pharaon's score-only mode over HTTP (issue 14): POST /api/v1/score with the contract's
final-state document answers the Scoresheet naming the gods chosen, and every refusal the
contract lists is a 422 naming its field."""

from __future__ import annotations

import copy

import pytest

from companion.models import GameTable

pytestmark = pytest.mark.db

UNREACHABLE = {"threshold": 9, "points": 9}

# The contract's document (issue 14) with a second player. The issue's Ana owns nobles
# 12, 6 and 15 and a Scribe entry for card 3, which she does not own: here she owns 3.
# Ana's counts: 3 offerings, 3 nobles, 3 artisans, 3 Nile tracks ≥ 1, 4 tomb steps. A god
# needs both halves (§5.1); Isis and Anubis need 9. Osiris (Nile 2) and Seth (Nile 2) cannot
# share Ana's 3 Nile tracks (§5.2 exclusivity): Seth pays more, and her Scribe in the Tomb
# area adds 4 for him, so Horus and Seth are chosen.
CONTRACT = {
    "game": "pharaon",
    "board": {"areas": ["OFF", "NOB", "ART", "NIL", "TMB"],
              "gods": [{"name": "Horus", "a": {"threshold": 2, "points": 4},
                        "b": {"threshold": 1, "points": 3}},
                       {"name": "Isis", "a": dict(UNREACHABLE), "b": dict(UNREACHABLE)},
                       {"name": "Osiris", "a": {"threshold": 3, "points": 2},
                        "b": {"threshold": 2, "points": 3}},
                       {"name": "Seth", "a": {"threshold": 2, "points": 5},
                        "b": {"threshold": 2, "points": 1}},
                       {"name": "Anubis", "a": dict(UNREACHABLE), "b": dict(UNREACHABLE)}]},
    "players": [
        {"name": "Ana", "nobles": [12, 3, 15], "scribes": [{"card": 3, "area": "TMB"}],
         "artisans": [3, 3, 5], "nile": [3, 2, 1, 0, 0], "tomb_steps": 4, "tomb_points": 12,
         "basic": 4, "silver": 1,
         "offerings": {"resource": 1, "area": 1, "plus1": 0, "plus2": 1}},
        {"name": "Bo", "nobles": [2], "scribes": [], "artisans": [3],
         "nile": [1, 0, 0, 0, 0], "tomb_steps": 1, "tomb_points": 5, "basic": 2, "silver": 0,
         "offerings": {"resource": 0, "area": 0, "plus1": 0, "plus2": 0}}],
    "pharaoh": "Ana", "first_player": "Bo"}


def _line(player: dict, category: str) -> dict:
    return next(line for line in player["breakdown"]["categories"]
                if line["category"] == category)


def test_a_valid_document_is_scored_with_the_chosen_gods(client, count_rows):
    response = client.post("/api/v1/score", json=CONTRACT)
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    ana, bo = body["players"]
    gods = _line(ana, "gods")
    assert gods["detail"]["gods"] == ["Horus", "Seth"]
    assert gods["detail"]["indices"] == [0, 3]
    assert gods["points"] == (4 + 3) + (5 + 1)
    assert _line(bo, "gods")["detail"]["gods"] == [] and _line(bo, "gods")["points"] == 0
    for player in (ana, bo):
        assert player["total"] == sum(line["points"]
                                      for line in player["breakdown"]["categories"])
    assert _line(ana, "tomb")["points"] == 12
    assert _line(ana, "artisans")["points"] == 3 + 3 + 5
    assert body["winners"] == ["Ana"] and (ana["rank"], bo["rank"]) == (1, 2)
    assert count_rows(GameTable) == 0


def test_the_gods_follow_the_counts_over_http(client):
    # Ana keeps one offering: Horus's threshold of 2 is no longer met.
    document = copy.deepcopy(CONTRACT)
    document["players"][0]["offerings"].update(area=0, plus2=0)
    body = client.post("/api/v1/score", json=document).get_json()
    assert _line(body["players"][0], "gods")["detail"]["gods"] == ["Seth"]
    # Her Tomb falls to one step: Seth is out of reach, Osiris is chosen instead.
    document["players"][0].update(tomb_steps=1, tomb_points=5)
    body = client.post("/api/v1/score", json=document).get_json()
    assert _line(body["players"][0], "gods")["detail"]["gods"] == ["Osiris"]


def _edit(path: str, value):
    """The contract document with one value changed (``path`` dotted)."""
    document = copy.deepcopy(CONTRACT)
    *keys, last = path.split(".")
    node = document
    for key in keys:
        node = node[int(key)] if key.isdigit() else node[key]
    node[int(last) if last.isdigit() else last] = value
    return document


def _too_many_plus2():
    document = copy.deepcopy(CONTRACT)
    document["players"][0]["offerings"]["plus2"] = 3
    document["players"][1]["offerings"]["plus2"] = 2         # the box holds 4
    return document


BAD = [
    ("noble twice across players", _edit("players.1.nobles", [2, 15]),
     "pharaon.noble_twice", "players.1.nobles.1"),
    ("noble 27", _edit("players.0.nobles", [12, 3, 27]),
     "pharaon.noble_out_of_range", "players.0.nobles.2"),
    ("Scribe card 6", _edit("players.0.scribes", [{"card": 6, "area": "OFF"}]),
     "pharaon.not_a_scribe", "players.0.scribes.0.card"),
    ("Scribe not owned", _edit("players.1.scribes", [{"card": 1, "area": "NIL"}]),
     "pharaon.scribe_not_owned", "players.1.scribes.0.card"),
    ("Nile level 4", _edit("players.0.nile", [3, 2, 4, 0, 0]),
     "schema.too_large", "players.0.nile.2"),
    ("negative basic", _edit("players.1.basic", -1), "schema.negative", "players.1.basic"),
    ("offerings over the box", _too_many_plus2(),
     "pharaon.too_many_offerings", "players.1.offerings.plus2"),
    ("areas not a permutation", _edit("board.areas", ["OFF", "NOB", "NOB", "NIL", "TMB"]),
     "pharaon.areas_not_a_permutation", "board.areas.2"),
    ("unknown pharaoh", _edit("pharaoh", "Cy"), "pharaon.unknown_holder", "pharaoh"),
    ("unknown first player", _edit("first_player", "Zed"), "pharaon.unknown_holder",
     "first_player"),
]


@pytest.mark.parametrize("document, code, field", [b[1:] for b in BAD],
                         ids=[b[0] for b in BAD])
def test_contract_refusals_get_422_naming_the_field(client, count_rows, document, code,
                                                    field):
    response = client.post("/api/v1/score?save=1", json=document)
    assert response.status_code == 422, response.get_data(as_text=True)
    body = response.get_json()
    assert (body["error"], body["field"]) == (code, field), body
    assert body["message"]
    assert [(e["error"], e["field"]) for e in body["errors"]] == [(code, field)]
    assert count_rows(GameTable) == 0


def test_the_issues_own_example_owns_no_scribe_three(client):
    # As printed in issue 14, Ana has nobles 12, 6 and 15 but a Scribe entry for card 3.
    document = _edit("players.0.nobles", [12, 6, 15])
    body = client.post("/api/v1/score", json=document).get_json()
    assert (body["error"], body["field"]) == ("pharaon.scribe_not_owned",
                                              "players.0.scribes.0.card")
