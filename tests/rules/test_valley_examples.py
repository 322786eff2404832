"""Valley of the Kings: the worked examples V1-V18 of shared/rules/valley-of-the-kings.md §15,
table-driven, with their exact numbers.

Scoring examples (V1, V9-V14) are checked on the scoring function and through
``score_final``; the pyramid examples (V4-V8) on the pure crumble functions and through the
live engine; the move examples (V2, V3, V15-V17) through the live engine; V18 on the pools and
on a fresh table's supply.
"""

from __future__ import annotations

import pytest

from companion.rules.valley import VALLEY
from companion.rules.valley import pyramid as pyr
from companion.rules.valley import printed as t
from companion.rules.valley.final import score_final
from companion.rules.valley.pools import build_pool, group_titles
from companion.rules.valley.scoring import distinct_titles
from companion.rules.valley.state import refill_count
from tests.rules.valley_helpers import (category, document, entomb, give, new_game, pay, play,
                                        player_doc, refused)

WEAPONS = {c: "weapons" for c in t.set_titles("weapons")}


# ------------------------------------------------------------------------------------------
# V1, V9, V10, V12, V13, V14: scoring
# ------------------------------------------------------------------------------------------


def test_v1_seed_scoring_example():
    """SEED l.227: 3 Shabti, Burial Chamber, 2 Axe, Dagger = 3 + 1 + 4 = 8; tomb size 7."""
    doc = document(player_doc("Nikol", None, {"shabti": 3}, checklist={
        "chambers": {"titles": {"Pohřební komora": 1}},
        "weapons": {"titles": {"Sekera": 2, "Dýka": 1}}}), player_doc("Petra", 0))
    nikol = score_final(doc).as_dict()["players"][0]
    assert nikol["total"] == 8
    assert category(nikol, "shabti")["points"] == 3
    assert category(nikol, "chambers")["points"] == 1
    assert category(nikol, "weapons") == {"category": "weapons", "points": 4,
                                          "detail": {"distinct": 2, "of": 6}}
    # the second Axe scores nothing: one Axe gives the same
    one_axe = document(player_doc("Nikol", None, {"shabti": 3}, checklist={
        "chambers": {"titles": {"burial_chamber": 1}},
        "weapons": {"titles": {"axe": 1, "dagger": 1}}}), player_doc("Petra", 0))
    assert score_final(one_axe).players[0].total == 8


def test_v1_live_tomb_size_is_seven():
    state = entomb(new_game(1), 0, "shabti", "shabti", "shabti", "burial_chamber", "axe", "axe",
                   "dagger")
    assert VALLEY.score(state).players[0].total == 3 + 1 + 1     # solo: the pair of Axes is out
    multiplayer = entomb(new_game(2), 0, "shabti", "shabti", "shabti", "burial_chamber", "axe",
                         "axe", "dagger")
    assert VALLEY.score(multiplayer).players[0].total == 8
    assert VALLEY.final_document(multiplayer)["players"][0]["tomb_cards"] == 7


@pytest.mark.parametrize("solo, distinct, points", [
    pytest.param(False, 4, 16, id="V9-multiplayer"),
    pytest.param(True, 3, 9, id="V10-solo"),
])
def test_v9_v10_weapons_with_a_pair_of_axes(solo, distinct, points):
    tomb = ["axe", "axe", "dagger", "bow", "spear"]
    counts, pairs = distinct_titles(tomb, WEAPONS, solo)
    assert counts == {"weapons": distinct}
    assert pairs == ({"weapons": 1} if solo else {})
    assert t.group_points(distinct) == points
    doc = document(player_doc("Ana", None, checklist={"weapons": {"titles": {
        "axe": 2, "dagger": 1, "bow": 1, "spear": 1}}}), solo="beginner" if solo else None)
    if not solo:
        doc["players"].append(player_doc("Bo", 0))
    weapons = category(score_final(doc).as_dict()["players"][0], "weapons")
    assert weapons["points"] == points
    assert weapons.get("reason") == ("solo_pairs_excluded" if solo else None)


AFTERLIFE_UNIQUE_VPS = [2, 3, 3, 3, 4, 4]      # any six VPs adding up to 19 (spec §12.3)


def perfect_afterlife(unique_vps=AFTERLIFE_UNIQUE_VPS, itemised=True) -> dict:
    pool = build_pool("afterlife")
    uniques = list(zip(t.unique_titles(t.Box.AFTERLIFE), unique_vps))
    if itemised:
        checklist = {g.id: {"titles": {c: 1 for c in group_titles(g, {})}} for g in pool.groups}
        player = player_doc("Ana", None, dict(t.STARTERS_PER_PLAYER), uniques,
                            checklist=checklist)
    else:
        player = player_doc("Ana", 41, dict(t.STARTERS_PER_PLAYER), uniques,
                            distinct={g.id: g.size for g in pool.groups})
    return document(player, solo="beginner")


