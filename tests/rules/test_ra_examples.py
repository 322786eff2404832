"""Ra: the scoring worked examples of shared/rules/ra.md §7, table-driven, exact numbers.

RA-T01..RA-T13 and RA-T23 are scoring examples and live here. RA-T14..RA-T22 and RA-T24 are
move-by-move (disasters, auctions, setup) and belong to the live engine's tests.

Each example is checked twice where that is natural: on the scoring function that implements
the rule (points and reason of the returned Category), and through ``score_final`` on a
document in which the example is the only thing that varies.
"""

from __future__ import annotations

import pytest

from companion.rules.base import Category
from companion.rules.ra import printed
from companion.rules.ra.final import score_final
from companion.rules.ra.scoring import (ALL_EQUAL, FEWEST, FLOOR_AT_ZERO, MOST, NO_CIVILIZATION,
                                        NO_FLOOD, EpochHoldings, ScoringOptions, apply_epoch,
                                        civilization_points, epoch_categories, final_categories,
                                        monument_points, most_fewest, river_points, score_game)

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")


# ------------------------------------------------------------------------------------------
# Small builders
# ------------------------------------------------------------------------------------------


def epoch(**holdings) -> dict:
    """One epoch entry; civilization kinds may be passed directly (``art=1``)."""
    civ = {kind: holdings.pop(kind) for kind in printed.CIVILIZATION_KINDS if kind in holdings}
    return {**holdings, "civilizations": civ}


def document(epochs_by_player, monuments=None, suns=None) -> dict:
    """A document; ``epochs_by_player[p]`` is player p's list of epoch entries."""
    players = []
    for p, epochs in enumerate(epochs_by_player):
        player = {"name": NAMES[p], "epochs": epochs}
        if monuments is not None:
            player["monuments"] = monuments[p]
        if suns is not None:
            player["suns"] = list(suns[p])
        players.append(player)
    return {"game": "ra", "players": players}


def category(scored_player: dict, key: str, stage: int | None = None) -> dict:
    """The one category ``key`` (in ``stage``) of a player in ``Scoresheet.as_dict()``."""
    found = [c for c in scored_player["breakdown"]["categories"]
             if c["category"] == key and (stage is None or c.get("stage") == stage)]
    assert len(found) == 1, found
    return found[0]


def by_key(categories, key: str) -> Category:
    found = [c for c in categories if c.key == key]
    assert len(found) == 1, found
    return found[0]


# ------------------------------------------------------------------------------------------
# RA-T01..RA-T03: Pharaohs (+5 most, -2 fewest, nobody if all equal)
# ------------------------------------------------------------------------------------------

PHARAOHS = [
    pytest.param([3, 2, 2, 3], [(5, MOST), (-2, FEWEST), (-2, FEWEST), (5, MOST)], id="RA-T01"),
    pytest.param([4, 3, 3, 4], [(5, MOST), (-2, FEWEST), (-2, FEWEST), (5, MOST)], id="RA-T02"),
    pytest.param([2, 2, 2, 2], [(0, ALL_EQUAL)] * 4, id="RA-T03-two-each"),
    pytest.param([0, 0, 0, 0], [(0, ALL_EQUAL)] * 4, id="RA-T03-all-zero"),
]


@pytest.mark.parametrize("counts, expected", PHARAOHS)
def test_pharaohs_most_fewest(counts, expected):
    assert most_fewest(counts, printed.PHARAOHS_MOST, printed.PHARAOHS_FEWEST) == expected


@pytest.mark.parametrize("counts, expected", PHARAOHS)
def test_pharaohs_epoch_categories(counts, expected):
    scored = epoch_categories([EpochHoldings(pharaohs=n) for n in counts], epoch=1)
    got = [(by_key(cats, "pharaohs").points, by_key(cats, "pharaohs").reason) for cats in scored]
    assert got == expected
    assert [by_key(cats, "pharaohs").detail["count"] for cats in scored] == counts
    assert all(by_key(cats, "pharaohs").stage == 1 for cats in scored)


