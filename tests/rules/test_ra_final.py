"""Ra score-only mode (companion/rules/ra/final.py): whole documents scored by hand.

Every total below is worked out in the comments from spec shared/rules/ra.md §5:
gods +2 each, gold +3 each, Pharaohs +5 most / -2 fewest (nobody if all equal), Nile+Flood +1
each only with a Flood, Civilizations by kinds (0: -5, 1-2: 0, 3/4/5: +5/+10/+15); after epoch 3
also monuments (kinds 1..8 → 1,2,3,4,5,6,10,15; per kind 3/4/5 tiles → 5/10/15) and sun totals
(+5 highest, -5 lowest). Fame starts at 10 and is floored at 0 after each epoch's net figure.
The second half checks every kind of bad document: code and dotted field.
"""

from __future__ import annotations

import copy

import pytest

from companion.rules import get_ruleset
from companion.rules.base import InvalidDocument
from companion.rules.ra import printed
from companion.rules.ra.final import score_final, validate_final


def ep(**holdings) -> dict:
    """One epoch entry; civilization kinds may be passed directly (``art=1``)."""
    civ = {kind: holdings.pop(kind) for kind in printed.CIVILIZATION_KINDS if kind in holdings}
    return {**holdings, "civilizations": civ}


def player(name, epochs, monuments=None, suns=None) -> dict:
    out = {"name": name, "epochs": list(epochs)}
    if monuments is not None:
        out["monuments"] = monuments
    if suns is not None:
        out["suns"] = list(suns)
    return out


def totals(sheet) -> list[int]:
    return [p.total for p in sheet.players]


def ranks(sheet) -> list[int]:
    return [p.rank for p in sheet.players]


def stages(sheet) -> list[list[int]]:
    return [list(p.stage_totals) for p in sheet.players]


def points(sheet, p: int, key: str, stage: int | None) -> int:
    found = [c.points for c in sheet.players[p].categories if c.key == key and c.stage == stage]
    assert len(found) == 1, (key, stage, found)
    return found[0]


def has_category(sheet, key: str) -> bool:
    return any(c.key == key for p in sheet.players for c in p.categories)


# ------------------------------------------------------------------------------------------
# Three players, three epochs
# ------------------------------------------------------------------------------------------

def three_player_doc(epochs: int = 3) -> dict:
    ana = [ep(gods=1, pharaohs=3, niles=2, floods=1, agriculture=1, astronomy=2, writing=1),
           ep(pharaohs=3, niles=2, religion=1, art=1),
           ep(pharaohs=3, niles=4, floods=1)]
    bo = [ep(pharaohs=1, gold=1, art=1),
          ep(gods=1, pharaohs=4, niles=1, floods=2, gold=2, art=2, writing=1, religion=1,
             astronomy=1),
          ep(pharaohs=4, niles=1, writing=1, art=1, religion=1)]
    cy = [ep(gods=2, pharaohs=1, niles=3),
          ep(pharaohs=2, niles=3, floods=3, agriculture=2),
          ep(gods=1, pharaohs=4, agriculture=1, astronomy=1, writing=1, religion=1)]
    return {"game": "ra", "players": [
        player("Ana", ana[:epochs], {"pyramid": 4, "sphinx": 1, "temple": 3}, [13, 6, 2, 5]),
        player("Bo", bo[:epochs], {kind: 1 for kind in printed.MONUMENT_KINDS if kind != "temple"},
               [12, 9, 3, 4]),
        player("Cy", cy[:epochs], {"sphinx": 3, "temple": 2, "statue": 3}, [11, 10, 7, 8]),
    ]}


