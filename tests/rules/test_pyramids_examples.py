"""Every worked example of spec silver-gold-pyramids.md §12 with its exact outcome, and the
§13 rules example of the sibling Silver & Gold.

* 12.1 the seed's final score 111 (score-only document and the scoring rules);
* 12.2 the race R1-R5, played on the live referee (published cards, record mode, colours
  entered by the group);
* 12.3 the placement fixture P1-P12, entered as the group's layout and refereed cell by cell;
* 12.4 symbols and scoring S1-S7, G1, T1-T2, completion C1-C3 (live referee and score-only).
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules.pyramids import PYRAMIDS
from companion.rules.pyramids import scoring
from companion.rules.pyramids.final import score_final
from tests.rules.pyramids_helpers import (PATH, arrange, at, cards_in_play, cell, code,
                                          fixture_game, hold, mark, new_game, others_mark, refused,
                                          reveal, turn)

# --------------------------------------------------------------------------------------------
# 12.1 The seed's final score: 111
# --------------------------------------------------------------------------------------------


def lukas_111() -> dict[str, Any]:
    """Spec §12.1 fixture: 7 cards (2 orange, 4 green, a purple 7th), torches in rounds 1 and
    4, orange 10 + green 6 and 3, gems 6 red / 3 green, worst skull -6."""
    cards = [(5, "orange"), (17, "orange"), (20, "green"), (21, "green"), (30, "green"),
             (31, "green"), (40, "purple")]
    return {"name": "Lukáš", "completed": [{"number": n, "colour": c} for n, c in cards],
            "torches": [True, False, False, True],
            "race": {"purple": [], "orange": [10], "green": [6, 3]},
            "red_gems": 6, "green_gems": 3, "worst_skull_penalty": 6}


def test_seed_example_111():
    other = {"name": "Tomáš", "completed": [{"number": 1, "colour": "green"},
                                            {"number": 2, "colour": "green"}],
             "race": {"green": [10]}}
    sheet = score_final({"game": "pyramids", "players": [lukas_111(), other]})
    lukas = sheet.players[0]
    points = {c.key: c.points for c in lukas.categories}
    assert points == {"completed": 70, "torches": 10, "race": 19, "gem_pairs": 15,
                      "single_gems": 3, "skull": -6}
    assert lukas.total == 111 and lukas.rank == 1
    assert sheet.players[1].total == 30


@pytest.mark.parametrize("orange, green", [([10], [6, 3]), ([6], [10, 3]), ([3], [10, 6])])
def test_seed_example_111_every_split_of_the_race(orange, green):
    """§12.1: 19 forces 10, 6 and 3 in some split between one orange and two green boxes."""
    lukas = {**lukas_111(), "race": {"orange": orange, "green": green}}
    others = [{"name": "A", "completed": [{"number": 1, "colour": "orange"},
                                          {"number": 2, "colour": "orange"}],
               "race": {"orange": [v for v in (10, 6) if v not in orange][:1]}},
              {"name": "B", "completed": [{"number": 3, "colour": "green"},
                                          {"number": 4, "colour": "green"}],
               "race": {"green": [v for v in (10, 6) if v not in green][:1]}}]
    if orange == [3]:
        others[0]["completed"] += [{"number": 6, "colour": "orange"},
                                   {"number": 7, "colour": "orange"}]
        others[0]["race"]["orange"] = [10, 6]
    sheet = score_final({"players": [lukas] + others})
    assert sheet.players[0].total == 111


# --------------------------------------------------------------------------------------------
# 12.2 The race (live referee; Lukáš, Tomáš, Sofie)
# --------------------------------------------------------------------------------------------

LUKAS, TOMAS, SOFIE = 0, 1, 2
COLOUR_RECORDS = ([{"number": n, "colour": "purple"} for n in (15, 33, 34, 35, 36, 37, 38)]
                  + [{"number": n, "colour": "orange"} for n in range(21, 27)]
                  + [{"number": n, "colour": "green"} for n in range(41, 47)])


def race_game() -> dict[str, Any]:
    """Three players on the published cards (record mode), the colours of cards 15-46 entered
    by the group; everybody keeps cards far from those numbers."""
    return new_game(3, "published", kept=[[1, 2], [3, 4], [5, 6]], offer=[7, 8, 9, 10],
                    card_layouts=COLOUR_RECORDS)


def finish(card: int) -> dict[str, Any]:
    """A single mark on the tomb of an opened record card."""
    return mark(code(card, "B"))


def finish_both(first: int, second: int) -> dict[str, Any]:
    """Both cards in one turn: the pattern I2 covers a red cross and the tomb of ``first``,
    the red cross's extra mark is the tomb of ``second``."""
    return mark(code(first, "X"), code(first, "B"), extra=[code(second, "B")])