@pytest.mark.parametrize("itemised", [True, False], ids=["checklist", "counts"])
def test_v11_solo_perfect_tomb_is_164(itemised):
    ana = score_final(perfect_afterlife(itemised=itemised)).as_dict()["players"][0]
    sets = sum(category(ana, g)["points"] for g in ("mummification", "jewelry", "chambers",
                                                    "weapons", "tomb_art"))
    starters = sum(category(ana, s)["points"] for s in t.STARTERS)
    assert (sets, starters, category(ana, "uniques")["points"]) == (135, 10, 19)
    assert ana["total"] == 164
    goal = category(ana, "solo_goal")
    assert goal["reason"] == "perfect" and goal["points"] == 0
    assert ana["rank"] == 1
    # the shared notion of a goal (base.Goal): won, against the 164 VP of §12.3
    assert ana["breakdown"]["goal"] == {
        "key": "valley.perfect_tomb", "reached": True, "target": 164,
        "label": "perfect tomb: every title once, every unique and every starter"}


def test_v11_perfect_is_decided_by_contents_not_by_the_number():
    # the same contents with wrong unique VPs: still perfect, but the cross-check warns
    sheet = score_final(perfect_afterlife([2, 3, 3, 3, 4, 5])).as_dict()
    ana = sheet["players"][0]
    assert ana["total"] == 165 and category(ana, "solo_goal")["reason"] == "vp_check_failed"
    assert sheet["winners"] == ["Ana"]
    # 164 reached without the perfect contents (a unique worth more, a title missing)
    doc = perfect_afterlife([2, 3, 3, 3, 4, 4 + 13])
    del doc["players"][0]["checklist"]["tomb_art"]["titles"]["tomb_art_7"]
    sheet = score_final(doc).as_dict()
    ana = sheet["players"][0]
    assert ana["total"] == 164 - 49 + 36 + 13
    assert category(ana, "solo_goal")["reason"] == "not_perfect"
    assert ana["breakdown"]["goal"]["reached"] is False and ana["rank"] == 2
    assert sheet["winners"] == []
    assert ana["rank"] == 2 and sheet["winners"] == []
    # 41 cards, but one Tomb Art title twice and another missing: not perfect
    doc = perfect_afterlife(itemised=False)
    doc["players"][0]["distinct"]["tomb_art"] = 5
    ana = score_final(doc).as_dict()["players"][0]
    assert category(ana, "solo_goal")["reason"] == "not_perfect"


def test_v12_half_sets_merged_light_blue_superset_is_196():
    pool = build_pool("half_sets_merged")
    light_blue = pool.group("light_blue")
    titles = group_titles(light_blue, {})
    assert light_blue.size == 14 and len(titles) == 14
    doc = document(player_doc("Ana", None, checklist={"light_blue": {"titles": {
        c: 1 for c in titles}}}), player_doc("Bo", 0), pool="half_sets_merged")
    assert category(score_final(doc).as_dict()["players"][0], "light_blue")["points"] == 196


def test_v13_five_players_red_superset_scores_as_one_group():
    doc = document(player_doc("Ana", None, checklist={"red": {
        "titles": {"brain_hook": 1, "linen_bandages": 1, "mummification_3": 1,
                   "sarcophagi_1": 1, "sarcophagi_2": 1}}}),
        *(player_doc(n, 0) for n in ("Bo", "Cy", "Di", "Eva")), pool="five_players")
    ana = score_final(doc).as_dict()["players"][0]
    assert category(ana, "red") == {"category": "red", "points": 25,
                                    "detail": {"distinct": 5, "of": 6}}
    assert ana["total"] == 25 != 4 + 9