@pytest.mark.parametrize("counts, expected", PHARAOHS)
def test_pharaohs_score_final(counts, expected):
    sheet = score_final(document([[epoch(pharaohs=n)] for n in counts])).as_dict()
    got = [(category(p, "pharaohs", 1)["points"], category(p, "pharaohs", 1).get("reason"))
           for p in sheet["players"]]
    assert got == expected
    # Nothing else held: 10 start, -5 for no Civilization, plus the Pharaoh award.
    assert [p["total"] for p in sheet["players"]] == [10 - 5 + pts for pts, _ in expected]


# ------------------------------------------------------------------------------------------
# RA-T04..RA-T06: Civilizations (by different kinds; duplicates add nothing)
# ------------------------------------------------------------------------------------------

CIVILIZATIONS = [
    pytest.param({"astronomy": 3, "agriculture": 2, "writing": 2}, 5, 3, None, id="RA-T04"),
    pytest.param({"astronomy": 3, "agriculture": 2, "writing": 2, "art": 1}, 10, 4, None,
                 id="RA-T05"),
    pytest.param({}, -5, 0, NO_CIVILIZATION, id="RA-T06-none"),
    pytest.param({"religion": 2}, 0, 1, None, id="RA-T06-one-kind"),
    pytest.param({"art": 1, "writing": 3}, 0, 2, None, id="RA-T06-two-kinds"),
    pytest.param({kind: 1 for kind in printed.CIVILIZATION_KINDS}, 15, 5, None,
                 id="RA-T06-five-kinds"),
]


@pytest.mark.parametrize("civs, points, kinds, reason", CIVILIZATIONS)
def test_civilization_points(civs, points, kinds, reason):
    assert civilization_points(civs) == (points, kinds)
    # Kinds listed with a count of 0 are not held.
    padded = {kind: civs.get(kind, 0) for kind in printed.CIVILIZATION_KINDS}
    assert civilization_points(padded) == (points, kinds)


@pytest.mark.parametrize("civs, points, kinds, reason", CIVILIZATIONS)
def test_civilization_epoch_category(civs, points, kinds, reason):
    (cats,) = epoch_categories([EpochHoldings(civilizations=civs)], epoch=2)
    civ = by_key(cats, "civilizations")
    assert (civ.points, civ.reason, civ.stage) == (points, reason, 2)
    assert civ.detail == {"kinds": kinds, "tiles": sum(civs.values())}


@pytest.mark.parametrize("civs, points, kinds, reason", CIVILIZATIONS)
def test_civilization_score_final(civs, points, kinds, reason):
    # Ana holds the example; Bo and Cy hold one Art each (0 points). Pharaohs all 0: nobody.
    doc = document([[epoch(**civs)], [epoch(art=0, religion=1)], [epoch(writing=1)]])
    sheet = score_final(doc).as_dict()
    ana = sheet["players"][0]
    assert category(ana, "civilizations", 1)["points"] == points
    assert category(ana, "civilizations", 1).get("reason") == reason
    assert ana["total"] == 10 + points
    assert [p["total"] for p in sheet["players"][1:]] == [10, 10]


# ------------------------------------------------------------------------------------------
# RA-T07: Nile and Flood (one point each, only with at least one Flood)
# ------------------------------------------------------------------------------------------

RIVER = [
    pytest.param(3, 1, 4, None, id="RA-T07-1-flood-3-nile"),
    pytest.param(0, 2, 2, None, id="RA-T07-2-flood-0-nile"),
    pytest.param(4, 0, 0, NO_FLOOD, id="RA-T07-0-flood-4-nile"),
]


@pytest.mark.parametrize("niles, floods, points, reason", RIVER)
def test_river_points(niles, floods, points, reason):
    assert river_points(niles, floods) == points
    (cats,) = epoch_categories([EpochHoldings(niles=niles, floods=floods)], epoch=1)
    river = by_key(cats, "river")
    assert (river.points, river.reason) == (points, reason)
    assert river.detail == {"niles": niles, "floods": floods}