def test_r1_first_claims_in_two_colours():
    state = race_game()
    state = hold(state, LUKAS, [(41, PATH), (1, [])], [(42, "green")])
    state = hold(state, TOMAS, [(33, PATH), (3, [])], [(34, "purple")])
    state = turn(state, "I3", {LUKAS: finish(41), TOMAS: finish(33)})
    assert state["players"][LUKAS]["race"] == {"purple": [], "orange": [], "green": [10]}
    assert state["players"][TOMAS]["race"] == {"purple": [10], "orange": [], "green": []}
    # every other player "blacks out" the box: it is gone for everyone
    assert state["race"] == {"purple": [TOMAS], "orange": [], "green": [LUKAS]}
    assert state["players"][SOFIE]["race"] == {"purple": [], "orange": [], "green": []}


def r2_state() -> dict[str, Any]:
    """Purple 10 is Tomáš's; he has 3 purple completed, Sofie 1."""
    state = race_game()
    state = hold(state, TOMAS, [(15, PATH), (3, [])],
                 [(34, "purple"), (35, "purple"), (36, "purple")],
                 race={"purple": [10], "orange": [], "green": []})
    state = hold(state, SOFIE, [(33, PATH), (5, [])], [(37, "purple")])
    return arrange(state, race={"purple": [TOMAS], "orange": [], "green": []})


def test_r2_simultaneous_claims_lowest_card_number_first():
    state = turn(r2_state(), "I3", {SOFIE: finish(33), TOMAS: finish(15)})
    assert state["players"][TOMAS]["race"]["purple"] == [10, 6]     # 15 < 33
    assert state["players"][SOFIE]["race"]["purple"] == [3]
    assert state["race"]["purple"] == [TOMAS, TOMAS, SOFIE]          # purple is closed


@pytest.mark.parametrize("order", [(SOFIE, TOMAS), (TOMAS, SOFIE)])
def test_r2_does_not_depend_on_who_marks_first(order):
    moves = {SOFIE: finish(33), TOMAS: finish(15)}
    state = turn(r2_state(), "I3", {seat: moves[seat] for seat in order})
    assert state["players"][TOMAS]["race"]["purple"] == [10, 6]
    assert state["players"][SOFIE]["race"]["purple"] == [3]


def test_r3_a_closed_colour_scores_nothing():
    state = race_game()
    state = hold(state, LUKAS, [(38, PATH), (1, [])], [(36, "purple")])
    state = arrange(state, race={"purple": [TOMAS, TOMAS, SOFIE], "orange": [], "green": []})
    state = turn(state, "I3", {LUKAS: finish(38)})
    assert [c["number"] for c in state["players"][LUKAS]["completed"]] == [36, 38]
    assert state["players"][LUKAS]["race"]["purple"] == []
    assert state["race"]["purple"] == [TOMAS, TOMAS, SOFIE]


def test_r3_claiming_a_closed_colour_is_refused():
    state = race_game()
    state = hold(state, LUKAS, [(38, PATH), (1, [])], [(36, "purple")])
    state = arrange(state, race={"purple": [TOMAS, TOMAS, SOFIE], "orange": [], "green": []})
    error = refused(reveal(state, "I2"), LUKAS, mark(code(38, "B"), race=["purple"]),
                    "SGP_RACE", "move.race.0")
    assert error.params["reason"] == "taken"


def test_an_odd_completion_claims_nothing():
    """§8: only the 2nd, 4th and 6th card of a colour claim; the 3rd does not."""
    state = race_game()
    state = hold(state, LUKAS, [(43, PATH), (1, [])], [(41, "green"), (42, "green")],
                 race={"purple": [], "orange": [], "green": [10]})
    state = arrange(state, race={"purple": [], "orange": [], "green": [LUKAS]})
    state = turn(state, "I3", {LUKAS: finish(43)})
    assert state["players"][LUKAS]["race"]["green"] == [10]
    assert state["race"]["green"] == [LUKAS]