def test_v14_tie_goes_to_fewer_tomb_cards():
    a = player_doc("A", 18, {"shabti": 4}, distinct={"weapons": 6, "chambers": 3, "tomb_art": 1,
                                                        "jewelry": 1, "mummification": 1})
    b = player_doc("B", 16, {"shabti": 4}, distinct={"weapons": 6, "chambers": 3, "tomb_art": 1,
                                                        "jewelry": 1, "mummification": 1})
    sheet = score_final(document(a, b)).as_dict()
    assert [p["total"] for p in sheet["players"]] == [52, 52]
    assert [p["rank"] for p in sheet["players"]] == [2, 1]
    assert sheet["winners"] == ["B"]
    assert sheet["players"][1]["breakdown"]["tiebreak"] == {"rule": "valley.fewer_tomb_cards",
                                                            "value": 16}
    # still tied on tomb cards: shared (§16 #10), and no tie was broken (the Scoresheet said
    # "Tie broken by fewer cards in the tomb: A (18), B (18)" under a shared rank; playtest)
    b["tomb_cards"] = 18
    shared = score_final(document(a, b)).as_dict()
    assert shared["winners"] == ["A", "B"]
    assert [p["rank"] for p in shared["players"]] == [1, 1]
    assert [p["breakdown"].get("tiebreak") for p in shared["players"]] == [None, None]
    # three on the same total: the tie-break is shown for all three once it separates any
    three = score_final(document(*(player_doc(name, cards, {"shabti": 4}, distinct={
        group: 1}) for name, cards, group in (("A", 6, "weapons"), ("B", 6, "jewelry"),
                                              ("C", 5, "chambers"))))).as_dict()["players"]
    assert [p["total"] for p in three] == [5, 5, 5] and [p["rank"] for p in three] == [2, 2, 1]
    assert all(p["breakdown"]["tiebreak"] for p in three)


# ------------------------------------------------------------------------------------------
# V4-V8: the pyramid
# ------------------------------------------------------------------------------------------

ABC = ["a", "b", "c", "d", "e", "f"]


@pytest.mark.parametrize("before, slot, drop, after", [
    pytest.param(ABC, "B1", None, ["d", "b", "c", "f", "e", None], id="V5"),
    pytest.param(["d", "b", "c", "f", "e", None], "B2", "M2", ["d", "e", "c", "f", None, None],
                 id="V6"),
    pytest.param(["d", "e", "c", "f", None, None], "B3", None, ["d", "e", None, "f", None, None],
                 id="V7"),
    pytest.param(["x", "b2", "y", "nut", "z", "brooch"], "B2", "M1",
                 ["x", "nut", "y", "brooch", "z", None], id="V4"),
])
def test_v4_to_v7_crumbling(before, slot, drop, after):
    assert pyr.remove(before, slot, drop, "move.drop") == after
    assert pyr.settled(after)


def test_v4_v5_v6_v7_through_the_engine():
    # V4 (SEED l.131-135): B2 bought, Nut (M1) chosen to drop, Brooch falls from the apex
    state = give(new_game(2, ["sling", "dagger", "serdab", "nut", "ring", "brooch"]), 0, "?")
    state = play(state, {"type": "buy", "slot": "B2", "cost": 0, "drop": "M1",
                         "pay": pay(("?", 0))})
    assert state["pyramid"] == ["sling", "nut", "serdab", "brooch", "ring", None]
    # V5-V7 on a full pyramid a..f (as cards of the pool)
    cards = ["sling", "dagger", "serdab", "nut", "ring", "brooch"]     # a b c d e f
    a, b, c, d, f_e, f = cards
    state = give(new_game(2, cards), 0, "?", "?", "?")
    state = play(state, {"type": "buy", "slot": "B1", "cost": 0, "pay": []})
    assert state["pyramid"] == [d, b, c, f, f_e, None]                               # V5
    state = play(state, {"type": "buy", "slot": "B2", "cost": 0, "drop": "M2", "pay": []})
    assert state["pyramid"] == [d, f_e, c, f, None, None]                            # V6
    state = play(state, {"type": "buy", "slot": "B3", "cost": 0, "pay": []})
    assert state["pyramid"] == [d, f_e, None, f, None, None]                         # V7
    # V7 rebuild: the pyramid changed, so no sacrifice; refill B3, M2, T with 3 cards
    refused(state, {"type": "end_turn", "sacrifice": {"slot": "B1"}}, "VK_REBUILD")
    state = play(state, {"type": "end_turn"})
    assert state["phase"] == "refill" and refill_count(state) == 3
    assert VALLEY.prompts(state, 0)["slots"] == ["B3", "M2", "T"]
    chance = VALLEY.chance(state)                     # refills are chance inputs
    assert (chance.move, chance.key, chance.draws) == ({"type": "refill"}, "cards", 3)
    supply = state["supply"]
    state = play(state, {"type": "refill", "cards": ["axe", "bow", "?"]})
    assert state["pyramid"] == [d, f_e, "axe", f, "bow", "?"]
    assert state["supply"] == supply - 3 and state["current"] == 1


def test_v8_no_change_means_exactly_one_sacrifice_and_one_refill():
    state = new_game(2)
    refused(state, {"type": "end_turn"}, "VK_REBUILD")
    state = play(state, {"type": "end_turn", "sacrifice": {"slot": "M1"}})
    assert state["boneyard"][-1] == "nut"
    assert state["pyramid"] == ["sling", "dagger", "serdab", "brooch", "ring", None]
    assert refill_count(state) == 1
    state = play(state, {"type": "refill", "cards": ["?"]})
    assert pyr.count(state["pyramid"]) == 6 and state["supply"] == 49 - 1


