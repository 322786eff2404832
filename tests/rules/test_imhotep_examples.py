"""Imhotep: the scoring worked examples of shared/rules/imhotep.md §7, table-driven, exact numbers.

IM-T04..IM-T10, IM-T14..IM-T17, IM-T21 and IM-T22 are scoring examples and live here: each is
checked on the scoring function that implements the rule and, where natural, through
``score_final`` on a document in which the example is the only thing that varies.
IM-T01..IM-T03, IM-T11..IM-T13, IM-T18..IM-T20 and IM-T23 are move-by-move examples; they are
played through the live referee in test_imhotep_engine.py (look for their ids there).
"""

from __future__ import annotations

import pytest

from companion.rules.imhotep import printed
from companion.rules.imhotep.final import score_final
from companion.rules.imhotep.scoring import (NO_STONES, SHARED, blue_card_points,
                                             burial_chamber_a_points, burial_chamber_b_points,
                                             burial_chamber_groups, burial_chamber_rows,
                                             decoration_points, group_points,
                                             missing_monuments, obelisk_a_points,
                                             pyramid_a_points, rank_points, statue_points,
                                             temple_round_points, temple_visible,
                                             wrath_penalty)

COLOURS = ("black", "white", "brown", "gray")
NAMES = ("Ana", "Bo", "Cy", "Di")
G, BR, W, BK = "gray", "brown", "white", "black"


def document(colours=COLOURS, burial=(), sides=None, **per_player) -> dict:
    """A score-only document: one player per colour, everything 0 unless given.

    ``per_player`` maps a player field to a list of values in seat order, e.g.
    ``obelisk=[3, 4, 0, 3]``; card fields are given as ``statue=[...]``.
    """
    players = []
    for p, colour in enumerate(colours):
        player = {"name": NAMES[p], "color": colour, "track": 0, "obelisk": 0, "cards": {},
                  "sled": 0, "delivered_to": []}
        for key, values in per_player.items():
            if key in printed.KEPT_CARDS:
                player["cards"][key] = values[p]
            else:
                player[key] = values[p]
        players.append(player)
    doc = {"game": "imhotep", "players": players, "burial_chamber": list(burial),
           "site_stones": {"pyramids": 0, "temple": 0}}
    if sides:
        doc["options"] = {"sides": sides}
    return doc


def category(sheet, p: int, key: str):
    found = [c for c in sheet.players[p].categories if c.key == key]
    assert len(found) == 1, (key, found)
    return found[0]


# ------------------------------------------------------------------------------------------
# IM-T05 Burial Chamber A groups, IM-T06 its decoration
# ------------------------------------------------------------------------------------------

T05_CHAMBER = (G, G, G, G, BR, BR, G, W, BR, G, W, BK, BR)


def test_im_t05_groups_found_orthogonally():
    # Columns (top to bottom): G G G | G Br Br | G W Br | G W Bk | Br
    groups = burial_chamber_groups(T05_CHAMBER)
    assert sorted(groups) == sorted([(G, 6), (BR, 3), (W, 2), (BK, 1), (BR, 1)])


@pytest.mark.parametrize("colour, points, sizes", [
    (G, 17, [6]),          # 15 + 2 for the sixth stone
    (BR, 7, [3, 1]),       # 6 + 1: the lone brown at the top of column 5 touches only gray
    (W, 3, [2]),
    (BK, 1, [1]),
])
def test_im_t05_burial_chamber_a_points(colour, points, sizes):
    by_colour = dict(zip(COLOURS, burial_chamber_a_points(T05_CHAMBER, COLOURS)))
    assert by_colour[colour] == (points, sizes)


def test_im_t05_through_score_final():
    sheet = score_final(document(burial=T05_CHAMBER))
    assert [p.total for p in sheet.players] == [1, 3, 7, 17]       # black, white, brown, gray
    assert category(sheet, 3, "burial_chamber").detail == {"groups": [6]}
    assert category(sheet, 2, "burial_chamber").detail == {"groups": [3, 1]}


def test_diagonal_contact_does_not_connect():
    # Column 1: W B W, column 2: B W B → every stone touches only the other colour
    assert sorted(size for _, size in burial_chamber_groups((W, BK, W, BK, W, BK))) == [1] * 6


@pytest.mark.parametrize("size, points", [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15),
                                          (6, 17), (7, 19), (10, 25)])
def test_group_points_table(size, points):
    assert group_points(size) == points


def test_im_t06_burial_chamber_decoration_13_stones():
    assert decoration_points(13) == 4
    sheet = score_final(document(burial=T05_CHAMBER, burial_chamber_decoration=[0, 0, 0, 1]))
    assert category(sheet, 3, "burial_chamber_decoration").points == 4
    assert category(sheet, 3, "burial_chamber_decoration").detail == {"cards": 1, "stones": 13}
    assert sheet.players[3].total == 17 + 4