def test_two_cards_of_a_colour_claim_with_the_lower_number():
    """§14 #9: Lukáš completes purple 15 and 38 (1 → 3), Sofie purple 33 (her 2nd): Lukáš
    claims first with 15, although 38 is higher than 33."""
    state = race_game()
    state = hold(state, LUKAS, [(15, PATH), (38, PATH)], [(34, "purple")])
    state = hold(state, SOFIE, [(33, PATH), (5, [])], [(35, "purple")])
    state = turn(state, "I2", {SOFIE: finish(33), LUKAS: finish_both(38, 15)})
    assert state["players"][LUKAS]["race"]["purple"] == [10]
    assert state["players"][SOFIE]["race"]["purple"] == [6]


def test_r4_two_cards_of_a_colour_in_one_turn_cross_one_threshold():
    state = race_game()
    state = hold(state, LUKAS, [(21, PATH), (22, PATH)], [(23, "orange")])
    state = turn(state, "I2", {LUKAS: finish_both(21, 22)})
    lukas = state["players"][LUKAS]
    assert [c["number"] for c in lukas["completed"]] == [23, 21, 22]       # 1 → 3
    assert lukas["race"]["orange"] == [10]
    assert state["race"]["orange"] == [LUKAS]


def test_r5_one_claim_in_each_colour():
    state = race_game()
    state = hold(state, LUKAS, [(41, PATH), (24, PATH)],
                 [(42, "green"), (21, "orange"), (22, "orange"), (23, "orange")])
    state = turn(state, "I2", {LUKAS: finish_both(41, 24)})
    assert state["players"][LUKAS]["race"] == {"purple": [], "orange": [10], "green": [10]}


def test_race_claim_cross_check_in_a_move():
    """The optional ``race`` argument names the colours the move claims in (SGP_RACE)."""
    state = race_game()
    state = hold(state, LUKAS, [(41, PATH), (24, PATH)], [(42, "green")])
    state = reveal(state, "I2")
    refused(state, LUKAS, mark(code(41, "B"), race=["orange"]), "SGP_RACE", "move.race.0")
    after = PYRAMIDS.apply(state, LUKAS, mark(code(41, "B"), race=["green"]))
    assert after["players"][LUKAS]["just"] == [41]
    full = arrange(state, race={"purple": [], "orange": [], "green": [1, 1, 2]})
    error = refused(full, LUKAS, mark(code(41, "B"), race=["green"]), "SGP_RACE",
                    "move.race.0")
    assert error.params["reason"] == "taken"


# --------------------------------------------------------------------------------------------
# 12.3 The placement fixture, entered as cards 1-8 (seat 0 holds 1 and 2)
# --------------------------------------------------------------------------------------------


def fresh(shape: str) -> dict[str, Any]:
    return reveal(fixture_game(), shape)


def after_p1(shape: str) -> dict[str, Any]:
    """P1 played in turn 1; turn 2 revealed ``shape``."""
    state = turn(fixture_game(), "I3", {0: mark(*at(1, (0, 2), (1, 2), (2, 2)))})
    return reveal(state, shape)


def test_p1_entrance_first_and_a_skull():
    state = PYRAMIDS.apply(fresh("I3"), 0, mark(*at(1, (0, 2), (1, 2), (2, 2))))
    assert state["players"][0]["skulls"] == 1
    assert sorted(state["players"][0]["open"][0]["cells"]) == [2, 7, 12]


@pytest.mark.parametrize("example, shape, cells, code_, field", [
    ("P2", "I3", [(1, 1), (1, 2), (1, 3)], "SGP_NO_ENTRANCE", "move.cells"),
    ("P12", "I3", [(0, 3), (0, 4), (0, 5)], "SGP_OUT_OF_GRID", "move.cells.2"),
])
def test_illegal_on_an_empty_card(example, shape, cells, code_, field):
    refused(fresh(shape), 0, mark(*at(1, *cells)), code_, field)


def test_p3_square_with_a_red_gem():
    state = PYRAMIDS.apply(fresh("O4"), 0, mark(*at(1, (0, 1), (0, 2), (1, 1), (1, 2))))
    assert (state["players"][0]["red"], state["players"][0]["green"]) == (1, 0)