# ------------------------------------------------------------------------------------------
# V2, V3, V15, V16, V17: moves
# ------------------------------------------------------------------------------------------


def test_v2_buy_nut_with_offering_chapel_and_spear():
    state = give(new_game(2, ["nut", "sling", "dagger", "serdab", "ring", "brooch"]), 0,
                 "offering_chapel", "spear")
    state = play(state, {"type": "buy", "slot": "B1", "pay": pay("offering_chapel", "spear")})
    assert state["players"][0]["known"]["nut"] == 1 and state["players"][0]["discard"] == 1
    assert [(p["card"], p["use"]) for p in state["played"]] == [
        ("offering_chapel", "capital"), ("spear", "capital")]
    # both cards are played: their actions are unavailable this turn
    refused(state, {"type": "action", "played": 0}, "VK_CARD_ALREADY_USED")
    # the coin left over is lost: it cannot pay for anything else
    cheap = {"type": "buy", "slot": "B2", "cost": 1, "pay": []}
    refused(state, cheap, "VK_UNDERPAID")


def test_v2_nut_costs_four():
    state = give(new_game(2, ["nut", "sling", "dagger", "serdab", "ring", "brooch"]), 0,
                 "offering_chapel", "shabti")
    violation = refused(state, {"type": "buy", "slot": "B1",
                                "pay": pay("offering_chapel", ("shabti", 1))}, "VK_UNDERPAID")
    assert violation.params == {"capital": 3, "cost": 4}


def test_v3_one_card_cannot_fund_two_purchases():
    state = give(new_game(2, ["?"] * 6), 0, "?")
    state = play(state, {"type": "buy", "slot": "B1", "cost": 3, "pay": pay(("?", 6))})
    refused(state, {"type": "buy", "slot": "B1", "cost": 3, "pay": [{"played": 0}]},
            "VK_CAPITAL_REUSED", field="move.pay.0")


def test_v15_necklace_seals_a_starter_then_one_more():
    state = give(new_game(2), 0, "necklace")
    moves = {"type": "action", "card": "necklace",
             "seals": [{"card": "shabti"}, {"card": "urn"}]}
    sealed = play(state, moves)
    assert sealed["players"][0]["tomb"] == ["shabti", "urn"]
    assert sealed["players"][0]["deck"] == 5 - 2
    third = {**moves, "seals": moves["seals"] + [{"card": "urn"}]}
    refused(state, third, "VK_SEAL_LIMIT")
    # after a set card Necklace stops
    state = give(new_game(2), 0, "necklace", "axe", zone="hand")
    state = give(state, 0, zone="deck")
    after_set = {"type": "action", "card": "necklace",
                 "seals": [{"card": "axe"}, {"card": "urn"}]}
    refused(state, after_set, "VK_SEAL_LIMIT")


@pytest.mark.parametrize("cost, accepted", [(6, True), (7, False)])
def test_v16_ring_doubles_the_next_card_played(cost, accepted):
    state = give(new_game(2), 0, "ring", "spear")
    state = play(state, {"type": "action", "card": "ring"})
    buy = {"type": "buy", "slot": "B1", "cost": cost, "pay": pay("spear")}
    if accepted:
        state = play(state, buy)
        assert state["ring"] is False
    else:
        assert refused(state, buy, "VK_UNDERPAID").params["capital"] == 6


def test_v17_brooch_needs_a_set_card_in_the_tomb():
    state = entomb(give(new_game(2), 0, "brooch"), 0, "shabti", "sphinx")
    move = {"type": "action", "card": "brooch", "seal": {"slot": "B1"},
            "sacrifice": {"card": "shabti"}}
    refused(state, move, "VK_ACTION_IMPOSSIBLE")


# ------------------------------------------------------------------------------------------
# V18: pool sizes
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("pool, players, stock, supply", [
    pytest.param("afterlife", 4, 56, 49, id="standard"),
    pytest.param("original", 2, 56, 49, id="original"),
    pytest.param("mix", 3, 56, 49, id="mix"),
    pytest.param("half_sets", 4, 56, 49, id="half-sets"),
    pytest.param("half_sets_merged", 4, 56, 49, id="half-sets-merged"),
    pytest.param("five_players", 5, 70, 63, id="5p"),
    pytest.param("six_players", 6, 84, 77, id="6p"),
])
def test_v18_pool_sizes(pool, players, stock, supply):
    built = build_pool(pool)
    assert (built.stock, built.supply_after_setup) == (stock, supply)
    assert new_game(players, ["?"] * 6, pool=pool)["supply"] == supply