def test_three_players_complete():
    # Epoch 1 (Pharaohs 3/1/1: Ana most, Bo and Cy fewest)
    #   Ana: gods 1×2=2, Pharaohs +5, river 2+1=3, civ 3 kinds +5, gold 0 = 15 → 10+15 = 25
    #   Bo:  gods 0, Pharaohs -2, river 0, civ 1 kind 0, gold 1×3=3      =  1 → 10+1  = 11
    #   Cy:  gods 2×2=4, Pharaohs -2, river 0 (3 Niles, no Flood), civ -5 = -3 → 10-3  = 7
    # Epoch 2 (Pharaohs 3/4/2: Bo most, Cy fewest)
    #   Ana: 0 + 0 + river 0 (no Flood) + civ 2 kinds 0 + 0             =  0 → 25
    #   Bo:  gods 2 + Pharaohs 5 + river 1+2=3 + civ 4 kinds 10 + gold 6 = 26 → 37
    #   Cy:  0 + Pharaohs -2 + river 3+3=6 + civ 1 kind 0 + 0          =  4 → 11
    # Epoch 3 (Pharaohs 3/4/4: Bo and Cy most, Ana fewest), normal categories:
    #   Ana: Pharaohs -2 + river 4+1=5 + civ -5                         = -2
    #   Bo:  Pharaohs +5 + river 0 + civ 3 kinds +5                     = 10
    #   Cy:  gods 2 + Pharaohs +5 + civ 4 kinds +10                     = 17
    # Monuments: Ana 3 kinds → 3, Pyramid×4 → 10, Temple×3 → 5       = 18
    #            Bo 7 kinds → 10, no sets                             = 10
    #            Cy 3 kinds → 3, Sphinx×3 → 5, Statue×3 → 5           = 13
    # Suns (centre 1): Ana 13+6+2+5 = 26 (lowest, -5), Bo 12+9+3+4 = 28 (0),
    #                  Cy 11+10+7+8 = 36 (highest, +5)
    # Epoch 3 net: Ana -2+18-5 = 11 → 36; Bo 10+10+0 = 20 → 57; Cy 17+13+5 = 35 → 46
    sheet = score_final(three_player_doc())
    assert sheet.complete is True
    assert stages(sheet) == [[25, 25, 36], [11, 37, 57], [7, 11, 46]]
    assert totals(sheet) == [36, 57, 46]
    assert ranks(sheet) == [3, 1, 2]
    assert sheet.winners == ["Bo"]
    assert [p.tiebreak for p in sheet.players] == [None, None, None]
    assert points(sheet, 0, "monument_kinds", 3) == 3
    assert points(sheet, 0, "monument_sets", 3) == 15
    assert points(sheet, 1, "monument_kinds", 3) == 10
    assert points(sheet, 2, "monument_sets", 3) == 10
    assert [points(sheet, p, "suns", 3) for p in range(3)] == [-5, 0, 5]
    assert [points(sheet, p, "pharaohs", 3) for p in range(3)] == [-2, 5, 5]
    assert not has_category(sheet, "floor")


def test_three_players_as_dict_contract():
    out = score_final(three_player_doc()).as_dict()
    assert set(out) == {"game", "complete", "players", "winners"}
    assert (out["game"], out["complete"], out["winners"]) == ("ra", True, ["Bo"])
    assert [p["name"] for p in out["players"]] == ["Ana", "Bo", "Cy"]   # input order
    ana = out["players"][0]
    assert set(ana) == {"name", "total", "rank", "breakdown"}
    assert set(ana["breakdown"]) == {"categories", "stage_totals"}     # no tie: no tiebreak
    assert ana["breakdown"]["categories"][0] == {"category": "starting_fame", "points": 10}
    assert {"category": "suns", "points": -5, "stage": 3, "reason": "fewest",
            "detail": {"total": 26}} in ana["breakdown"]["categories"]
    # 1 starting line + 5 categories × 3 epochs + 3 epoch-3 extras.
    assert len(ana["breakdown"]["categories"]) == 1 + 15 + 3
    assert sum(c["points"] for c in ana["breakdown"]["categories"]) == ana["total"] == 36


def test_registered_ruleset_scores_the_same():
    doc = three_player_doc()
    assert get_ruleset("ra").score_final(doc) == score_final(doc)


# ------------------------------------------------------------------------------------------
# Partial games: 1 and 2 epochs
# ------------------------------------------------------------------------------------------

def test_partial_one_epoch():
    # Epoch 1 as above: 25, 11, 7. Monuments and suns are in the document but not scored.
    sheet = score_final(three_player_doc(epochs=1))
    assert sheet.complete is False
    assert totals(sheet) == [25, 11, 7]
    assert stages(sheet) == [[25], [11], [7]]
    assert ranks(sheet) == [1, 2, 3]
    assert sheet.as_dict()["complete"] is False
    for key in ("monument_kinds", "monument_sets", "suns"):
        assert not has_category(sheet, key)


def test_partial_two_epochs():
    # After epoch 2: 25, 37, 11.
    sheet = score_final(three_player_doc(epochs=2))
    assert sheet.complete is False
    assert totals(sheet) == [25, 37, 11]
    assert ranks(sheet) == [2, 1, 3]
    assert sheet.winners == ["Bo"]
    assert {c.stage for p in sheet.players for c in p.categories} == {None, 1, 2}
    for key in ("monument_kinds", "monument_sets", "suns"):
        assert not has_category(sheet, key)


def test_partial_game_needs_no_monuments_or_suns():
    doc = three_player_doc(epochs=2)
    for p in doc["players"]:
        del p["monuments"], p["suns"]
    assert totals(score_final(doc)) == [25, 37, 11]


def test_partial_game_ties_share_a_rank_without_tiebreak():
    # Nobody holds anything: 10 - 5 (no Civilization) = 5 each; Pharaohs all equal.
    doc = {"players": [player(n, [ep()]) for n in ("Ana", "Bo", "Cy")]}
    sheet = score_final(doc)
    assert totals(sheet) == [5, 5, 5]
    assert ranks(sheet) == [1, 1, 1]
    assert sheet.winners == ["Ana", "Bo", "Cy"]
    assert all(p.tiebreak is None for p in sheet.players)