def test_p4_red_cross_extra_mark():
    state = fresh("O4")
    square = at(1, (0, 2), (0, 3), (1, 2), (1, 3))
    after = PYRAMIDS.apply(state, 0, mark(*square, extra=[cell(1, 1, 4)]))
    assert sorted(after["players"][0]["open"][0]["cells"]) == [2, 3, 7, 8, 9]
    refused(state, 0, mark(*square, extra=[cell(1, 3, 2)]), "SGP_NOT_CONNECTED",
            "move.extra.0")
    # on the other (empty) card only its entrance
    refused(state, 0, mark(*square, extra=[cell(2, 1, 2)]), "SGP_NO_ENTRANCE", "move.extra.0")
    after = PYRAMIDS.apply(state, 0, mark(*square, extra=[cell(2, 0, 2)]))
    assert after["players"][0]["open"][1]["cells"] == [2]
    refused(state, 0, mark(*square), "SGP_CROSS_PENDING", "move.extra")


@pytest.mark.parametrize("example, shape, cells, code_, field", [
    ("P5", "I2", [(3, 1)], "SGP_NOT_CONNECTED", "move.cells"),
    ("P7", "O4", [(2, 3), (2, 4), (3, 3), (3, 4)], "SGP_WALL", "move.cells.2"),
    ("P8", "I3", [(1, 4), (2, 4), (3, 4)], "SGP_NOT_CONNECTED", "move.cells"),
    ("P10", "I2", [(1, 2)], "SGP_ALREADY_MARKED", "move.cells.0"),
    ("P12", "I3", [(0, 3), (0, 4), (0, 5)], "SGP_OUT_OF_GRID", "move.cells.2"),
])
def test_illegal_after_p1(example, shape, cells, code_, field):
    refused(after_p1(shape), 0, mark(*at(1, *cells)), code_, field)


def test_p6_potion_erases_the_skull():
    state = after_p1("I3")
    assert state["players"][0]["skulls"] == 1
    state = PYRAMIDS.apply(state, 0, mark(*at(1, (3, 0), (3, 1), (3, 2))))
    assert state["players"][0]["skulls"] == 0


def test_p9_corner_green_gem_and_a_torch_by_red_cross():
    state = arrange(after_p1("L3"), round=3)
    state = PYRAMIDS.apply(state, 0, mark(*at(1, (1, 3), (2, 3), (2, 4)), extra=[cell(1, 3, 4)],
                                   torch=3))
    player = state["players"][0]
    assert player["green"] == 1
    assert player["torches"] == [False, False, True, False]


def test_p11_single_cells_reach_the_tomb():
    state = after_p1("I2")
    state = others_mark(PYRAMIDS.apply(state, 0, mark(cell(1, 3, 2))))
    assert state["players"][0]["completed"] == []
    state = reveal(state, "I4")
    state = PYRAMIDS.apply(state, 0, mark(cell(1, 4, 2)))
    assert state["players"][0]["completed"] == [{"number": 1, "colour": "purple"}]
    assert state["players"][0]["just"] == [1]
    assert [c["number"] for c in state["players"][0]["open"]] == [2]


# --------------------------------------------------------------------------------------------
# 12.4 Symbols (record mode makes any combination easy to mark), scoring, completion
# --------------------------------------------------------------------------------------------


def record_game(**options: Any) -> dict[str, Any]:
    """Two players on the published cards, nothing entered: every card in record mode; seat 0
    holds 1 and 2, seat 1 holds 3 and 4; the offer is 5-8."""
    state = new_game(2, "published")
    if options:
        state = arrange(state, options={**state["options"], **options})
    return state


def record_turn(state: dict[str, Any], shape: str, *codes: str, **args: Any
                ) -> dict[str, Any]:
    """Seat 0 marks cells with these codes on card 1 (its first marking includes E)."""
    return turn(state, shape, {0: mark(*[code(1, c) for c in codes], **args)})


def test_s1_gem_boxes_full():
    state = arrange(record_game(), 0, red=10)
    state = record_turn(state, "I2", "E", "R")
    assert state["players"][0]["red"] == 10
    assert scoring.tick_gem(10) == 10 and scoring.tick_gem(9) == 10


def test_s2_two_torches_in_one_turn_and_a_missed_round():
    state = arrange(record_game(), round=2)
    state = record_turn(state, "I3", "E", "T", "T")
    assert state["players"][0]["torches"] == [False, True, False, False]
    state = arrange(state, round=3)
    state = reveal(state, "I2")
    refused(state, 0, mark(code(1, "T"), code(1, "."), torch=2), "SGP_TORCH_ROUND",
            "move.torch")
    state = others_mark(PYRAMIDS.apply(state, 0, mark(code(1, "T"), code(1, "."), torch=3)))
    assert state["players"][0]["torches"] == [False, True, True, False]


