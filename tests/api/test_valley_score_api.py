"""Valley of the Kings' score-only mode over HTTP (issue 12): POST /api/v1/score with the
contract-shaped document answers the Scoresheet (winners, a breakdown line per scoring group of
the pool), and every impossible document the contract lists is a 422 naming its field."""

from __future__ import annotations

import copy

import pytest

from companion.models import GameTable
from companion.rules.valley import printed as t
from companion.rules.valley.pools import PoolId, build_pool

pytestmark = pytest.mark.db

STARTERS = ["shabti", "urn", "box_of_food", "offering_table"]

# The issue's document with a second player; Ana's tomb holds the 13 cards it lists.
CONTRACT = {"game": "valley",
            "options": {"pool": "afterlife", "solo": None},
            "edition": {"starter_vp": {"shabti": 1, "urn": 1, "box_of_food": 1,
                                       "offering_table": 1}},
            "players": [
                {"name": "Ana", "tomb_cards": 13,
                 "starters": {"shabti": 3, "urn": 1, "box_of_food": 0, "offering_table": 1},
                 "uniques": [{"title": "Sphinx", "vp": 4}],
                 "distinct": {"mummification": 1, "jewelry": 0, "chambers": 2, "weapons": 4,
                              "tomb_art": 0}},
                {"name": "Bo", "tomb_cards": 6,
                 "starters": {"shabti": 2, "urn": 0, "box_of_food": 1, "offering_table": 0},
                 "uniques": [],
                 "distinct": {"weapons": 3}}]}


def _lines(player: dict) -> dict[str, dict]:
    return {line["category"]: line for line in player["breakdown"]["categories"]}


def _expected_total(player: dict) -> int:
    """The tomb's score by spec §10: starters × 1 VP, uniques' VP, n² per group."""
    return (sum(player["starters"].values()) + sum(u["vp"] for u in player["uniques"])
            + sum(n * n for n in player["distinct"].values()))


def test_the_contract_document_is_scored_with_a_line_per_group(client, count_rows):
    response = client.post("/api/v1/score", json=CONTRACT)
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert body["game"] == "valley"
    ana, bo = body["players"]
    assert (ana["name"], bo["name"]) == ("Ana", "Bo")
    assert ana["total"] == _expected_total(CONTRACT["players"][0])
    assert bo["total"] == _expected_total(CONTRACT["players"][1])
    assert ana["total"] > bo["total"] and body["winners"] == ["Ana"]
    assert (ana["rank"], bo["rank"]) == (1, 2)
    groups = [g.id for g in build_pool(PoolId.AFTERLIFE).groups]
    for player, given in zip((ana, bo), CONTRACT["players"]):
        lines = _lines(player)
        assert set(lines) == set(STARTERS) | {"uniques"} | set(groups)
        for group in groups:
            n = given["distinct"].get(group, 0)
            assert lines[group]["detail"]["distinct"] == n
            assert lines[group]["points"] == n * n
    assert _lines(ana)["uniques"]["detail"]["cards"] == [{"title": "Sphinx", "vp": 4}]
    assert "assumed" not in body                       # every starter VP was given
    assert count_rows(GameTable) == 0                  # scoring alone keeps nothing


def test_the_original_pool_scores_its_own_groups(client):
    document = copy.deepcopy(CONTRACT)
    document["options"]["pool"] = "original"
    document["players"][0]["uniques"] = []
    document["players"][0]["tomb_cards"] = 12
    document["players"][0]["distinct"] = {"sarcophagi": 1, "books": 4, "statuettes": 2}
    document["players"][1]["distinct"] = {"amulets": 3}
    response = client.post("/api/v1/score", json=document)
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    groups = {g.id for g in build_pool(PoolId.ORIGINAL).groups}
    assert groups == {"sarcophagi", "canopic_jars", "amulets", "books", "statuettes"}
    for player, given in zip(body["players"], document["players"]):
        assert set(_lines(player)) - set(STARTERS) - {"uniques"} == groups
        assert player["total"] == _expected_total(given)
    assert body["winners"] == ["Ana"]