@pytest.mark.parametrize("stones, points", [(0, 0), (2, 0), (3, 1), (13, 4), (14, 4), (15, 5)])
def test_decoration_one_point_per_three_stones(stones, points):
    assert decoration_points(stones) == points


# ------------------------------------------------------------------------------------------
# Obelisks A: IM-T07, IM-T16, IM-T17
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("example, heights, expected, reasons", [
    ("IM-T07", [3, 4, 0, 3], [7, 15, 0, 7], [SHARED, None, NO_STONES, SHARED]),  # (10+5)/2=7.5
    ("IM-T16", [3, 3], [5, 5], [SHARED, SHARED]),                                # (10+1)/2=5.5
    ("IM-T17", [5, 2, 0], [12, 6, 0], [None, None, NO_STONES]),
    ("derived", [2, 2, 2, 2], [7, 7, 7, 7], [SHARED] * 4),                       # 31/4
    ("derived", [0, 0, 0], [0, 0, 0], [NO_STONES] * 3),
    ("derived", [1, 0], [10, 0], [None, NO_STONES]),
    ("derived", [4, 1, 1, 1], [15, 5, 5, 5], [None, SHARED, SHARED, SHARED]),    # (10+5+1)/3
])
def test_obelisk_a_rank_points(example, heights, expected, reasons):
    result = obelisk_a_points(heights)
    assert [points for points, _ in result] == expected
    assert [reason for _, reason in result] == reasons


def test_im_t07_through_score_final():
    sheet = score_final(document(obelisk=[3, 4, 0, 3]))
    assert [category(sheet, p, "obelisks").points for p in range(4)] == [7, 15, 0, 7]
    assert category(sheet, 0, "obelisks").reason == SHARED
    assert category(sheet, 2, "obelisks").reason == NO_STONES


@pytest.mark.parametrize("players, table", [(2, (10, 1)), (3, (12, 6, 1)),
                                            (4, (15, 10, 5, 1))])
def test_obelisk_table_by_player_count(players, table):
    heights = list(range(players, 0, -1))
    assert [points for points, _ in obelisk_a_points(heights)] == list(table)


# ------------------------------------------------------------------------------------------
# Statues: IM-T08, IM-T09; blue cards
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("example, cards, points", [
    ("none", 0, 0), ("derived", 1, 1), ("derived", 2, 3), ("IM-T08", 3, 6), ("derived", 4, 10),
    ("derived", 5, 15), ("derived", 6, 17), ("IM-T09", 7, 19), ("all ten", 10, 25),
])
def test_statue_table(example, cards, points):
    assert statue_points(cards) == points


def test_im_t08_through_score_final():
    sheet = score_final(document(statue=[3, 7, 0, 0]))
    assert [category(sheet, p, "statues").points for p in range(4)] == [6, 19, 0, 0]


def test_unused_blue_cards_one_point_each():
    assert blue_card_points(3) == 3
    sheet = score_final(document(lever=[1, 0, 0, 0], hammer=[1, 0, 0, 0], sail=[0, 2, 0, 0],
                                 chisel=[0, 1, 0, 0]))
    assert [category(sheet, p, "blue_cards").points for p in range(4)] == [2, 3, 0, 0]


# ------------------------------------------------------------------------------------------
# Burial Chamber B: IM-T10
# ------------------------------------------------------------------------------------------

# Column by column: (W, Bk, G) three times, then (Br, W, G), then G on top of column 5.
T10_CHAMBER = (W, BK, G, W, BK, G, W, BK, G, BR, W, G, G)


def test_im_t10_rows():
    top, middle, bottom = burial_chamber_rows(T10_CHAMBER)
    assert sorted(top) == sorted([W, W, W, BR, G])
    assert sorted(middle) == sorted([BK, BK, BK, W])
    assert bottom == [G, G, G, G]


@pytest.mark.parametrize("colour, total, rows", [
    (W, 12, [8, 4, 0]),
    (BK, 8, [0, 8, 0]),
    (BR, 3, [3, 0, 0]),        # ties with gray for 2nd/3rd: (4 + 2) / 2
    (G, 11, [3, 0, 8]),
])
def test_im_t10_burial_chamber_b(colour, total, rows):
    result = dict(zip(COLOURS, burial_chamber_b_points(T10_CHAMBER, COLOURS, (8, 4, 2, 1))))
    assert result[colour][:2] == (total, rows)


def test_im_t10_through_score_final():
    sides = {"burial_chamber": "B"}
    sheet = score_final(document(burial=T10_CHAMBER, sides=sides))
    assert [p.total for p in sheet.players] == [8, 12, 3, 11]
    assert category(sheet, 2, "burial_chamber").reason == SHARED
    assert category(sheet, 0, "burial_chamber").detail == {"rows": [0, 8, 0]}


def test_burial_chamber_b_rank_points_are_overridable():
    doc = document(burial=T10_CHAMBER, sides={"burial_chamber": "B"})
    doc["options"]["b_values"] = {"burial_chamber_b": [10, 5, 3, 1]}
    sheet = score_final(doc)
    # white 10 + 5, black 10, brown (5+3)//2 = 4, gray 4 + 10
    assert [p.total for p in sheet.players] == [10, 15, 4, 14]