def test_missing_keys_mean_zero():
    # The same epoch-1 holdings, once with every zero spelt out and once with nothing at all.
    full = {"gods": 0, "pharaohs": 0, "niles": 0, "floods": 0, "gold": 0,
            "civilizations": {kind: 0 for kind in printed.CIVILIZATION_KINDS}}
    spelt = {"players": [player(n, [copy.deepcopy(full)]) for n in ("Ana", "Bo", "Cy")]}
    bare = {"players": [{"name": n, "epochs": [{}]} for n in ("Ana", "Bo", "Cy")]}
    assert score_final(spelt) == score_final(bare)
    assert totals(score_final(bare)) == [5, 5, 5]


# ------------------------------------------------------------------------------------------
# Four players: a tie broken by the highest sun
# ------------------------------------------------------------------------------------------

def four_player_doc() -> dict:
    return {"game": "ra", "players": [
        player("Ana", [ep(pharaohs=2, art=1, writing=1, religion=1),
                       ep(pharaohs=2, agriculture=1),
                       ep(gods=1, pharaohs=4, art=1, agriculture=1, religion=1, astronomy=1,
                          writing=1)],
               {"temple": 3, "pyramid": 1}, [1, 2, 13]),
        player("Bo", [ep(pharaohs=2, gold=1, astronomy=1),
                      ep(pharaohs=3, gold=1, floods=1, art=1, agriculture=1),
                      ep(pharaohs=3, gold=1)],
               {"obelisk": 3, "palace": 2}, [12, 3, 5]),
        player("Cy", [ep(niles=2, floods=2, art=1),
                      ep(niles=2, religion=1, writing=1, astronomy=1),
                      ep(niles=2, floods=1)],
               {}, [6, 9, 10]),
        player("Di", [ep(gods=1, pharaohs=1),
                      ep(gods=2, pharaohs=1, art=1),
                      ep(pharaohs=4, astronomy=1)],
               {"fortress": 5}, [11, 8, 4]),
    ]}


def test_four_players_tie_broken_by_highest_sun():
    # Epoch 1 (Pharaohs 2/2/0/1: Ana and Bo most, Cy fewest)
    #   Ana: +5 + civ 3 kinds +5                 = 10 → 20
    #   Bo:  +5 + gold 3 + civ 1 kind 0          =  8 → 18
    #   Cy:  -2 + river 2+2=4 + civ 0            =  2 → 12
    #   Di:  gods 2 + Pharaohs 0 + civ -5        = -3 →  7
    # Epoch 2 (Pharaohs 2/3/0/1: Bo most, Cy fewest)
    #   Ana: 0 + civ 1 kind 0                    =  0 → 20
    #   Bo:  +5 + gold 3 + river 0+1=1 + civ 0   =  9 → 27
    #   Cy:  -2 + river 0 (no Flood) + civ +5    =  3 → 15
    #   Di:  gods 4 + 0 + civ 0                  =  4 → 11
    # Epoch 3 (Pharaohs 4/3/0/4: Ana and Di most, Cy fewest), normal categories:
    #   Ana: gods 2 + 5 + civ 5 kinds 15         = 22
    #   Bo:  0 + gold 3 + civ -5                 = -2
    #   Cy:  -2 + river 2+1=3 + civ -5           = -4
    #   Di:  +5 + civ 0                          =  5
    # Monuments: Ana 2 kinds 2 + Temple×3 5 = 7; Bo 2 + Obelisk×3 5 = 7; Cy 0;
    #            Di 1 kind 1 + Fortress×5 15 = 16
    # Suns (centre 7): Ana 1+2+13 = 16 (lowest, -5), Bo 12+3+5 = 20, Cy 6+9+10 = 25
    #                  (highest, +5), Di 11+8+4 = 23
    # Epoch 3 net: Ana 22+7-5 = 24 → 44; Bo -2+7 = 5 → 32; Cy -4+0+5 = 1 → 16;
    #              Di 5+16 = 21 → 32
    # Bo and Di tie on 32: Bo holds 12, Di only 11 → Bo 2nd, Di 3rd.
    sheet = score_final(four_player_doc())
    assert stages(sheet) == [[20, 20, 44], [18, 27, 32], [12, 15, 16], [7, 11, 32]]
    assert totals(sheet) == [44, 32, 16, 32]
    assert ranks(sheet) == [1, 2, 4, 3]
    assert sheet.winners == ["Ana"]
    assert [p.tiebreak and (p.tiebreak.rule, p.tiebreak.value) for p in sheet.players] == [
        None, ("ra.highest_sun", 12), None, ("ra.highest_sun", 11)]
    out = sheet.as_dict()
    assert "tiebreak" not in out["players"][0]["breakdown"]
    assert out["players"][3]["breakdown"]["tiebreak"] == {"rule": "ra.highest_sun", "value": 11}