def test_s3_torches_in_rounds_2_and_4():
    tally = scoring.PlayerTally("A", torches=(False, True, False, True))
    points = {c.key: c.points for c in scoring.player_categories(tally)}
    assert points["torches"] == 10


@pytest.mark.parametrize("before, after", [(5, 3), (1, 0), (0, 0)])
def test_s4_potion(before, after):
    state = arrange(record_game(), 0, skulls=before)
    assert record_turn(state, "I2", "E", "P")["players"][0]["skulls"] == after
    assert scoring.drink_potion(before) == after


def test_s5_all_skull_boxes_ticked():
    state = arrange(record_game(), 0, skulls=10)
    assert record_turn(state, "I2", "E", "S")["players"][0]["skulls"] == 10


@pytest.mark.parametrize("options, args, skulls", [
    ({}, {}, 0),                                              # skulls first (default)
    ({}, {"potion_first": False}, 0),
    ({}, {"potion_first": True}, 1),                          # both orders accepted
    ({"skulls_before_potion": False}, {}, 1),
    ({"skulls_before_potion": False}, {"potion_first": False}, 0),
])
def test_s6_skull_and_potion_in_one_move(options, args, skulls):
    state = record_turn(record_game(**options), "I3", "E", "S", "P", **args)
    assert state["players"][0]["skulls"] == skulls


def test_s7_potion_then_a_skull_reticks_box_2():
    state = arrange(record_game(), 0, skulls=3)
    state = record_turn(state, "I2", "E", "P")
    assert state["players"][0]["skulls"] == 1
    state = record_turn(state, "I2", "S")
    assert state["players"][0]["skulls"] == 2       # boxes 1-2 ticked, box 2 re-ticked
    penalties = state["penalties"]
    assert scoring.worst_penalty(2, penalties) == penalties[1]


@pytest.mark.parametrize("red, green, points", [
    (6, 3, 18), (0, 7, 7), (4, 4, 20), (10, 0, 10), (10, 10, 50), (0, 0, 0)])
def test_g1_gems(red, green, points):
    pairs, singles = scoring.gem_points(red, green)
    assert 5 * pairs + singles == points
    sheet = score_final({"players": [{"name": "A", "red_gems": red, "green_gems": green},
                                     {"name": "B"}]})
    assert sheet.players[0].total == points


def test_t1_tie_lowest_completed_card_wins():
    def player(name, cards):
        return {"name": name, "completed": [{"number": n, "colour": c} for n, c in cards],
                "torches": [True] * 4, "red_gems": 8, "green_gems": 8}
    sheet = score_final({"players": [player("A", [(5, "purple"), (22, "orange")]),
                                     player("B", [(3, "green"), (40, "purple")])]})
    a, b = sheet.players
    assert a.total == b.total == 80
    assert (a.rank, b.rank) == (2, 1) and sheet.winners == ["B"]
    assert (a.tiebreak.rule, a.tiebreak.value, b.tiebreak.value) == (
        "pyramids.lowest_card", 5, 3)


def test_t2_tie_without_completed_cards_is_shared():
    sheet = score_final({"players": [{"name": "A", "torches": [True, True, False, False]},
                                     {"name": "B", "red_gems": 6, "green_gems": 1},
                                     {"name": "C"}]})
    assert [p.total for p in sheet.players] == [10, 10, 0]
    assert sheet.winners == ["A", "B"]
    assert [p.rank for p in sheet.players] == [1, 1, 3]


def test_tied_player_with_a_card_beats_one_without():
    sheet = score_final({"players": [{"name": "A", "torches": [True] * 4},
                                     {"name": "B", "completed": [{"number": 48,
                                                                  "colour": "green"}]},
                                     ]})
    assert [p.total for p in sheet.players] == [20, 10]
    sheet = score_final({"players": [{"name": "A", "torches": [True, True, False, False]},
                                     {"name": "B", "completed": [{"number": 48,
                                                                  "colour": "green"}]}]})
    assert sheet.winners == ["B"]


def completion_game() -> dict[str, Any]:
    """Seat 0 (Lukáš) holds cards 1 and 2, both opened, in record mode."""
    return hold(record_game(), 0, [(1, PATH), (2, PATH)])