@pytest.mark.parametrize("niles, floods, points, reason", RIVER)
def test_river_score_final(niles, floods, points, reason):
    doc = document([[epoch(niles=niles, floods=floods, art=1)], [epoch(art=1)], [epoch(art=1)]])
    ana = score_final(doc).as_dict()["players"][0]
    assert category(ana, "river", 1)["points"] == points
    assert category(ana, "river", 1).get("reason") == reason
    assert ana["total"] == 10 + points


# ------------------------------------------------------------------------------------------
# RA-T08, RA-T09: Monuments after epoch 3 (diversity + multiplicity)
# ------------------------------------------------------------------------------------------

MONUMENTS = [
    pytest.param({"pyramid": 4, "temple": 3, "fortress": 2, "sphinx": 1}, 4, 15, 19,
                 id="RA-T08"),
    pytest.param({"obelisk": 5}, 1, 15, 16, id="RA-T09-five-obelisks"),
    pytest.param({kind: 1 for kind in printed.MONUMENT_KINDS}, 15, 0, 15,
                 id="RA-T09-eight-kinds"),
    pytest.param({"temple": 4, "fortress": 1, "obelisk": 1, "palace": 1, "pyramid": 1,
                  "sphinx": 1, "statue": 1}, 10, 10, 20, id="RA-T09-seven-kinds-four-temples"),
]


@pytest.mark.parametrize("monuments, kind_points, set_points, total", MONUMENTS)
def test_monument_points(monuments, kind_points, set_points, total):
    held_kinds = sum(1 for n in monuments.values() if n)
    assert monument_points(monuments) == (kind_points, set_points, held_kinds)
    assert kind_points + set_points == total


@pytest.mark.parametrize("monuments, kind_points, set_points, total", MONUMENTS)
def test_monument_final_categories(monuments, kind_points, set_points, total):
    (cats,) = final_categories([monuments], [[13, 6, 2]])
    assert by_key(cats, "monument_kinds").points == kind_points
    assert by_key(cats, "monument_sets").points == set_points
    assert by_key(cats, "monument_sets").detail["sets"] == {
        kind: n for kind, n in monuments.items() if n >= 3}
    assert all(c.stage == 3 for c in cats)


# The suns of the three-player start (§2.3), centre sun 1: totals 28, 30, 32.
START_SUNS_3P = [list(group) for group in printed.SUN_GROUPS[3]]


@pytest.mark.parametrize("monuments, kind_points, set_points, total", MONUMENTS)
def test_monument_score_final(monuments, kind_points, set_points, total):
    # Three epochs with one Civilization each (0 points) and nothing else, so only Ana's
    # monuments and the suns (28 → -5, 30 → 0, 32 → +5) move anyone's fame.
    doc = document([[epoch(art=1)] * 3, [epoch(religion=1)] * 3, [epoch(writing=1)] * 3],
                   [monuments, {}, {}], START_SUNS_3P)
    sheet = score_final(doc).as_dict()
    ana = sheet["players"][0]
    assert category(ana, "monument_kinds", 3)["points"] == kind_points
    assert category(ana, "monument_sets", 3)["points"] == set_points
    assert ana["total"] == 10 + total - 5
    assert [p["total"] for p in sheet["players"]][1:] == [10, 15]


# ------------------------------------------------------------------------------------------
# RA-T10, RA-T11: Sun totals (+5 highest, -5 lowest, nobody if all equal)
# ------------------------------------------------------------------------------------------

SUNS = [
    # 4 players, centre sun 11: 9+5+3 = 17, 13+10+2 = 25, 12+8+1 = 21, 7+6+4 = 17.
    pytest.param([[9, 5, 3], [13, 10, 2], [12, 8, 1], [7, 6, 4]], [17, 25, 21, 17],
                 [(-5, FEWEST), (5, MOST), (0, None), (-5, FEWEST)], id="RA-T10"),
    # 2 players, the starting groups, centre sun 1: 22 and 22.
    pytest.param([[9, 6, 5, 2], [8, 7, 4, 3]], [22, 22], [(0, ALL_EQUAL)] * 2,
                 id="RA-T11-two-players"),
    # 3 players, centre sun 1: 13+12+3+2 = 11+10+5+4 = 9+8+7+6 = 30.
    pytest.param([[13, 12, 3, 2], [11, 10, 5, 4], [9, 8, 7, 6]], [30, 30, 30],
                 [(0, ALL_EQUAL)] * 3, id="RA-T11-three-players"),
]


