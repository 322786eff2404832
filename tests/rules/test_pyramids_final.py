"""Score-only mode of Silver & Gold – Pyramids (companion/rules/pyramids/final.py) and of the
sibling Silver & Gold (sibling.py): spec §11, §13; issue 13's document contract.

1. Every 422 check of the contract (and of §11's cross-checks), each naming its field.
2. Property tests (hypothesis, derandomized) on generated valid documents: order of players
   changes nothing, totals are the sum of the categories and follow §9's formula, ranks follow
   the tie rule.
3. The "our copy" values in a document and the assumption they lead to.
4. The sibling Silver & Gold: the rules example, every check, the tie rule.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import base
from companion.rules.base import InvalidDocument
from companion.rules.pyramids import PYRAMIDS
from companion.rules.pyramids import printed as t
from companion.rules.pyramids.final import FINAL_SCHEMA, score_final

FIXTURE = ["#.E.#", ".R.X.", ".#S.G", "P..#T", "#.B.#"]


def cards(*numbers_colours: tuple[int, str]) -> list[dict[str, Any]]:
    return [{"number": n, "colour": c} for n, c in numbers_colours]


def greens(*numbers: int) -> list[dict[str, Any]]:
    return cards(*[(n, "green") for n in numbers])


def doc(*players: dict[str, Any], **top: Any) -> dict[str, Any]:
    players = list(players) or [{"name": "A"}, {"name": "B"}]
    if len(players) == 1:
        players.append({"name": "Zed"})
    return {"game": "pyramids", "players": players, **top}


def problems(document: Any) -> list[tuple[str, str | None]]:
    with pytest.raises(InvalidDocument) as caught:
        score_final(document)
    for violation in caught.value.violations:
        assert violation.render()
    return [(v.code, v.field) for v in caught.value.violations]


# --------------------------------------------------------------------------------------------
# 1. The 422 checks
# --------------------------------------------------------------------------------------------

CHECKS = [
    # contract: a race box claimed by two players
    ("race taken", doc({"name": "A", "completed": greens(1, 2), "race": {"green": [10]}},
                       {"name": "B", "completed": greens(3, 4), "race": {"green": [10]}}),
     ("SGP_RACE", "players.1.race.green.0")),
    ("race twice by one", doc({"name": "A", "completed": greens(1, 2, 3, 4),
                               "race": {"green": [10, 10]}}),
     ("SGP_RACE", "players.0.race.green.1")),
    # contract: race boxes not forming 10 -> 6 -> 3 in a colour
    ("race order", doc({"name": "A", "completed": greens(1, 2), "race": {"green": [6]}}),
     ("SGP_RACE", "players.0.race.green.0")),
    ("race order across players", doc(
        {"name": "A", "completed": greens(1, 2), "race": {"green": [10]}},
        {"name": "B", "completed": greens(3, 4), "race": {"green": [3]}}),
     ("SGP_RACE", "players.1.race.green.0")),
    # contract: more boxes in a colour than completed of that colour / 2
    ("race threshold", doc({"name": "A", "completed": greens(1, 2, 3), "race": {
        "green": [10, 6]}}), ("SGP_RACE", "players.0.race.green")),
    ("race in another colour", doc({"name": "A", "completed": greens(1, 2),
                                    "race": {"orange": [10]}}),
     ("SGP_RACE", "players.0.race.orange")),
    ("race value", doc({"name": "A", "race": {"green": [5]}}),
     ("schema.not_a_choice", "players.0.race.green.0")),
    ("race colour", doc({"name": "A", "race": {"blue": [10]}}),
     ("schema.unknown_key", "players.0.race.blue")),
    # contract: a card number twice
    ("card twice", doc({"name": "A", "completed": greens(7)},
                       {"name": "B", "completed": cards((7, "purple"))}),
     ("pyramids.duplicate_card", "players.1.completed.0.number")),
    ("card twice, one player", doc({"name": "A", "completed": greens(7, 7)}),
     ("pyramids.duplicate_card", "players.0.completed.1.number")),
    ("card number 0", doc({"name": "A", "completed": greens(0)}),
     ("pyramids.bad_card_number", "players.0.completed.0.number")),
    ("card number 49", doc({"name": "A", "completed": greens(49)}),
     ("schema.too_large", "players.0.completed.0.number")),
    ("card without number", doc({"name": "A", "completed": [{"colour": "green"}]}),
     ("schema.required", "players.0.completed.0.number")),
    ("card colour", doc({"name": "A", "completed": cards((1, "red"))}),
     ("schema.not_a_choice", "players.0.completed.0.colour")),
    # contract: more than 16 cards of a colour
    ("17 greens", doc({"name": "A", "completed": greens(*range(1, 10))},
                      {"name": "B", "completed": greens(*range(10, 18))}),
     ("pyramids.too_many_of_colour", "players.1.completed.7.colour")),
    # contract: gems outside 0-10
    ("red gems 11", doc({"name": "A", "red_gems": 11}), ("schema.too_large",
                                                         "players.0.red_gems")),
    ("green gems -1", doc({"name": "A", "green_gems": -1}), ("schema.negative",
                                                             "players.0.green_gems")),
    ("gems not a number", doc({"name": "A", "green_gems": "3"}),
     ("schema.not_integer", "players.0.green_gems")),
    # contract: a penalty that is not one of the edition's
    ("penalty 5", doc({"name": "A", "worst_skull_penalty": 5}),
     ("pyramids.bad_skull_penalty", "players.0.worst_skull_penalty")),
    ("penalty of another edition", doc({"name": "A", "worst_skull_penalty": 6},
                                       edition={"skull_penalties": [0, 0, 1, 1, 2, 2, 3, 4,
                                                                    5, 7]}),
     ("pyramids.bad_skull_penalty", "players.0.worst_skull_penalty")),
    # §11 5b: skull count against the penalty table
    ("skulls mismatch", doc({"name": "A", "worst_skull_penalty": 6, "skulls": 4}),
     ("pyramids.skull_mismatch", "players.0.skulls")),
    ("skulls without penalty", doc({"name": "A", "skulls": 1}),
     ("pyramids.skull_mismatch", "players.0.skulls")),
    ("skulls 11", doc({"name": "A", "skulls": 11}), ("schema.too_large", "players.0.skulls")),
    ("skulls text", doc({"name": "A", "skulls": "2"}), ("schema.not_integer",
                                                        "players.0.skulls")),
    ("skulls negative", doc({"name": "A", "skulls": -2}), ("schema.negative",
                                                           "players.0.skulls")),
    # torches: four boxes
    ("three torches", doc({"name": "A", "torches": [True, True, False]}),
     ("schema.list_length", "players.0.torches")),
    ("torch not a boolean", doc({"name": "A", "torches": [1, 0, 0, 0]}),
     ("schema.not_boolean", "players.0.torches.0")),
    # players
    ("one player", {"players": [{"name": "A"}]}, ("pyramids.bad_player_count", "players")),
    ("five players", {"players": [{"name": n} for n in "ABCDE"]},
     ("pyramids.bad_player_count", "players")),
    ("same name", doc({"name": "Ana"}, {"name": "ana"}), ("pyramids.duplicate_name",
                                                         "players.1.name")),
    ("no name", doc({"name": ""}), ("schema.empty", "players.0.name")),
    ("no players", {"game": "pyramids"}, ("schema.required", "players")),
    ("unknown entry", doc({"name": "A", "gold": 3}), ("schema.unknown_key", "players.0.gold")),
    ("other game", doc(game="ra"), ("score.wrong_game", "game")),
    # the edition in the document
    ("edition penalties", doc(edition={"skull_penalties": [1, 2, 3]}),
     ("schema.list_length", "edition.skull_penalties")),
    ("edition penalties decrease", doc(edition={"skull_penalties": [9, 8, 7, 6, 5, 4, 3, 2,
                                                                    1, 0]}),
     ("pyramids.penalties_decrease", "edition.skull_penalties.1")),
    ("edition not an object", doc(edition=[1, 2]), ("schema.not_object", "edition")),
    ("edition unknown entry", doc(edition={"skulls": [1]}), ("schema.unknown_key",
                                                             "edition.skulls")),
    ("edition colour", doc({"name": "A", "completed": cards((3, "purple"))},
                           edition={"card_layouts": [{"number": 3, "colour": "green",
                                                      "grid": FIXTURE}]}),
     ("pyramids.wrong_colour", "players.0.completed.0.colour")),
    # §11 minimal variant
    ("count and list", doc({"name": "A", "completed": greens(1), "completed_count": 1}),
     ("pyramids.completed_twice", "players.0.completed_count")),
    ("lowest without cards", doc({"name": "A", "lowest_completed": 4}),
     ("pyramids.lowest_without_cards", "players.0.lowest_completed")),
    ("lowest 0", doc({"name": "A", "completed_count": 2, "lowest_completed": 0}),
     ("pyramids.bad_card_number", "players.0.lowest_completed")),
    ("count 49", doc({"name": "A", "completed_count": 49}),
     ("schema.too_large", "players.0.completed_count")),
    ("counts over 48", doc({"name": "A", "completed_count": 30},
                           {"name": "B", "completed_count": 20}),
     ("pyramids.too_many_cards", "players")),
    ("count race", doc({"name": "A", "completed_count": 3, "race": {"green": [10],
                                                                    "orange": [10]}}),
     ("SGP_RACE", "players.0.race")),
]


@pytest.mark.parametrize("label, document, expected", CHECKS, ids=[c[0] for c in CHECKS])
def test_refusals_name_the_field(label, document, expected):
    assert expected in problems(document)


def test_the_race_reasons():
    reasons = []
    for label, document, expected in CHECKS:
        if expected[0] == "SGP_RACE":
            with pytest.raises(InvalidDocument) as caught:
                score_final(document)
            reasons += [v.params["reason"] for v in caught.value.violations
                        if v.code == "SGP_RACE"]
    assert set(reasons) == {"taken", "order", "threshold"}


def test_every_violation_is_reported_at_once():
    found = problems(doc({"name": "A", "red_gems": 12, "completed": greens(3, 3),
                          "worst_skull_penalty": 7},
                         {"name": "a", "race": {"green": [6]}}))
    assert set(found) >= {("schema.too_large", "players.0.red_gems"),
                          ("pyramids.duplicate_card", "players.0.completed.1.number"),
                          ("pyramids.bad_skull_penalty", "players.0.worst_skull_penalty"),
                          ("pyramids.duplicate_name", "players.1.name"),
                          ("SGP_RACE", "players.1.race.green.0"),
                          ("SGP_RACE", "players.1.race.green")}


def test_a_field_with_a_shape_error_gets_no_second_message():
    found = problems(doc({"name": "A", "completed": greens(60, 60)}))
    assert found == [("schema.too_large", "players.0.completed.0.number"),
                     ("schema.too_large", "players.0.completed.1.number")]


def test_the_contract_example_scores():
    sheet = score_final({
        "game": "pyramids",
        "edition": {"skull_penalties": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]},
        "players": [
            {"name": "Ana",
             "completed": [{"number": 5, "colour": "orange"}, {"number": 17, "colour": "green"}],
             "torches": [True, False, False, True],
             "race": {"purple": [], "orange": [], "green": []},
             "red_gems": 6, "green_gems": 3, "worst_skull_penalty": 6},
            {"name": "Bo"}]})
    assert sheet.players[0].total == 20 + 10 + 18 - 6
    assert sheet.assumed == ()          # the document named its penalties


def test_empty_rows_after_the_cards_are_ignored():
    rows = greens(1, 2) + [None, {"number": None, "colour": ""}, {}]
    sheet = score_final(doc({"name": "A", "completed": rows}))
    assert sheet.players[0].total == 20
    gap = greens(1) + [{"number": None, "colour": None}] + greens(2)
    assert ("schema.required", "players.0.completed.1.number") in problems(
        doc({"name": "A", "completed": gap}))


def test_minimal_variant_scores_and_breaks_ties():
    sheet = score_final(doc({"name": "A", "completed_count": 3, "lowest_completed": 12},
                            {"name": "B", "completed_count": 3, "lowest_completed": 4}))
    assert [p.total for p in sheet.players] == [30, 30]
    assert sheet.winners == ["B"]


# --------------------------------------------------------------------------------------------
# 2. Properties of valid documents
# --------------------------------------------------------------------------------------------


@st.composite
def valid_documents(draw) -> dict[str, Any]:
    count = draw(st.integers(2, 4))
    numbers = draw(st.permutations(range(1, 49)))
    players = []
    taken = 0
    for p in range(count):
        held = draw(st.integers(0, 9))
        completed = [{"number": n, "colour": draw(st.sampled_from(t.COLOURS))}
                     for n in numbers[taken:taken + held]]
        taken += held
        penalty_box = draw(st.integers(0, 10))
        players.append({
            "name": f"P{p}", "completed": completed,
            "torches": draw(st.lists(st.booleans(), min_size=4, max_size=4)),
            "race": {colour: [] for colour in t.COLOURS},
            "red_gems": draw(st.integers(0, 10)), "green_gems": draw(st.integers(0, 10)),
            "worst_skull_penalty": [0, 1, 2, 3, 4, 6, 8, 10, 12, 15, 20][penalty_box],
            "skulls": penalty_box})
    for colour in t.COLOURS:                  # the race, claimed in order by players with room
        for value in t.RACE_BOXES:
            room = [p for p in players if len(p["race"][colour]) < sum(
                1 for c in p["completed"] if c["colour"] == colour) // 2]
            if not room or not draw(st.booleans()):
                break
            room[draw(st.integers(0, len(room) - 1))]["race"][colour].append(value)
    return {"game": "pyramids", "players": players}


def expected_total(player: dict[str, Any]) -> int:
    """§9, written out again independently of scoring.py."""
    red, green = player["red_gems"], player["green_gems"]
    return (10 * len(player["completed"]) + 5 * sum(player["torches"])
            + sum(sum(v) for v in player["race"].values())
            + 5 * min(red, green) + abs(red - green) - player["worst_skull_penalty"])


@settings(max_examples=200, deadline=None, derandomize=True)
@given(document=valid_documents(), data=st.data())
def test_scores_follow_section_9_and_not_player_order(document, data):
    sheet = score_final(document)
    for player, score in zip(document["players"], sheet.players):
        assert score.total == sum(c.points for c in score.categories)
        assert score.total == expected_total(player)
    order = data.draw(st.permutations(range(len(document["players"]))))
    shuffled = {**document, "players": [document["players"][i] for i in order]}
    again = {p.name: (p.total, p.rank, p.tiebreak) for p in score_final(shuffled).players}
    assert again == {p.name: (p.total, p.rank, p.tiebreak) for p in sheet.players}


@settings(max_examples=200, deadline=None, derandomize=True)
@given(document=valid_documents())
def test_ranks_follow_totals_then_the_lowest_card(document):
    sheet = score_final(document)
    lowest = {p["name"]: min((c["number"] for c in p["completed"]), default=99)
              for p in document["players"]}
    for a in sheet.players:
        for b in sheet.players:
            if a.total > b.total or (a.total == b.total and lowest[a.name] < lowest[b.name]):
                assert a.rank < b.rank
            if a.total == b.total and lowest[a.name] == lowest[b.name]:
                assert a.rank == b.rank            # only possible without cards: shared


# --------------------------------------------------------------------------------------------
# 3. Our copy in the document
# --------------------------------------------------------------------------------------------


def test_omitted_penalties_mean_ours_and_are_named_when_relied_on():
    sheet = score_final(doc({"name": "A", "worst_skull_penalty": 6}))
    assert [(a.key, a.value) for a in sheet.assumed] == [
        ("skull_penalties", [1, 2, 3, 4, 6, 8, 10, 12, 15, 20])]
    assert score_final(doc({"name": "A"})).assumed == ()              # nothing relied on it
    named = doc({"name": "A", "worst_skull_penalty": 6},
                edition={"skull_penalties": [1, 2, 3, 4, 6, 8, 10, 12, 15, 20]})
    assert score_final(named).assumed == ()


def test_other_penalties_from_the_edition():
    penalties = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    sheet = score_final(doc({"name": "A", "worst_skull_penalty": 5, "skulls": 5},
                            edition={"skull_penalties": penalties}))
    assert sheet.players[0].total == -5


# --------------------------------------------------------------------------------------------
# 4. The sibling Silver & Gold (§13)
# --------------------------------------------------------------------------------------------


def sarah() -> dict[str, Any]:
    """§13 rules example: 6 cards worth 64, grey seal 1 × 2 grey cards, orange seal 2 × 2
    orange cards, 9 coins, palm entries worth 8, and the 8 trophy points the text omits."""
    return {"name": "Sarah",
            "completed": [
                {"colour": "grey", "points": 10, "seal": {"colour": "grey", "points": 1}},
                {"colour": "grey", "points": 11},
                {"colour": "orange", "points": 12, "seal": {"colour": "orange", "points": 2}},
                {"colour": "orange", "points": 9},
                {"colour": "purple", "points": 10},
                {"colour": "green", "points": 12}],
            "coins": 9, "trophies": [5, 3], "palms": [3, 3, 2]}


def sibling(*players: dict[str, Any]) -> dict[str, Any]:
    tim = {"name": "Tim", "coins": 8, "trophies": [6, 4]}
    return {"game": "pyramids", "variant": "silver_gold", "players": list(players) or [
        sarah(), tim]}


def test_silver_gold_rules_example_95():
    sheet = PYRAMIDS.score_final(sibling())
    points = {c.key: c.points for c in sheet.players[0].categories}
    assert points == {"card_values": 64, "seals": 6, "coins": 9, "trophies": 8, "palms": 8}
    assert sheet.players[0].total == 95
    assert sheet.players[1].total == 8 + 10


def sibling_problems(document: Any) -> list[tuple[str, str | None]]:
    with pytest.raises(InvalidDocument) as caught:
        PYRAMIDS.score_final(document)
    return [(v.code, v.field) for v in caught.value.violations]


def with_sarah(**changes: Any) -> dict[str, Any]:
    document = sibling()
    document["players"][0].update(copy.deepcopy(changes))
    return document


SIBLING_CHECKS = [
    ("trophy taken", with_sarah(trophies=[6, 5]), ("silver_gold.trophy_taken",
                                                   "players.1.trophies.0")),
    ("trophy order", with_sarah(trophies=[5, 2]), ("silver_gold.trophy_order",
                                                   "players.0.trophies.1")),
    ("trophy without row", with_sarah(coins=7), ("silver_gold.trophy_without_row",
                                                 "players.0.trophies")),
    ("trophy value", with_sarah(trophies=[7]), ("schema.not_a_choice",
                                                "players.0.trophies.0")),
    ("coins", with_sarah(coins=13), ("schema.too_large", "players.0.coins")),
    ("palm 0", with_sarah(palms=[3, 0]), ("silver_gold.bad_palm", "players.0.palms.1")),
    ("five palms", with_sarah(palms=[1, 1, 1, 1, 1]), ("schema.list_length",
                                                       "players.0.palms")),
    ("card 0 points", with_sarah(completed=[{"colour": "grey", "points": 0}]),
     ("silver_gold.bad_card_points", "players.0.completed.0.points")),
    ("seal without points", with_sarah(completed=[
        {"colour": "grey", "points": 9, "seal": {"colour": "grey"}}]),
     ("silver_gold.bad_seal", "players.0.completed.0.seal")),
    ("seal points 3", with_sarah(completed=[
        {"colour": "grey", "points": 9, "seal": {"colour": "grey", "points": 3}}]),
     ("schema.not_a_choice", "players.0.completed.0.seal.points")),
    ("12 grey", with_sarah(completed=[{"colour": "grey", "points": 9}] * 12),
     ("silver_gold.too_many_of_colour", "players.0.completed.11.colour")),
    ("pyramid fields", with_sarah(torches=[True] * 4), ("schema.unknown_key",
                                                        "players.0.torches")),
    ("one player", sibling(sarah()), ("silver_gold.bad_player_count", "players")),
    ("same name", sibling(sarah(), {"name": "SARAH"}), ("silver_gold.duplicate_name",
                                                        "players.1.name")),
    ("unknown variant", {**sibling(), "variant": "silver"}, ("schema.not_a_choice",
                                                             "variant")),
    ("other game", {**sibling(), "game": "imhotep"}, ("score.wrong_game", "game")),
]


@pytest.mark.parametrize("label, document, expected", SIBLING_CHECKS,
                         ids=[c[0] for c in SIBLING_CHECKS])
def test_silver_gold_refusals(label, document, expected):
    assert expected in sibling_problems(document)


def test_silver_gold_tie_more_grey_then_green_orange_purple():
    def player(name: str, colours: str) -> dict[str, Any]:
        return {"name": name, "completed": [
            {"colour": {"g": "grey", "n": "green", "o": "orange", "p": "purple"}[c],
             "points": 10} for c in colours]}
    sheet = PYRAMIDS.score_final(sibling(player("A", "gp"), player("B", "np"),
                                         player("C", "gn")))
    assert [p.total for p in sheet.players] == [20, 20, 20]
    assert [p.rank for p in sheet.players] == [2, 3, 1]
    assert sheet.players[2].tiebreak.as_dict() == {"rule": "silver_gold.colour_counts",
                                                   "value": [1, 1, 0, 0]}
    shared = PYRAMIDS.score_final(sibling(player("A", "go"), player("B", "og")))
    assert shared.winners == ["A", "B"]


def test_schemas_are_declared():
    assert isinstance(PYRAMIDS, base.Ruleset)
    assert PYRAMIDS.final_schema is FINAL_SCHEMA
    keys = [f.key for f in FINAL_SCHEMA.fields[1].item.fields]
    assert keys == ["name", "completed", "torches", "race", "red_gems", "green_gems",
                    "worst_skull_penalty"]