# ------------------------------------------------------------------------------------------
# Temple A: IM-T04, IM-T15; Pyramid A: IM-T14
# ------------------------------------------------------------------------------------------

def test_im_t04_temple_round_scoring():
    # five positions, the visible stones: gray, white, gray, brown, black
    stones = [BK, BK, W, W, BR, G, W, G, BR, BK]
    assert temple_visible(stones, 5) == [G, W, G, BR, BK]
    assert temple_round_points(stones, 5) == {G: 2, W: 1, BR: 1, BK: 1}


def test_im_t15_temple_two_players_width_4():
    stones = [W, BK, W, BK, W, BK]
    assert printed.TEMPLE_A_WIDTH[2] == 4
    # positions 1, 2 now hold stones 5 and 6 (W, B); positions 3, 4 still stones 3 and 4
    assert temple_visible(stones, 4) == [W, BK, W, BK]
    assert temple_round_points(stones, 4) == {W: 2, BK: 2}


@pytest.mark.parametrize("placed, width, visible", [
    (0, 5, 0), (3, 5, 3), (5, 5, 5), (6, 5, 5), (13, 4, 4),
])
def test_visible_stones_are_the_last_placed(placed, width, visible):
    stones = list(range(placed))
    assert sorted(temple_visible(stones, width)) == stones[len(stones) - visible:]


def test_im_t14_pyramid_a_placements():
    running, totals = 0, []
    for placement in range(1, 16):
        running += pyramid_a_points(placement)
        totals.append(running)
    assert [pyramid_a_points(n) for n in range(1, 15)] == [2, 1, 3, 2, 4, 3, 2, 1, 3, 2, 3, 1,
                                                            3, 4]
    assert totals[13] == 34
    assert pyramid_a_points(15) == 1 and pyramid_a_points(40) == 1
    assert totals[14] == 35


# ------------------------------------------------------------------------------------------
# Ties (IM-T21) and the Wrath of the Pharaoh (IM-T22)
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("sleds, ranks, winners", [
    ([3, 1], [1, 2], ["Ana"]),
    ([1, 3], [2, 1], ["Bo"]),
    ([2, 2], [1, 1], ["Ana", "Bo"]),
])
def test_im_t21_tie_at_40_goes_to_the_sled(sleds, ranks, winners):
    sheet = score_final(document(colours=("black", "white"), track=[40, 40], sled=sleds))
    assert [p.total for p in sheet.players] == [40, 40]
    assert [p.rank for p in sheet.players] == ranks
    assert sheet.winners == winners
    assert [p.tiebreak.as_dict() for p in sheet.players] == [
        {"rule": "imhotep.most_sled_stones", "value": sled} for sled in sleds]


def test_no_tiebreak_shown_without_a_tie():
    sheet = score_final(document(colours=("black", "white"), track=[40, 39], sled=[0, 5]))
    assert [p.rank for p in sheet.players] == [1, 2]
    assert [p.tiebreak for p in sheet.players] == [None, None]


def test_im_t22_wrath_without_a_temple_stone():
    missing = missing_monuments({"pyramids", "burial_chamber", "obelisks"})
    assert missing == ["temple"]
    assert 31 + wrath_penalty(missing) == 26
    assert wrath_penalty(["temple", "pyramids"]) == -5     # once, however many are missing
    assert wrath_penalty([]) == 0
    # Ana: track 20, obelisk 5 (first of two: 10), one burial stone (1) = 31 before the Wrath;
    # she delivered to the Pyramids, Burial Chamber (derived) and Obelisks (derived), not to
    # the Temple: 31 - 5 = 26. Bo: track 10 + obelisk second 1, no burial stone and no Temple:
    # 11 - 5 = 6.
    doc = document(colours=("black", "white"), burial=[BK], track=[20, 10], obelisk=[5, 1],
                   delivered_to=[["pyramids"], ["pyramids"]])
    doc["site_stones"]["pyramids"] = 2
    doc["options"] = {"wrath_of_pharaoh": True}
    sheet = score_final(doc)
    assert [p.total for p in sheet.players] == [26, 6]
    assert category(sheet, 0, "wrath").detail == {"missing": ["temple"]}
    assert category(sheet, 1, "wrath").detail == {"missing": ["temple", "burial_chamber"]}
    doc["options"]["wrath_of_pharaoh"] = False
    assert [p.total for p in score_final(doc).players] == [31, 11]


def test_wrath_can_go_below_zero():
    doc = document(colours=("black", "white"))
    doc["options"] = {"wrath_of_pharaoh": True}
    assert [p.total for p in score_final(doc).players] == [-5, -5]


def test_rank_points_beyond_the_table_score_nothing():
    assert rank_points([3, 2, 1], (8, 4)) == [(8, None), (4, None), (0, None)]