def test_c1_take_from_the_offer_then_refill():
    state = completion_game()
    deck = len(state["deck"])
    state = turn(state, "I2", {0: mark(code(2, "B"), completed=[{"number": 2,
                                                                 "colour": "green"}])})
    assert state["phase"] == "replace" and PYRAMIDS.awaiting(state).seats == {0}
    assert state["players"][0]["completed"] == [{"number": 2, "colour": "green"}]
    state = PYRAMIDS.apply(state, 0, {"type": "take", "source": "offer", "card": 6})
    assert state["offer"] == [5, 7, 8] and state["phase"] == "refill"
    assert PYRAMIDS.chance(state).draws == 1
    state = PYRAMIDS.apply(state, 0, {"type": "refill", "cards": [30]})
    assert state["offer"] == [5, 7, 8, 30] and len(state["deck"]) == deck - 1
    assert [c["number"] for c in state["players"][0]["open"]] == [1, 6]
    assert state["phase"] == "reveal" and state["turn"] == 2


def test_c2_both_cards_one_from_the_offer_one_blind():
    state = completion_game()
    deck = len(state["deck"])
    state = turn(state, "I2", {0: mark(code(1, "X"), code(1, "B"), extra=[code(2, "B")],
                                       completed=[{"number": 1, "colour": "purple"},
                                                  {"number": 2, "colour": "green"}])})
    assert state["pending"][0] == {"seat": 0, "kind": "replace", "left": 2}
    state = PYRAMIDS.apply(state, 0, {"type": "take", "source": "offer", "card": 5})
    assert state["phase"] == "replace" and state["offer"] == [6, 7, 8]   # not refilled yet
    state = PYRAMIDS.apply(state, 0, {"type": "take", "source": "deck", "card": 20})
    assert state["phase"] == "refill" and state["pending"][0]["count"] == 1
    state = PYRAMIDS.apply(state, 0, {"type": "refill", "cards": [21]})
    assert state["offer"] == [6, 7, 8, 21]
    assert len(state["deck"]) == deck - 2
    assert [c["number"] for c in state["players"][0]["open"]] == [5, 20]


def test_c3_deck_empty_offer_no_longer_refilled():
    state = arrange(completion_game(), deck=[])
    state = turn(state, "I2", {0: mark(code(2, "B"), completed=[{"number": 2,
                                                                 "colour": "green"}])})
    state = PYRAMIDS.apply(state, 0, {"type": "take", "source": "offer", "card": 5})
    assert state["offer"] == [6, 7, 8] and state["phase"] == "reveal"
    state = turn(state, "I3", {})
    assert state["offer"] == [6, 7, 8]
    assert PYRAMIDS.chance(state).key == "shape"


def test_completion_order_lowest_number_first_and_refill_between():
    """§14 #8: several players complete: ascending lowest completed number, each refilling
    before the next."""
    state = hold(record_game(), 1, [(3, PATH), (4, [])])
    state = hold(state, 0, [(9, PATH), (2, [])])
    state = turn(state, "I2", {0: mark(code(9, "B"), completed=[{"number": 9,
                                                                 "colour": "orange"}]),
                               1: mark(code(3, "B"), completed=[{"number": 3,
                                                                 "colour": "purple"}])})
    assert PYRAMIDS.awaiting(state).seats == {1}                 # card 3 before card 9
    state = PYRAMIDS.apply(state, 1, {"type": "take", "source": "offer", "card": 5})
    assert PYRAMIDS.awaiting(state).seats == {1} and state["phase"] == "refill"
    state = PYRAMIDS.apply(state, 1, {"type": "refill", "cards": [11]})
    assert PYRAMIDS.awaiting(state).seats == {0} and state["offer"] == [6, 7, 8, 11]
    state = PYRAMIDS.apply(state, 0, {"type": "take", "source": "offer", "card": 11})
    state = PYRAMIDS.apply(state, 0, {"type": "refill", "cards": [12]})
    assert state["phase"] == "reveal"
    assert cards_in_play(state) == list(range(1, 49))


def test_completion_on_the_tomb_by_red_cross_on_a_layout_card():
    """§14 #18: a red-cross extra mark on the tomb completes the card (fixture cards)."""
    state = fixture_game()
    state = hold(state, 0, [(1, [(0, 2), (1, 2), (2, 2), (3, 2)]), (2, [(0, 2), (0, 3)])])
    state = reveal(state, "I2")
    state = PYRAMIDS.apply(state, 0, mark(*at(2, (1, 3), (2, 3)), extra=[cell(1, 4, 2)]))
    assert state["players"][0]["just"] == [1]
    assert state["players"][0]["completed"] == [{"number": 1, "colour": "purple"}]