# ------------------------------------------------------------------------------------------
# Five players: the floor and a tie at the bottom
# ------------------------------------------------------------------------------------------

def five_player_doc() -> dict:
    return {"game": "ra", "players": [
        player("Ana", [ep(pharaohs=1, art=1, religion=1, writing=1),
                       ep(pharaohs=2, astronomy=1),
                       ep(gods=1, pharaohs=2)],
               {kind: 1 for kind in printed.MONUMENT_KINDS}, [16, 7, 2]),
        player("Bo", [ep(gods=2, pharaohs=1, art=1),
                      ep(pharaohs=1),
                      ep(pharaohs=1, art=1, writing=1)],
               {}, [15, 8, 3]),
        player("Cy", [ep(pharaohs=1, niles=1, floods=1),
                      ep(pharaohs=3, art=1, agriculture=1, religion=1, astronomy=1),
                      ep(pharaohs=3, religion=1)],
               {"pyramid": 3}, [14, 9, 4]),
        player("Di", [ep(pharaohs=1, gold=2, agriculture=2),
                      ep(pharaohs=1, niles=3, floods=1, writing=1),
                      ep(pharaohs=2, niles=3)],
               {"temple": 4, "sphinx": 4}, [13, 10, 5]),
        player("Ed", [ep(), ep(), ep(pharaohs=1, gold=1, agriculture=1, astronomy=1, writing=1)],
               {"statue": 2}, [12, 11, 6]),
    ]}


def test_five_players_floor_and_tiebreak():
    # Epoch 1 (Pharaohs 1/1/1/1/0: four players most, Ed fewest)
    #   Ana: +5 + civ 3 kinds +5          = 10 → 20
    #   Bo:  gods 4 + 5 + civ 0           =  9 → 19
    #   Cy:  +5 + river 1+1=2 + civ -5    =  2 → 12
    #   Di:  +5 + gold 6 + civ 1 kind 0   = 11 → 21
    #   Ed:  -2 + civ -5                  = -7 →  3
    # Epoch 2 (Pharaohs 2/1/3/1/0: Cy most, Ed fewest)
    #   Ana: 0 + civ 0 = 0 → 20;  Bo: 0 + civ -5 = -5 → 14;  Cy: 5 + civ 4 kinds 10 = 15 → 27
    #   Di:  river 3+1=4 + civ 0 = 4 → 25
    #   Ed:  -2 - 5 = -7 → 3-7 = -4 → floored to 0 (floor category +4)
    # Epoch 3 (Pharaohs 2/1/3/2/1: Cy most, Bo and Ed fewest), normal categories:
    #   Ana: gods 2 + 0 + civ -5 = -3;  Bo: -2 + civ 0 = -2;  Cy: +5 + civ 0 = 5
    #   Di:  0 + river 0 (no Flood) + civ -5 = -5;  Ed: -2 + gold 3 + civ 3 kinds 5 = 6
    # Monuments: Ana 8 kinds 15; Bo 0; Cy 1 + Pyramid×3 5 = 6;
    #            Di 2 + Temple×4 10 + Sphinx×4 10 = 22; Ed 1 kind 1
    # Suns = the starting groups (centre 1): 25, 26, 27, 28, 29 → Ana -5, Ed +5
    # Epoch 3 net: Ana -3+15-5 = 7 → 27; Bo -2 → 12; Cy 5+6 = 11 → 38;
    #              Di -5+22 = 17 → 42; Ed 6+1+5 = 12 → 0+12 = 12
    # Bo and Ed tie on 12: Bo holds 15, Ed 12 → Bo 4th, Ed 5th.
    sheet = score_final(five_player_doc())
    assert stages(sheet) == [[20, 20, 27], [19, 14, 12], [12, 27, 38], [21, 25, 42], [3, 0, 12]]
    assert totals(sheet) == [27, 12, 38, 42, 12]
    assert ranks(sheet) == [3, 4, 2, 1, 5]
    assert sheet.winners == ["Di"]
    assert points(sheet, 4, "floor", 2) == 4
    assert [c.stage for c in sheet.players[4].categories if c.key == "floor"] == [2]
    assert [p.name for p in sheet.players if any(c.key == "floor" for c in p.categories)] == [
        "Ed"]
    assert (sheet.players[1].tiebreak.value, sheet.players[4].tiebreak.value) == (15, 12)


def test_five_players_without_floor():
    # fame_floor_zero false: Ed 3 → -4 after epoch 2, then -4 + 12 = 8. No floor category;
    # nobody ties any more, so nobody carries a tie-break.
    doc = five_player_doc()
    doc["options"] = {"fame_floor_zero": False}
    sheet = score_final(doc)
    assert stages(sheet)[4] == [3, -4, 8]
    assert totals(sheet) == [27, 12, 38, 42, 8]
    assert ranks(sheet) == [3, 4, 2, 1, 5]
    assert not has_category(sheet, "floor")
    assert all(p.tiebreak is None for p in sheet.players)