@pytest.mark.parametrize("suns, totals, expected", SUNS)
def test_sun_awards(suns, totals, expected):
    assert [sum(s) for s in suns] == totals
    assert most_fewest(totals, printed.SUNS_MOST, printed.SUNS_FEWEST) == expected
    scored = final_categories([{} for _ in suns], suns)
    assert [(by_key(c, "suns").points, by_key(c, "suns").reason) for c in scored] == expected
    assert [by_key(c, "suns").detail["total"] for c in scored] == totals


@pytest.mark.parametrize("suns, totals, expected", SUNS)
def test_sun_awards_score_final(suns, totals, expected):
    # One Art per player per epoch would break the box for 4 players over 3 epochs (12 > 5),
    # so every player holds nothing: fame 10 → 5 → 0 → 0, and then the sun award.
    doc = document([[epoch() for _ in range(3)] for _ in suns], suns=suns)
    sheet = score_final(doc).as_dict()
    got = [(category(p, "suns", 3)["points"], category(p, "suns", 3).get("reason"))
           for p in sheet["players"]]
    assert got == expected
    # Epoch 3 net = -5 (no civilization) + sun award, floored at 0 from fame 0.
    assert [p["total"] for p in sheet["players"]] == [max(0, -5 + pts) for pts, _ in expected]


# ------------------------------------------------------------------------------------------
# RA-T12, RA-T13: applying an epoch's net (floor at 0)
# ------------------------------------------------------------------------------------------

# Both examples as (fame before, holdings of the player, others' holdings, epoch,
# fame after, expected floor category points or None).
NET = [
    # RA-T12: fame 3; fewest Pharaohs (-2) and no Civilization (-5): net -7 → 0, floor +4.
    pytest.param(3, EpochHoldings(), [EpochHoldings(pharaohs=1, civilizations={"art": 1})],
                 2, -7, 0, 4, id="RA-T12"),
    # RA-T13: epoch 1, Pharaohs all equal, 1 Gold (+3) and no Civilization (-5): 10 → 8.
    pytest.param(10, EpochHoldings(gold=1, pharaohs=2), [EpochHoldings(pharaohs=2)], 1, -2, 8,
                 None, id="RA-T13"),
]


@pytest.mark.parametrize("before, mine, others, stage, net, after, floor", NET)
def test_apply_epoch(before, mine, others, stage, net, after, floor):
    normal = epoch_categories([mine, *others], stage)[0]
    assert sum(c.points for c in normal) == net
    fame, applied = apply_epoch(before, normal, [], stage, ScoringOptions())
    assert fame == after
    floors = [c for c in applied if c.key == "floor"]
    if floor is None:
        assert floors == []
    else:
        assert [(c.points, c.reason, c.stage) for c in floors] == [(floor, FLOOR_AT_ZERO, stage)]
    assert applied[:len(normal)] == normal
    # The categories always add up to the fame change.
    assert before + sum(c.points for c in applied) == fame


def test_ra_t12_without_floor_goes_negative():
    normal = epoch_categories([EpochHoldings(), EpochHoldings(pharaohs=1)], 2)[0]
    fame, applied = apply_epoch(3, normal, [], 2, ScoringOptions(fame_floor_zero=False))
    assert fame == -4
    assert not any(c.key == "floor" for c in applied)


def test_ra_t12_score_final():
    # Ana: 0 Pharaohs (fewest, -2) and no Civilization (-5) in both epochs: 10 → 3 → 0 (not -4).
    # Bo and Cy: 1 Pharaoh (most, +5) and 1 Civilization (0): 10 → 15 → 20.
    other = [epoch(pharaohs=1, art=1), epoch(pharaohs=1, writing=1)]
    sheet = score_final(document([[epoch(), epoch()], other, other])).as_dict()
    ana = sheet["players"][0]
    assert ana["breakdown"]["stage_totals"] == [3, 0]
    assert ana["total"] == 0
    floor = category(ana, "floor", 2)
    assert (floor["points"], floor["reason"]) == (4, FLOOR_AT_ZERO)
    assert [c["category"] for c in ana["breakdown"]["categories"]].count("floor") == 1
    assert [p["breakdown"]["stage_totals"] for p in sheet["players"][1:]] == [[15, 20]] * 2


