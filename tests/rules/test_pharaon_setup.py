"""Pharaon's set-up against shared/rules/pharaon.md §3 (companion/rules/pharaon/setup.py and
draws.py): the ruleset as the seam sees it, the set-up schema and its defaults, set-up
refusals, the physical start (draws checked against what is left, the counter-clockwise
starting picks, solo and beginners)."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from companion.rules.base import Ruleset, RuleViolation, check_document, normalise_options
from companion.rules.pharaon import PHARAON
from companion.rules.pharaon import printed as t
from companion.rules.pharaon.state import facing, phase_of
from tests.rules.pharaon_helpers import (NAMES, check_invariants, edition, first_draw, new_game,
                                         play, settle, started)
from tests.rules.refusals import assert_refused


def test_ruleset_members():
    assert isinstance(PHARAON, Ruleset)
    assert PHARAON.catalogue.live_player_counts == (1, 2, 3, 4, 5)
    assert {"PH_E_NOT_YOUR_TURN", "pharaon.not_your_turn"} == PHARAON.out_of_turn_codes
    keys = {field.key for field in PHARAON.options}
    assert {"traitor_dark_tiles", "nile_top_cumulative", "traitor_pass_timing",
            "traitor_pyramid_reward", "reject_overpayment", "rejected_nobles"} <= keys
    assert {value.key for value in PHARAON.edition} >= {
        "god_halves", "scribes", "entry_noble_areas", "court_icons", "wheel_colours",
        "four_plus_spot", "nile_actions", "tomb_track", "pyramid_rows", "jar_tiles",
        "artisan_cards", "traitor_tiles", "bank_size"}
    god_halves = next(v for v in PHARAON.edition if v.key == "god_halves")
    assert god_halves.required and god_halves.default is None
    # the live members come from the referee, nothing is forwarded by hand; what only the
    # templates read is in the ui module
    assert not type(PHARAON).__dict__.keys() & {"apply", "validate", "awaiting", "prompts",
                                                "legal_moves", "is_over"}
    assert PHARAON.referee.game == "pharaon" and PHARAON.ui.printed is t


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_default_setup_fits_its_schema_and_starts(players):
    doc = PHARAON.default_setup(players)
    clean, problems = check_document(PHARAON.setup_schema(players), doc)
    assert problems == []
    state = PHARAON.setup(normalise_options(PHARAON, {}), NAMES[:players], clean, edition())
    check_invariants(state)
    assert phase_of(state) == "draw_jars"
    assert PHARAON.chance(state).draws == t.JARS_SHOWN[players]
    assert state["traitor"] == (1 if players == 1 else None)
    assert len(state["players"]) == players + (players == 1)


@pytest.mark.parametrize("players, change, code, field", [
    (6, {}, "pharaon.bad_player_count", "players"),
    (3, {"areas": ["OFF", "NOB", "ART", "NIL", "NIL"]}, "pharaon.bad_areas", "areas"),
    (3, {"entry_colours": ["BLK", "BLK", "GRN", "RED", "BLU"]}, "pharaon.bad_entry_colours",
     "entry_colours"),
    (3, {"direction": "up"}, "pharaon.bad_direction", "direction"),
    (3, {"first_player": 3}, "pharaon.bad_first_player", "first_player"),
    (3, {"beginner_scribes": [True]}, "pharaon.bad_beginners", "beginner_scribes"),
    (1, {"traitor_order": [1, 2, 3, 4, 4]}, "pharaon.bad_traitor_order", "traitor_order"),
    (1, {"traitor_colours": ["BLK"] * 5}, "pharaon.bad_traitor_colours", "traitor_colours"),
    (1, {"traitor_sides": ["light"] * 4}, "pharaon.bad_traitor_sides", "traitor_sides"),
    (1, {"traitor_sides": ["dark"] + ["light"] * 4}, "pharaon.traitor_difficulty",
     "traitor_sides"),
    (1, {"traitor_sides": ["dark"] + [""] * 4}, "pharaon.bad_traitor_sides", "traitor_sides"),
    (3, {"gods": [{"name": "Horus", "a": {"threshold": 2, "points": 4},
                   "b": {"threshold": 2, "points": 6}}] + [{"name": ""}] * 4},
     "pharaon.gods_incomplete", "gods.1"),
])
def test_setup_refusals(players, change, code, field):
    with pytest.raises(RuleViolation) as caught:
        new_game(players, **change) if players <= 5 else PHARAON.setup(
            normalise_options(PHARAON, {}), ["a", "b", "c", "d", "e", "f"],
            PHARAON.default_setup(3), edition())
    assert (caught.value.code, caught.value.field) == (code, field)


def test_gods_left_blank_on_the_open_table_form_are_asked_for_later():
    """The form sends every god field; five blank gods (0 and 0) mean "not entered"."""
    blank = {"name": "", "a": {"threshold": 0, "points": 0}, "b": {"threshold": 0, "points": 0}}
    doc = {**PHARAON.default_setup(3), "gods": [blank] * 5}
    clean, problems = check_document(PHARAON.setup_schema(3), doc)
    assert problems == []
    assert new_game(3, gods=clean["gods"])["board"]["gods"] is None
    entered = [{"name": "", "a": {"threshold": 1, "points": 2},
                "b": {"threshold": 2, "points": g}} for g in range(1, 6)]
    gods = new_game(3, gods=entered)["board"]["gods"]
    assert [g["name"] for g in gods] == ["1", "2", "3", "4", "5"]
    assert [g["b"]["points"] for g in gods] == [1, 2, 3, 4, 5]


def test_setup_checks_the_wheel_order_of_our_copy():
    entered = {"wheel_colours": ["BLK", "YEL", "GRN", "RED", "BLU"]}
    new_game(3, entered=entered, entry_colours=["GRN", "RED", "BLU", "BLK", "YEL"])
    with pytest.raises(RuleViolation) as caught:
        new_game(3, entered=entered, entry_colours=["YEL", "BLK", "GRN", "RED", "BLU"])
    assert caught.value.code == "pharaon.wheel_order"


def test_the_wheel_turns_each_round_in_its_direction():
    state = new_game(3)
    assert facing(state, 1) == list(t.BASIC)
    assert facing(state, 2) == ["BLU", "BLK", "YEL", "GRN", "RED"]       # clockwise
    ccw = new_game(3, direction="ccw")
    assert facing(ccw, 2) == ["YEL", "GRN", "RED", "BLU", "BLK"]


@pytest.mark.parametrize("first, order", [(0, [2, 1, 0]), (1, [0, 2, 1]), (2, [1, 0, 2])])
def test_starting_picks_go_counter_clockwise_and_the_first_player_picks_last(first, order):
    state = new_game(3, first_player=first)
    picked = []
    while phase_of(state) != "turn":
        seat = min(PHARAON.awaiting(state).seats)
        if phase_of(state) == "start_pick":
            picked.append(seat)
            head = state["pending"][0]
            state = play(state, (seat, {"type": "start_pick", "jar": 0,
                                        "noble": head["nobles"][-1]}))
        else:
            state = play(state, (seat, first_draw(state)))
    assert picked == order
    assert state["turn"] == first
    for seat in range(3):
        me = state["players"][seat]
        assert me["res"]["SIL"] >= 2 and len(me["nobles"]) == 1      # 2 silver, 1 noble
    assert sorted(state["noble_deck"]) == state["noble_deck"]
    assert len(state["noble_deck"]) == 26 - 3 - 3                    # rejects shuffled back


@pytest.mark.parametrize("how, deck, bottom, discard", [
    ("reshuffle", 20, 0, 0), ("bottom", 17, 3, 0), ("discard", 17, 0, 3)])
def test_rejected_starting_nobles(how, deck, bottom, discard):
    state = started(3, options={"rejected_nobles": how})
    assert (len(state["noble_deck"]), len(state["noble_bottom"]),
            len(state["noble_discard"])) == (deck, bottom, discard)


def test_cards_under_the_deck_come_only_when_the_deck_is_empty():
    state = started(3, options={"rejected_nobles": "bottom"})
    state = copy.deepcopy(state)
    state["pending"] = [{"kind": "draw_nobles", "seat": state["turn"], "count": 1,
                         "to": "display", "slots": [0]}]
    state["noble_display"][0], displaced = None, state["noble_display"][0]
    state["noble_discard"].append(displaced)
    seat = state["turn"]
    assert_refused(PHARAON, state, seat, {"type": "draw_nobles",
                                          "cards": state["noble_bottom"][0]},
                   "pharaon.not_in_supply")
    assert PHARAON.chance(state).outcomes == tuple((c, 1) for c in state["noble_deck"])
    state["noble_discard"] += state["noble_deck"]
    state["noble_deck"] = []
    assert PHARAON.chance(state).outcomes == ((state["noble_bottom"][0], 1),)
    after = play(state, (seat, {"type": "draw_nobles", "cards": state["noble_bottom"][0]}))
    assert after["noble_display"][0] == state["noble_bottom"][0]


def test_solo_start_gives_the_rejected_noble_to_the_traitor_and_blocks_the_other_jar():
    state = new_game(1)
    while phase_of(state) != "start_pick":
        state = play(state, (0, first_draw(state)))
    drawn = state["pending"][0]["nobles"]
    shown = [list(j) for j in state["jar_display"]]
    state = play(state, (0, {"type": "start_pick", "jar": 1, "noble": drawn[0]}))
    assert state["players"][1]["nobles"] == [drawn[1]]
    assert state["players"][1]["start_noble"] == drawn[1]
    blocked = Counter(spot["token"] for segment in state["wheel"].values() for spot in segment
                      if spot)
    assert blocked == Counter(k for k in shown[0] if k != "SIL")
    state = settle(state)
    assert len(state["jar_display"]) == 2
    tiles = state["rules"]["traitor_tiles"]
    assert state["traitor_board"]["stack"] == tiles[0]["light"]["jars"]
    assert state["bank"]["BLK"] == 20 - 1 - blocked["BLK"] - state["players"][0]["res"]["BLK"]


def test_beginners_draw_a_scribe():
    state = new_game(3, beginner_scribes=[True, False, True])
    while phase_of(state) != "turn":
        seat = min(PHARAON.awaiting(state).seats)
        if phase_of(state) == "draw_nobles" and state["pending"][0]["to"] == "start":
            draw = PHARAON.chance(state)
            beginner = state["beginners"][state["pending"][0]["pick"]]
            assert draw.draws == (1 if beginner else 2)
            assert all(c in t.SCRIBES for c, _ in draw.outcomes) == beginner
            if beginner:
                assert_refused(PHARAON, state, seat, {"type": "draw_nobles", "cards": 6},
                               "pharaon.not_in_supply")
        if phase_of(state) == "draw_nobles":     # the highest cards: Scribes stay
            draw = PHARAON.chance(state)
            cards = [c for c, _ in draw.outcomes][-draw.draws:]
            state = play(state, (seat, draw.as_move(cards if draw.draws > 1 else cards[0])))
        elif phase_of(state) == "start_pick":
            state = play(state, (seat, {"type": "start_pick", "jar": 0,
                                        "noble": state["pending"][0]["nobles"][0]}))
        elif PHARAON.chance(state) is not None:
            state = play(state, (seat, first_draw(state)))
        else:
            state = play(state, (seat, PHARAON.legal_moves(state, seat)[0]))
    assert state["players"][0]["nobles"][0] in t.SCRIBES
    assert state["players"][2]["nobles"][0] in t.SCRIBES


def test_chance_counts_what_is_left():
    state = new_game(4)
    draw = PHARAON.chance(state)
    assert draw.move == {"type": "draw_jars"} and draw.draws == 4
    assert sum(n for _, n in draw.outcomes) == 30
    state = play(state, (0, first_draw(state)))
    draw = PHARAON.chance(state)
    assert draw.key == "tokens" and draw.draws == 15 and sum(n for _, n in draw.outcomes) == 40
    state = play(state, (0, first_draw(state)))
    assert PHARAON.chance(state).outcomes == tuple((card, 1) for card in t.NOBLE_NUMBERS)
    state = play(state, (0, first_draw(state)))
    assert PHARAON.chance(state).key == "cards"
    assert sum(n for _, n in PHARAON.chance(state).outcomes) == 30             # artisans


def test_jars_and_artisans_are_checked_against_an_entered_catalogue():
    jars = [["BLK", "BLK", "BLK"]] * 10 + [["RED", "YEL", "GRN"]] * 20
    artisans = [{"points": 2, "gains": {"RED": 1}, "jar": False}] * 30
    state = new_game(3, entered={"jar_tiles": jars, "artisan_cards": artisans})
    assert_refused(PHARAON, state, 0, {"type": "draw_jars", "jars": [["BLU", "BLU", "BLU"]] * 3},
                   "pharaon.not_in_supply")
    assert_refused(PHARAON, state, 0, {"type": "draw_jars", "jars": [["BLK", "BLK", "BLK"]] * 2},
                   "pharaon.wrong_count")
    state = play(state, (0, {"type": "draw_jars", "jars": [["BLK", "BLK", "BLK"]] * 3}))
    state = play(state, (0, first_draw(state)))
    state = play(state, (0, first_draw(state)))
    assert_refused(PHARAON, state, 0, {"type": "draw_artisans", "cards": [
        {"points": 4, "gains": {}, "jar": True}] * 4}, "pharaon.not_in_supply")
    # without an entered catalogue any card the table shows is taken, only counted
    loose = new_game(3)
    loose = play(loose, (0, {"type": "draw_jars", "jars": [["BLU", "BLU", "BLU"]] * 3}))
    assert loose["jar_display"] == [["BLU", "BLU", "BLU"]] * 3


def test_offerings_drawn_must_be_in_the_bag():
    state = new_game(3)
    state = play(state, (0, first_draw(state)))
    assert_refused(PHARAON, state, 0,
                   {"type": "draw_offerings", "tokens": ["P2"] * 8 + ["P1"] * 4},
                   "pharaon.not_in_supply")
    assert_refused(PHARAON, state, 0, {"type": "draw_offerings", "tokens": ["P1"]},
                   "pharaon.wrong_count")