# ------------------------------------------------------------------------------------------
# Two players (2008 English rules): suns 1-9, equal sun totals
# ------------------------------------------------------------------------------------------

def test_two_players():
    # Epoch 1 (Pharaohs 2/1): Ana +5 + river 1+1=2 + civ 3 kinds 5 = 12 → 22
    #                         Bo  -2 + gods 2 + gold 3 + civ 0     =  3 → 13
    # Epoch 2 (Pharaohs 2/2: all equal): Ana river 0 (no Flood) + civ -5 = -5 → 17
    #                                    Bo  gods 4 + civ 4 kinds 10    = 14 → 27
    # Epoch 3 (Pharaohs 3/2): Ana +5 + river 2+2=4 + gold 6 + civ 0 = 15
    #                         Bo  -2 + civ 1 kind (2 Religion) 0    = -2
    # Monuments: Ana 2 kinds 2 = 2; Bo 3 kinds 3 + Obelisk×3 5 = 8
    # Suns: the starting groups 9+6+5+2 = 22 and 8+7+4+3 = 22: all equal, nobody scores.
    # Epoch 3 net: Ana 15+2 = 17 → 34; Bo -2+8 = 6 → 33
    doc = {"game": "ra", "players": [
        player("Ana", [ep(pharaohs=2, niles=1, floods=1, art=1, religion=1, writing=1),
                       ep(pharaohs=2, niles=1),
                       ep(pharaohs=3, niles=2, floods=2, gold=2, agriculture=1, astronomy=1)],
               {"pyramid": 2, "temple": 1}, [9, 6, 5, 2]),
        player("Bo", [ep(pharaohs=1, gods=1, gold=1, astronomy=1),
                      ep(pharaohs=2, gods=2, art=1, agriculture=1, astronomy=1, writing=1),
                      ep(pharaohs=2, religion=2)],
               {"obelisk": 3, "palace": 1, "sphinx": 1}, [8, 7, 4, 3]),
    ]}
    sheet = score_final(doc)
    assert stages(sheet) == [[22, 17, 34], [13, 27, 33]]
    assert totals(sheet) == [34, 33]
    assert ranks(sheet) == [1, 2]
    assert [points(sheet, p, "suns", 3) for p in (0, 1)] == [0, 0]
    assert [c.reason for p in sheet.players for c in p.categories if c.key == "suns"] == [
        "all_equal", "all_equal"]
    assert [points(sheet, p, "pharaohs", 2) for p in (0, 1)] == [0, 0]


# ------------------------------------------------------------------------------------------
# Options: fame_floor_zero and epoch3_single_net
# ------------------------------------------------------------------------------------------

def options_doc(**options) -> dict:
    # Ana ends epoch 2 on 3 fame, loses 7 in epoch 3's normal categories and gains 12 from
    # monuments and suns. Bo and Cy: one Pharaoh and one Civilization every epoch.
    doc = {"game": "ra", "players": [
        player("Ana", [ep(), ep(gods=1, religion=1), ep()],
               {"pyramid": 3, "temple": 1}, [13, 12, 11, 10]),
        player("Bo", [ep(pharaohs=1, art=1), ep(pharaohs=1, religion=1),
                      ep(pharaohs=1, writing=1)], {}, [9, 8, 7, 6]),
        player("Cy", [ep(pharaohs=1, art=1), ep(pharaohs=1, religion=1),
                      ep(pharaohs=1, writing=1)], {}, [5, 4, 3, 2]),
    ]}
    if options:
        doc["options"] = options
    return doc


# Ana: epoch 1 Pharaohs -2 + civ -5 = -7 → 3; epoch 2 -2 + gods 2 + civ 0 = 0 → 3;
#      epoch 3 normal -2 - 5 = -7; extras: monuments 2 kinds 2 + Pyramid×3 5 = 7,
#      suns 46 (highest) +5 → +12.
#   single net (default): 3 + (-7 + 12) = 8, no floor.
#   split: 3 - 7 = -4 → 0 (floor +4), then 0 + 12 = 12.
# Bo: 15, 20, then +5 Pharaohs + 0 civ + 0 monuments + suns 30 (middle) 0 → 25.
# Cy: 15, 20, then +5 + suns 14 (lowest) -5 → 20.
OPTION_CASES = [
    pytest.param({}, [8, 25, 20], None, id="defaults"),
    pytest.param({"fame_floor_zero": True, "epoch3_single_net": True}, [8, 25, 20], None,
                 id="both-true"),
    pytest.param({"epoch3_single_net": False}, [12, 25, 20], 4, id="split-epoch-3"),
    pytest.param({"fame_floor_zero": False}, [8, 25, 20], None, id="no-floor"),
    pytest.param({"fame_floor_zero": False, "epoch3_single_net": False}, [8, 25, 20], None,
                 id="no-floor-split"),
]