def test_a_tie_goes_to_fewer_tomb_cards_over_http(client):
    document = copy.deepcopy(CONTRACT)
    document["players"][1] = copy.deepcopy(document["players"][0])
    document["players"][1]["name"] = "Bo"
    document["players"][1]["uniques"] = [{"title": "Ibex statuette", "vp": 4}]
    document["players"][1]["starters"] = {"shabti": 1, "urn": 1, "box_of_food": 2,
                                          "offering_table": 1}
    document["players"][1]["tomb_cards"] = 14              # one card more than Ana
    body = client.post("/api/v1/score", json=document).get_json()
    assert body["players"][0]["total"] == body["players"][1]["total"]
    assert body["winners"] == ["Ana"]


def _broken(mutate):
    document = copy.deepcopy(CONTRACT)
    mutate(document)
    return document


# The contract's five refusals (issue 12), each naming its field.
BAD = [
    ("more distinct titles than the group has",
     lambda d: d["players"][0]["distinct"].update(weapons=7),
     "VK_COPY_LIMIT", "players.0.distinct.weapons"),
    ("more starters than the pool holds together",
     lambda d: (d["players"][1]["starters"].update(shabti=6),
                d["players"][1].update(tomb_cards=20)),
     "VK_COPY_LIMIT", "players.1.starters.shabti"),
    ("tomb cards fewer than the items listed",
     lambda d: d["players"][1].update(tomb_cards=5),
     "valley.tomb_too_small", "players.1.tomb_cards"),
    ("a unique listed twice across players",
     lambda d: d["players"][1].update(uniques=[{"title": "sphinx", "vp": 4}], tomb_cards=7),
     "VK_COPY_LIMIT", "players.1.uniques.0.title"),
    ("a group id the pool does not have",
     lambda d: d["players"][1]["distinct"].update(books=1),
     "valley.unknown_group", "players.1.distinct.books"),
]


@pytest.mark.parametrize("mutate, code, field", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_impossible_documents_get_422_naming_the_field(client, count_rows, mutate, code,
                                                       field):
    response = client.post("/api/v1/score?save=1", json=_broken(mutate))
    assert response.status_code == 422, response.get_data(as_text=True)
    body = response.get_json()
    assert (body["error"], body["field"]) == (code, field), body
    assert body["message"] and [(e["error"], e["field"]) for e in body["errors"]] == [
        (code, field)]
    assert count_rows(GameTable) == 0


def test_the_issues_own_example_is_refused_for_its_tomb_count(client):
    # As printed in issue 12: one player, 12 tomb cards for 5 starters + 1 unique + 7 titles.
    example = {"game": "valley", "options": {"pool": "afterlife", "solo": None},
               "edition": {"starter_vp": {"shabti": 1, "urn": 1, "box_of_food": 1,
                                          "offering_table": 1}},
               "players": [copy.deepcopy(CONTRACT["players"][0]) | {"tomb_cards": 12}]}
    response = client.post("/api/v1/score", json=example)
    assert response.status_code == 422
    body = response.get_json()
    assert (body["error"], body["field"]) == ("valley.tomb_too_small", "players.0.tomb_cards")
    example["players"][0]["tomb_cards"] = 13
    assert client.post("/api/v1/score", json=example).status_code == 200


def test_the_group_sizes_in_the_refusal_are_the_catalogues(client):
    size = t.SETS["weapons"].size
    document = _broken(lambda d: d["players"][0]["distinct"].update(weapons=size + 1))
    body = client.post("/api/v1/score", json=document).get_json()
    assert f"only {size} different titles" in body["message"]


def test_a_solo_game_answers_won_or_lost_against_its_goal(client):
    """Spec §12.2: the solo player wins with the perfect tomb only; the API says so in the
    player's breakdown (``goal``), not as a rank among players."""
    solo = {"game": "valley", "options": {"pool": "afterlife", "solo": "beginner"},
            "players": [{"name": "Ana", "tomb_cards": 13,
                         "starters": {"shabti": 3, "urn": 1, "box_of_food": 0,
                                      "offering_table": 1},
                         "uniques": [{"title": "Sphinx", "vp": 4}],
                         "distinct": {"mummification": 1, "chambers": 2, "weapons": 4}}]}
    answer = client.post("/api/v1/score", json=solo)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    ana = answer.get_json()["players"][0]
    assert ana["breakdown"]["goal"] == {
        "key": "valley.perfect_tomb", "reached": False, "target": 164,
        "label": "perfect tomb: every title once, every unique and every starter"}
    assert answer.get_json()["winners"] == []