def test_ra_t13_score_final():
    # Every player 2 Pharaohs (all equal: nobody scores); Ana also 1 Gold: 3 - 5 = -2, 10 → 8.
    doc = document([[epoch(pharaohs=2, gold=1)], [epoch(pharaohs=2)], [epoch(pharaohs=2)]])
    sheet = score_final(doc).as_dict()
    ana = sheet["players"][0]
    assert ana["total"] == 8
    assert ana["breakdown"]["stage_totals"] == [8]
    assert category(ana, "pharaohs", 1)["reason"] == ALL_EQUAL
    assert category(ana, "gold", 1)["points"] == 3
    assert category(ana, "civilizations", 1)["points"] == -5
    assert sheet["complete"] is False


# ------------------------------------------------------------------------------------------
# RA-T23: the tie-break (highest sun held)
# ------------------------------------------------------------------------------------------

TIEBREAK = [
    pytest.param(([12, 3, 5], [11, 8, 4]), (1, 2), id="RA-T23"),
    pytest.param(([11, 8, 4], [12, 3, 5]), (2, 1), id="RA-T23-seats-swapped"),
]


@pytest.mark.parametrize("tied_suns, tied_ranks", TIEBREAK)
def test_tiebreak_score_game(tied_suns, tied_ranks):
    # 4 players, centre sun 7. The tied pair's sun totals (20, 23) lie between Cy's 1+2+13 = 16
    # (lowest, -5) and Di's 6+9+10 = 25 (highest, +5), so suns leave the tie in place.
    # Ana and Bo hold one Civilization each epoch (0 points): 10, 10, 10, then 10 + 0.
    # Cy and Di hold nothing: 10 → 5 → 0 → 0 (Cy: -5 - 5 floored; Di: -5 + 5).
    suns = [*tied_suns, [1, 2, 13], [6, 9, 10]]
    one_civ = EpochHoldings(civilizations={"art": 1})
    nothing = EpochHoldings()
    sheet = score_game(["Ana", "Bo", "Cy", "Di"], [[one_civ, one_civ, nothing, nothing]] * 3,
                       monuments=[{}] * 4, suns=suns)
    assert [p.total for p in sheet.players] == [10, 10, 0, 0]
    assert tuple(p.rank for p in sheet.players[:2]) == tied_ranks
    # Cy and Di also tie (0): Cy holds 13, Di only 10.
    assert [p.rank for p in sheet.players[2:]] == [3, 4]
    assert [p.tiebreak.value for p in sheet.players] == [max(s) for s in suns]
    assert all(p.tiebreak.rule == "ra.highest_sun" for p in sheet.players)
    winner = "Ana" if tied_ranks == (1, 2) else "Bo"
    assert sheet.winners == [winner]


@pytest.mark.parametrize("tied_suns, tied_ranks", TIEBREAK)
def test_tiebreak_score_final(tied_suns, tied_ranks):
    suns = [*tied_suns, [1, 2, 13], [6, 9, 10]]
    tied = [epoch(art=1), epoch(art=1), epoch(religion=1)]
    doc = document([tied, tied, [epoch()] * 3, [epoch()] * 3], suns=suns)
    sheet = score_final(doc).as_dict()
    holder_of_12 = next(p for p, s in zip(sheet["players"], suns) if 12 in s)
    assert holder_of_12["rank"] == 1
    assert sheet["winners"] == [holder_of_12["name"]]
    assert [p["total"] for p in sheet["players"]] == [10, 10, 0, 0]
    assert [p["rank"] for p in sheet["players"]] == [*tied_ranks, 3, 4]
    assert [p["breakdown"]["tiebreak"] for p in sheet["players"][:2]] == [
        {"rule": "ra.highest_sun", "value": max(s)} for s in tied_suns]