@pytest.mark.parametrize("options, expected, floor", OPTION_CASES)
def test_options(options, expected, floor):
    sheet = score_final(options_doc(**options))
    assert totals(sheet) == expected
    assert stages(sheet)[0] == [3, 3, expected[0]]
    floors = [c.points for c in sheet.players[0].categories if c.key == "floor"]
    assert floors == ([] if floor is None else [floor])
    assert sum(c.points for c in sheet.players[0].categories) == expected[0]


def test_split_epoch_3_floors_again_after_extras():
    # With the split, the floor applies after the normal categories and again after monuments
    # and suns. Ana on 3 fame: normal -7 → 0 (+4); extras -5 (suns lowest) → 0 (+5 more).
    doc = options_doc(epoch3_single_net=False)
    doc["players"][0]["monuments"] = {}
    doc["players"][0]["suns"], doc["players"][2]["suns"] = [5, 4, 3, 2], [13, 12, 11, 10]
    sheet = score_final(doc)
    assert totals(sheet)[0] == 0
    assert points(sheet, 0, "floor", 3) == 9
    assert totals(sheet)[2] == 20 + 5 + 5    # Cy now holds the highest total


# ------------------------------------------------------------------------------------------
# The document is not changed
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("build", [three_player_doc, four_player_doc, five_player_doc,
                                   lambda: three_player_doc(epochs=1)])
def test_document_not_mutated(build):
    doc = build()
    doc["players"][0]["name"] = "  Ana  "        # normalised in the clean copy only
    doc["players"][1]["epochs"][0].pop("civilizations")
    before = copy.deepcopy(doc)
    sheet = score_final(doc)
    assert doc == before
    assert sheet.players[0].name == "Ana"
    bad = copy.deepcopy(doc)
    bad["players"][0]["epochs"][0]["gods"] = -1
    bad_before = copy.deepcopy(bad)
    with pytest.raises(InvalidDocument):
        score_final(bad)
    assert bad == bad_before


# ------------------------------------------------------------------------------------------
# Bad documents: one violation each, with its code and field
# ------------------------------------------------------------------------------------------

def violations(doc) -> list[tuple[str, str]]:
    with pytest.raises(InvalidDocument) as caught:
        score_final(doc)
    found = [(v.code, v.field) for v in caught.value.violations]
    assert caught.value.first.code == found[0][0]
    return found


def base() -> dict:
    """A valid complete three-player document to break one thing at a time."""
    doc = three_player_doc()
    score_final(doc)    # really valid
    return doc


def set_in(doc, path: str, value):
    *parents, last = path.split(".")
    node = doc
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return doc


def _players(n: int) -> dict:
    names = ["P%d" % i for i in range(n)]
    return {"players": [player(name, [ep()]) for name in names]}


@pytest.mark.parametrize("count", [0, 1, 6])
def test_bad_player_count(count):
    assert violations(_players(count)) == [("ra.bad_player_count", "players")]


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_good_player_counts_one_epoch(count):
    assert len(score_final(_players(count)).players) == count


@pytest.mark.parametrize("name", ["", "   "])
def test_empty_name(name):
    assert violations(set_in(base(), "players.1.name", name)) == [
        ("schema.empty", "players.1.name")]


@pytest.mark.parametrize("name", ["ana", "ANA", " Ana "])
def test_duplicate_name(name):
    assert violations(set_in(base(), "players.2.name", name)) == [
        ("ra.duplicate_name", "players.2.name")]


@pytest.mark.parametrize("path", [
    "players.1.epochs.0.gods", "players.0.epochs.2.pharaohs", "players.2.epochs.1.niles",
    "players.1.epochs.1.floods", "players.0.epochs.0.gold",
    "players.2.epochs.2.civilizations.religion", "players.1.monuments.sphinx", "players.2.suns.3",
])
def test_negative(path):
    assert violations(set_in(base(), path, -1)) == [("schema.negative", path)]


@pytest.mark.parametrize("value", [1.5, 2.0, "2", True, False, [1], {"n": 1}])
@pytest.mark.parametrize("path", ["players.1.epochs.0.gods",
                                  "players.0.epochs.1.civilizations.art",
                                  "players.2.monuments.temple", "players.0.suns.1"])
def test_not_integer(path, value):
    assert violations(set_in(base(), path, value)) == [("schema.not_integer", path)]


@pytest.mark.parametrize("path", [
    "colour", "options.hide_fame", "players.0.colour", "players.1.epochs.0.ra",
    "players.1.epochs.2.disasters", "players.2.epochs.0.civilizations.pottery",
    "players.0.monuments.mortuary", "players.2.monuments.shrine",
])
def test_unknown_key(path):
    doc = base()
    doc.setdefault("options", {})
    assert violations(set_in(doc, path, 1)) == [("schema.unknown_key", path)]


def test_epoch_count_mismatch():
    doc = base()
    doc["players"][2]["epochs"].pop()
    assert violations(doc) == [("ra.epoch_count_mismatch", "players.2.epochs")]


def test_wrong_game():
    assert violations(set_in(base(), "game", "imhotep")) == [("score.wrong_game", "game")]


# Box limits (spec §2.2): each case breaks one kind, at the place where the count passes.
TOO_MANY = [
    # 8 + 8 + 9 = 25 Pharaohs held all game long: drawn once, not three times (valid), so the
    # first extra one is player 0's rise from 8 to 9 in epoch 3.
    pytest.param({"pharaohs": [[8, 8, 9], [8, 8, 8], [9, 9, 9]]},
                 "players.0.epochs.2.pharaohs", id="pharaohs-rise"),
    pytest.param({"pharaohs": [[9, 9, 9], [9, 9, 9], [8, 8, 8]]}, "players.2.epochs.0.pharaohs",
                 id="pharaohs-26-at-once"),
    # A Funeral takes two away (10 → 8); getting back to 9 needs a new tile: 25 + 1.
    pytest.param({"pharaohs": [[10, 8, 9], [10, 10, 10], [5, 5, 5]]},
                 "players.0.epochs.2.pharaohs", id="pharaohs-after-funeral"),
    pytest.param({"niles": [[9, 9, 10], [8, 8, 8], [8, 8, 8]]}, "players.0.epochs.2.niles",
                 id="niles"),
    pytest.param({"gods": [[4, 0, 0], [0, 4, 1], [0, 0, 0]]}, "players.1.epochs.2.gods",
                 id="ninth-god"),
    pytest.param({"floods": [[6, 6, 0], [0, 0, 1], [0, 0, 0]]}, "players.1.epochs.2.floods",
                 id="thirteenth-flood"),
    pytest.param({"gold": [[3, 0, 0], [0, 3, 0], [0, 0, 0]]}, "players.1.epochs.1.gold",
                 id="sixth-gold"),
    # Counted epoch by epoch: epoch 1 Ana 2 + Cy 2 = 4, epoch 2 Bo 2 → 6.
    pytest.param({"art": [[2, 0, 0], [0, 2, 0], [2, 0, 0]]},
                 "players.1.epochs.1.civilizations.art", id="sixth-art"),
    pytest.param({"writing": [[0, 0, 5], [0, 0, 1], [0, 0, 0]]},
                 "players.1.epochs.2.civilizations.writing", id="sixth-writing"),
]


def box_doc(tile: str, table) -> dict:
    """Three players who hold only ``tile`` (and one Civilization each, within the box)."""
    doc = {"players": []}
    for p, (name, counts) in enumerate(zip(("Ana", "Bo", "Cy"), table)):
        epochs = []
        for count in counts:
            entry = ep()
            if tile in printed.CIVILIZATION_KINDS:
                entry["civilizations"][tile] = count
            else:
                entry[tile] = count
            epochs.append(entry)
        doc["players"].append(player(name, epochs, {}, printed.SUN_GROUPS[3][p]))
    return doc


@pytest.mark.parametrize("tiles, field", TOO_MANY)
def test_too_many_tiles(tiles, field):
    ((tile, table),) = tiles.items()
    assert violations(box_doc(tile, table)) == [("ra.too_many_tiles", field)]


@pytest.mark.parametrize("tile, table", [
    ("pharaohs", [[9, 9, 9], [8, 8, 8], [8, 8, 8]]),       # 25 kept all game
    ("pharaohs", [[10, 8, 8], [10, 10, 10], [5, 5, 5]]),   # a Funeral, no regain
    ("niles", [[10, 10, 10], [15, 15, 15], [0, 0, 0]]),
    ("gods", [[3, 0, 0], [0, 4, 1], [0, 0, 0]]),
    ("floods", [[6, 5, 0], [0, 0, 1], [0, 0, 0]]),
    ("gold", [[2, 0, 0], [0, 3, 0], [0, 0, 0]]),
    ("art", [[1, 0, 0], [0, 2, 0], [2, 0, 0]]),
])
def test_box_limits_reached_exactly_are_valid(tile, table):
    assert score_final(box_doc(tile, table)).complete is True


def test_sixth_sphinx():
    doc = base()   # Ana 1 Sphinx, Cy 3: 4 in all
    doc["players"][1]["monuments"]["sphinx"] = 2
    assert violations(doc) == [("ra.too_many_tiles", "players.2.monuments.sphinx")]


def test_six_of_one_monument_for_one_player():
    doc = base()
    doc["players"][1]["monuments"]["obelisk"] = 6
    assert violations(doc) == [("ra.too_many_tiles", "players.1.monuments.obelisk")]


def test_too_many_tiles_violation_carries_its_numbers():
    with pytest.raises(InvalidDocument) as caught:
        score_final(box_doc("gods", [[4, 0, 0], [0, 4, 1], [0, 0, 0]]))
    v = caught.value.first
    assert (v.params["limit"], v.params["count"]) == (8, 9)
    assert v.as_dict()["field"] == "players.1.epochs.2.gods"


# Suns (spec §2.3): the player count's set, the right number each, all different.
SUN_CASES = [
    pytest.param(3, 0, [13, 6, 2], [("ra.sun_count", "players.0.suns")], id="too-few"),
    pytest.param(3, 0, [13, 6, 2, 5, 1], [("ra.sun_count", "players.0.suns")], id="too-many"),
    pytest.param(3, 1, [12, 9, 3, 14], [("ra.sun_out_of_range", "players.1.suns.3")],
                 id="14-with-3-players"),
    pytest.param(3, 2, [0, 10, 7, 8], [("ra.sun_out_of_range", "players.2.suns.0")],
                 id="zero"),
    pytest.param(3, 1, [12, 9, 13, 4], [("ra.duplicate_sun", "players.1.suns.2")],
                 id="held-twice"),
    pytest.param(3, 2, [11, 10, 10, 8], [("ra.duplicate_sun", "players.2.suns.2")],
                 id="twice-in-one-hand"),
]


@pytest.mark.parametrize("players, who, suns, expected", SUN_CASES)
def test_bad_suns(players, who, suns, expected):
    assert violations(set_in(base(), f"players.{who}.suns", suns)) == expected


@pytest.mark.parametrize("count, who, sun", [(2, 1, 10), (4, 3, 14), (5, 0, 17)])
def test_sun_out_of_range_per_player_count(count, who, sun):
    # Start from the starting groups (valid), then give one player a sun the count lacks.
    doc = {"players": [player(f"P{p}", [ep()] * 3, {}, group)
                       for p, group in enumerate(printed.SUN_GROUPS[count])]}
    assert score_final(doc).complete is True
    doc["players"][who]["suns"][0] = sun
    assert violations(doc) == [("ra.sun_out_of_range", f"players.{who}.suns.0")]


def test_two_players_hold_four_suns_each():
    doc = {"players": [player(f"P{p}", [ep()], {}, group[:3])
                       for p, group in enumerate(printed.SUN_GROUPS[2])]}
    assert violations(doc) == [("ra.sun_count", "players.0.suns"),
                               ("ra.sun_count", "players.1.suns")]


@pytest.mark.parametrize("missing", ["absent", "null"])
def test_suns_required_after_epoch_3(missing):
    doc = base()
    if missing == "absent":
        del doc["players"][1]["suns"]
    else:
        doc["players"][1]["suns"] = None
    assert violations(doc) == [("ra.suns_required", "players.1.suns")]


def test_every_violation_is_reported():
    doc = base()
    doc["players"][0]["epochs"][0]["gods"] = -2
    doc["players"][2]["epochs"][1]["gold"] = "1"
    doc["players"][1]["colour"] = "red"
    assert sorted(violations(doc)) == [("schema.negative", "players.0.epochs.0.gods"),
                                       ("schema.not_integer", "players.2.epochs.1.gold"),
                                       ("schema.unknown_key", "players.1.colour")]


def test_shape_errors_and_game_errors_are_reported_together():
    doc = base()
    doc["players"][0]["epochs"][0]["gods"] = "1"
    doc["players"][2]["name"] = "BO"
    assert violations(doc) == [("schema.not_integer", "players.0.epochs.0.gods"),
                               ("ra.duplicate_name", "players.2.name")]


@pytest.mark.parametrize("bad", [3, "Bo", None, []])
def test_player_that_is_not_an_object_gets_one_message(bad):
    # The stand-in for the broken player has no epochs; that must not also be reported as an
    # epoch-count mismatch inside the field that is already flagged.
    doc = base()
    doc["players"][1] = bad
    assert violations(doc) == [("schema.not_object", "players.1")]


def test_validate_final_returns_a_normalised_copy():
    clean = validate_final({"players": [{"name": " Ana  Maria ", "epochs": [{}]},
                                        {"name": "Bo", "epochs": [{"gods": 1}]}]})
    assert clean["players"][0]["name"] == "Ana Maria"
    assert clean["players"][1]["epochs"][0] == {
        "gods": 1, "pharaohs": 0, "niles": 0, "floods": 0, "gold": 0,
        "civilizations": {kind: 0 for kind in printed.CIVILIZATION_KINDS}}
    assert clean["options"] == {"fame_floor_zero": True, "epoch3_single_net": True}
