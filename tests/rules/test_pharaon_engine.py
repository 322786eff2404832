"""Pharaon live referee (companion/rules/pharaon/, the modules of referee.py) against
shared/rules/pharaon.md.

1. The ruleset as the seam sees it: set-up schema and defaults, set-up refusals, the
   physical start (draws, the counter-clockwise starting picks, solo and beginners).
2. Every refusal code, each with a state that triggers it; the refused move leaves the state
   untouched and ``validate`` refuses it the same way (tests/rules/refusals.assert_refused).
3. Moves and rules: nobles 6-26, the 4+ spot, succession, round end, the last round, the
   values still missing at the end, chance inputs checked against what is left.
4. The payment proposal: always legal, and as cheap (in tokens) as a brute force finds.
5. The Traitor (§7): wrap-around, every column symbol, silver, the wheel choice, passing,
   his pyramid rewards, difficulty.
6. Seeded random play-outs of solo and 2-5 players to the end, in several editions and
   option sets: invariants after every move, replay of the log, live score equal to the
   score-only score. ``PHARAON_PLAYOUTS=n`` plays n seeds per case instead of 4.
7. Malformed input: a RuleViolation, never a crash.
8. A malformed move of every kind is refused naming the argument in the player's words; a
   seat that is not awaited is offered no move.
"""

from __future__ import annotations

import copy
import itertools
import os
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.base import (InvalidDocument, RuleViolation, Ruleset, check_document,
                                  normalise_options)
from companion.rules.pharaon import PHARAON
from companion.rules.pharaon import printed as t
from companion.rules.pharaon.actions import pay_context
from companion.rules.pharaon.final import score_final
from companion.rules.pharaon.payment import (PayContext, area_pattern, cost_problem,
                                             declarable_kinds, entry_kinds, propose_payment,
                                             scribe_partners)
from companion.rules.pharaon.prompts import area_view, payment_choices
from companion.rules.pharaon.state import (CHANCE_STEPS, MoveKind, entry_colour, facing,
                                           free_spot, free_spots, holdings, phase_of,
                                           pyramid_row, usable_spots)
from companion.rules.pharaon.values import missing_values
from tests.rules.pharaon_helpers import (FULL_EDITION, GOD_HALVES, NAMES, TOMB_TRACK,
                                         check_invariants, edition, first_draw, give,
                                         new_game, play, random_game, settle, started, strip,
                                         with_nobles)
from tests.rules.playout import print_replay_speed
from tests.rules.refusals import assert_refused

PLAYOUTS = int(os.environ.get("PHARAON_PLAYOUTS", "4"))


def decl(token: str, kind: str | None = None) -> dict[str, str]:
    return {"token": token, "as": kind or token}


def skip_general(state: dict) -> dict:
    while phase_of(state) == "general":
        state = play(state, (state["pending"][0]["seat"], {"type": "skip_step"}))
    return state


def pass_turn(state: dict, seat: int, jar: int | None = 0) -> dict:
    move = {"type": "pass"}
    if jar is not None and state["jar_display"] and state["round"] < t.ROUNDS:
        move["jar"] = jar
    state = play(state, (seat, move))
    if phase_of(state) == "jar_gain":
        state = play(state, (seat, {"type": "jar_gain"}))
    return skip_general(state)


def offerings_action(state: dict, seat: int) -> dict:
    """Take a pair at the Offerings with the entry only (gives the seat the entry token)."""
    colour = entry_colour(state, "OFF")
    state = give(state, seat, **{colour: 1})
    pair = next(i for i, p in enumerate(state["pairs"]) if p)
    return play(state, (seat, {"type": "action", "area": "OFF", "pair": pair,
                               "entry": decl(colour), "pay": []}))


# ------------------------------------------------------------------------------------------
# 1. The seam, set-up and the physical start
# ------------------------------------------------------------------------------------------


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


# ------------------------------------------------------------------------------------------
# 2. Every refusal, and the state stays as it was
# ------------------------------------------------------------------------------------------


def advance(state: dict, until, seed: int = 0, limit: int = 3000) -> dict:
    """Random legal moves (draws by weight; passing only when nothing else is legal) until
    ``until(state)`` holds."""
    import random
    rng = random.Random(seed)
    for _ in range(limit):
        if until(state):
            return state
        seat = min(PHARAON.awaiting(state).seats)
        draw = PHARAON.chance(state)
        if draw:
            move = draw.draw(rng)
        else:
            moves = PHARAON.legal_moves(state, seat)
            move = rng.choice([m for m in moves if m["type"] != "pass"] or moves)
        state = PHARAON.apply(state, seat, move)
    raise AssertionError("never reached")


def turn_state(players: int = 3, **kwargs: Any) -> tuple[dict, int]:
    state = started(players, **kwargs)
    return state, state["turn"]


def tampered(state: dict) -> dict:
    """A deep copy to arrange a situation by hand (keeping every component count)."""
    return copy.deepcopy(state)


def fill_segment(state: dict, colour: str, leave: int = 0) -> dict:
    """Occupy the free usable spots of a segment with bank tokens, leaving ``leave`` free."""
    state = tampered(state)
    while free_spots(state, colour) > leave:
        state["bank"][colour] -= 1
        state["wheel"][colour][free_spot(state, colour)] = {"token": colour, "actor": None,
                                                            "stand_in": False}
    return state


def display_noble(state: dict, slot: int, card: int) -> dict:
    """Put ``card`` (from the deck) in a display slot, the card there back in the deck."""
    state = tampered(state)
    state["noble_deck"].remove(card)
    old = state["noble_display"][slot]
    if old is not None:
        state["noble_deck"] = sorted(state["noble_deck"] + [old])
    state["noble_display"][slot] = card
    return state


def take_noble(state: dict, seat: int, card: int) -> dict:
    """The seat takes ``card`` with the Nobles action (five different colours)."""
    state = display_noble(state, 0, card)
    entry = entry_colour(state, "NOB")
    state = give(strip(state, seat), seat, **{k: 1 for k in t.BASIC})
    return play(state, (seat, {"type": "action", "area": "NOB", "card": 0, "entry": decl(entry),
                               "pay": [decl(k) for k in t.BASIC if k != entry]}))


def stepping(state: dict, seat: int) -> dict:
    """``seat`` passes; the others act until it is ``seat``'s turn again (a pyramid step)."""
    state = pass_turn(state, seat)
    while state["turn"] != seat:
        state = settle(offerings_action(state, state["turn"]))
    return state


def case_game_over():
    state, _ = random_game(1, 2)
    return state, 0, {"type": "pass"}


def case_passed_action():
    state, seat = turn_state()
    state = stepping(state, seat)
    return state, seat, {"type": "action", "area": "OFF", "pair": 0, "entry": decl("BLK"),
                         "pay": []}


def case_passed_pass():
    state, seat = turn_state()
    return stepping(state, seat), seat, {"type": "pass", "jar": 0}


def case_area_full():
    state, seat = turn_state()
    state = give(fill_segment(state, "BLK"), seat, BLK=1)
    return state, seat, {"type": "action", "area": "OFF", "pair": 0, "entry": decl("BLK"),
                         "pay": []}


def with_tokens(**tokens):
    state, seat = turn_state()
    return give(strip(state, seat), seat, **tokens), seat


def case_action(area="OFF", entry=("BLK",), pay=(), tokens=None, **args):
    state, seat = with_tokens(**(tokens or {"BLK": 2, "RED": 2, "SIL": 1, "A-NIL": 1,
                                            "P1": 1, "P2": 1}))
    move = {"type": "action", "area": area, "entry": decl(*entry),
            "pay": [decl(*p) for p in pay], **args}
    if area == "OFF":
        move.setdefault("pair", 0)
    return state, seat, move


def case_nothing(change, **args):
    state, seat, move = case_action(**args)
    state = tampered(state)
    change(state)
    return state, seat, move


def empty_pair(state):
    state["bag"].update(Counter(state["bag"]) + Counter(state["pairs"][0]))
    state["pairs"][0] = []


def empty_bonus(state):
    state["bag"][state["bonus"][1]] += 1
    state["bonus"][1] = None


def empty_noble_deck(state):
    state["noble_discard"] += state["noble_deck"]
    state["noble_deck"] = []


def empty_artisan_slot(state):
    state["artisan_discard"].append(state["artisan_display"][2])
    state["artisan_display"][2] = None


def case_nine_tracks():
    state, seat = turn_state(entered=FULL_EDITION)
    state = give(strip(state, seat), seat, RED=1, BLU=1)
    return state, seat, {"type": "action", "area": "NIL", "entry": decl("RED"),
                         "pay": [decl("BLU")], "nile": {"action": 3, "tracks": ["RED"]}}


def case_nile_mode(entered):
    state, seat = turn_state(entered=entered)
    state = give(strip(state, seat), seat, RED=1, BLU=1)
    nile = ({"cost": ["RED", "BLU"], "gains": {}, "tracks": ["RED"]} if entered else
            {"action": 3, "tracks": ["RED", "BLU"]})
    return state, seat, {"type": "action", "area": "NIL", "entry": decl("RED"),
                         "pay": [decl("BLU")], "nile": nile}


def case_tomb(entered=None, steps=0, tomb=None, tokens=None):
    state, seat = turn_state(entered=entered)
    state = give(strip(state, seat), seat, **(tokens or {"BLU": 1, "BLK": 1, "YEL": 1}))
    state = tampered(state)
    state["players"][seat]["tomb"] = steps
    move = {"type": "action", "area": "TMB", "entry": decl("BLU"), "pay": [decl("BLK"),
                                                                           decl("YEL")]}
    if tomb is not None:
        move["tomb"] = tomb
    return state, seat, move


def case_pass(**move):
    state, seat = turn_state()
    return state, seat, {"type": "pass", **move}


def case_step_active():
    state, seat = turn_state()
    return state, seat, {"type": "step", "reward": "silver"}


def case_step_not_in_row():
    state, seat = turn_state()
    return stepping(state, seat), seat, {"type": "step", "reward": "offering"}


def case_step_without_reward():
    state, seat = turn_state()
    return stepping(state, seat), seat, {"type": "step"}


def test_a_step_with_nothing_left_to_take():
    rows = [["offering", "offering", "offering"], [None, None], [None, None], [None, None]]
    state, seat = turn_state(entered={"pyramid_rows": rows})
    state = tampered(stepping(state, seat))
    for index, token in enumerate(state["bonus"]):
        if token is not None:
            state["offer_discard"][token] += 1
            state["bonus"][index] = None
    for token, count in state["bag"].items():
        state["offer_discard"][token] += count
        state["bag"][token] = 0
    assert_refused(PHARAON, state, seat, {"type": "step"}, "pharaon.reward_needed")
    for token in list(state["offer_discard"]):               # nothing anywhere now
        state["players"][(seat + 1) % 3]["off"][token] += state["offer_discard"][token]
        state["offer_discard"][token] = 0
    check_invariants(state)
    assert PHARAON.legal_moves(state, seat) == [{"type": "step"}]
    after = play(state, (seat, {"type": "step"}))
    assert after["players"][seat]["space"] == 1


def case_step_empty_bonus():
    rows = [["offering", "offering", "offering"], [None, None], [None, None], [None, None]]
    state, seat = turn_state(entered={"pyramid_rows": rows})
    state = tampered(stepping(state, seat))
    empty_bonus(state)
    return state, seat, {"type": "step", "reward": "offering", "source": 1}


def case_exchange(card=17, used=False, give_kind="RED", get="BLU", bank_empty=False,
                  options=None, owned=True):
    state, seat = turn_state(options=options)
    if owned:
        state = with_nobles(state, seat, card)
    state = give(strip(state, seat), seat, RED=1, **{"R-BLU": 1})
    state = tampered(state)
    if used:
        state["players"][seat]["used"].append(card)
    if bank_empty:
        other = (seat + 1) % 3
        state["players"][other]["res"][get] += state["bank"][get]
        state["bank"][get] = 0
    return state, seat, {"type": "exchange", "card": card, "give": give_kind, "get": get}


def case_pass_exchange_with_teacher():
    state, seat = turn_state()
    state = give(with_nobles(state, seat, 19, 17), seat, RED=1)
    return state, seat, {"type": "pass", "jar": 0,
                         "exchange": {"card": 17, "give": "RED", "get": "BLU"}}


def start_pick_state():
    state = new_game(3)
    while phase_of(state) != "start_pick":
        state = play(state, (min(PHARAON.awaiting(state).seats), first_draw(state)))
    return state, state["pending"][0]["seat"]


def case_start_pick(jar=0, noble=None):
    state, seat = start_pick_state()
    drawn = state["pending"][0]["nobles"]
    if noble is None:
        noble = next(c for c in t.NOBLE_NUMBERS if c not in drawn)
    elif noble == "drawn":
        noble = drawn[0]
    return state, seat, {"type": "start_pick", "jar": jar, "noble": noble}


def case_jar_gain_diplomat_not_owned():
    state, seat = turn_state()
    state = with_nobles(state, seat, 19)
    state = play(state, (seat, {"type": "pass", "jar": 0}))
    assert phase_of(state) == "jar_gain"
    return state, seat, {"type": "jar_gain", "diplomat": ["RED", "RED", "RED"]}


def effect_state(card):
    state, seat = turn_state()
    state = take_noble(state, seat, card)
    state = settle(state)
    assert phase_of(state) == "noble_effect"
    return state, seat


def case_effect(card, change=None, **move):
    state, seat = effect_state(card)
    if change:
        state = tampered(state)
        change(state)
    return state, seat, {"type": "noble_effect", **move}


def traitor_jar_state(jar, **kwargs):
    state = started(1, stop_at_traitor_jar=True, traitor_starts=True, **kwargs)
    return play(state, (0, {"type": "draw_jars", "jars": jar}))


def case_traitor_colours():
    state = traitor_jar_state(["SIL", "RED", "SIL"])
    assert phase_of(state) == "traitor_colours"
    return state, 0, {"type": "traitor_colours", "colours": ["RED"]}


def traitor_reward_state():
    state = started(1, options={"traitor_pyramid_reward": "human_picks"})
    return advance(state, lambda s: phase_of(s) == "traitor_reward", seed=2)


def case_traitor_reward(**move):
    state = traitor_reward_state()
    return state, 0, {"type": "traitor_reward", **move}


def case_values_known():
    state = new_game(2, entered={"god_halves": GOD_HALVES})
    state = advance(state, lambda s: phase_of(s) == "values", seed=3)
    gods = [{"name": "x", "a": {"threshold": 1, "points": 1},
             "b": {"threshold": 1, "points": 1}}] * 5
    return state, 0, {"type": "enter_values", "gods": gods}


REFUSALS = [
    ("game over", case_game_over, "pharaon.game_over", None),
    ("not a move", lambda: (*turn_state(), {"type": 3}), "pharaon.bad_move", "move.type"),
    ("no such token", lambda: case_action(entry=("GOLD", "BLK")), "pharaon.bad_move",
     "move.entry.token"),
    ("no such move", lambda: (*turn_state(), {"type": "fly"}), "pharaon.unknown_move",
     "move.type"),
    ("not your turn", lambda: (turn_state()[0], (turn_state()[1] + 1) % 3,
                               {"type": "pass", "jar": 0}), "PH_E_NOT_YOUR_TURN", None),
    ("the Traitor is no seat", lambda: (started(1), 1, {"type": "pass", "jar": 0}),
     "PH_E_NOT_YOUR_TURN", None),
    ("a pass while jars are drawn", lambda: (new_game(3), 0, {"type": "pass"}),
     "pharaon.wrong_phase", None),
    ("an action after passing", case_passed_action, "PH_E_PASSED", None),
    ("a second pass", case_passed_pass, "PH_E_PASSED", None),
    ("full area", case_area_full, "PH_E_AREA_FULL", "move.area"),
    ("entry of the wrong colour", lambda: case_action(entry=("RED", "BLK")), "PH_E_ENTRY_KIND",
     "move.entry"),
    ("another area's offering", lambda: case_action(entry=("A-NIL", "BLK")), "PH_E_ENTRY_KIND",
     "move.entry"),
    ("a point offering as entry", lambda: case_action(entry=("P1", "BLK")),
     "PH_E_NOT_SPENDABLE", "move.entry.token"),
    ("a point offering paid", lambda: case_action(pay=[("P2", "BLK")], bonus="bag"),
     "PH_E_NOT_SPENDABLE", "move.pay.0.token"),
    ("red declared blue", lambda: case_action(area="ART", entry=("GRN",), card=0,
                                              tokens={"GRN": 1, "RED": 2},
                                              pay=[("RED", "GRN"), ("RED", "GRN")]),
     "pharaon.bad_declaration", "move.pay.0"),
    ("not owned", lambda: case_action(entry=("BLK",), pay=[("BLK",), ("BLK",)], bonus="bag",
                                      tokens={"BLK": 2}), "PH_E_TOKEN_NOT_OWNED", "move.pay"),
    ("cost unmet", lambda: case_action(area="NOB", entry=("YEL",), card=0,
                                       tokens={"YEL": 1, "RED": 1, "BLK": 1},
                                       pay=[("RED",), ("BLK",)]), "PH_E_COST_UNMET",
     "move.pay"),
    ("overpaid", lambda: case_action(pay=[("BLK",)]), "PH_E_OVERPAID", "move.pay"),
    ("no such pair", lambda: case_action(pair=9), "PH_E_NOTHING_TO_TAKE", "move.pair"),
    ("empty pair", lambda: case_nothing(empty_pair), "PH_E_NOTHING_TO_TAKE", "move.pair"),
    ("empty bonus space", lambda: case_nothing(empty_bonus, pay=[("BLK",)], bonus=1),
     "PH_E_NOTHING_TO_TAKE", "move.bonus"),
    ("no noble left to draw", lambda: case_nothing(
        empty_noble_deck, area="NOB", entry=("YEL",), card="top",
        tokens={k: 1 for k in t.BASIC}, pay=[(k,) for k in t.BASIC if k != "YEL"]),
     "PH_E_NOTHING_TO_TAKE", "move.card"),
    ("empty artisan slot", lambda: case_nothing(
        empty_artisan_slot, area="ART", entry=("GRN",), card=2, tokens={"GRN": 3},
        pay=[("GRN",), ("GRN",)]), "PH_E_NOTHING_TO_TAKE", "move.card"),
    ("arrows unassigned", case_nine_tracks, "PH_E_NILE_TRACK", "move.nile.tracks"),
    ("confirm move in catalogue mode", lambda: case_nile_mode(FULL_EDITION),
     "pharaon.nile_mode", "move.nile"),
    ("catalogue move in confirm mode", lambda: case_nile_mode(None), "pharaon.nile_mode",
     "move.nile"),
    ("finished tomb", lambda: case_tomb(FULL_EDITION, steps=len(TOMB_TRACK)), "PH_E_TOMB_END",
     "move.area"),
    ("tomb cost not declared", lambda: case_tomb(), "pharaon.tomb_cost_needed",
     "move.tomb.cost"),
    ("tomb cost unlike our copy", lambda: case_tomb(FULL_EDITION, tomb={"cost": ["RED", "RED"]}),
     "pharaon.tomb_cost_differs", "move.tomb.cost"),
    ("tomb points unlike our copy", lambda: case_tomb(tomb={"cost": ["BLU", "BLK", "YEL"],
                                                            "points": 7}),
     "pharaon.tomb_points_differ", "move.tomb.points"),
    ("a jar from the supply", lambda: case_pass(jar="supply"), "PH_E_JAR_SOURCE", "move.jar"),
    ("no jar taken", lambda: case_pass(), "PH_E_JAR_SOURCE", "move.jar"),
    ("no such jar", lambda: case_pass(jar=7), "PH_E_JAR_SOURCE", "move.jar"),
    ("a step before passing", case_step_active, "pharaon.no_step", None),
    ("a step without a reward", case_step_without_reward, "pharaon.reward_needed",
     "move.reward"),
    ("a reward beyond the space", case_step_not_in_row, "PH_E_REWARD_NOT_IN_ROW",
     "move.reward"),
    ("an empty bonus space as reward", case_step_empty_bonus, "PH_E_NOTHING_TO_TAKE",
     "move.source"),
    ("the Seer twice", lambda: case_exchange(used=True), "PH_E_ABILITY_USED", "move.card"),
    ("an empty bank", lambda: case_exchange(card=18, get="SIL", bank_empty=True),
     "PH_E_BANK_EMPTY", "move.get"),
    ("a noble not owned", lambda: case_exchange(owned=False), "pharaon.noble_not_owned",
     "move.card"),
    ("the same kind back", lambda: case_exchange(get="RED"), "pharaon.same_kind", "move.get"),
    ("a token not held", lambda: case_exchange(give_kind="GRN"), "PH_E_TOKEN_NOT_OWNED",
     "move.give"),
    ("an offering, option off", lambda: case_exchange(
        give_kind="R-BLU", options={"seer_on_offerings": False}), "pharaon.bad_declaration",
     "move.give"),
    ("an exchange before the Teacher", case_pass_exchange_with_teacher,
     "pharaon.exchange_after_choice", "move.exchange"),
    ("a noble not drawn", lambda: case_start_pick(), "pharaon.not_drawn", "move.noble"),
    ("no such starting jar", lambda: case_start_pick(jar=5, noble="drawn"),
     "PH_E_JAR_SOURCE", "move.jar"),
    ("a Diplomat not owned", case_jar_gain_diplomat_not_owned, "PH_E_ABILITY_USED",
     "move.diplomat"),
    ("Court Official 21: 2 levels", lambda: case_effect(21, tracks=["RED", "RED"]),
     "PH_E_NILE_TRACK", "move.tracks"),
    ("Court Official 22: one offering", lambda: case_effect(22, tracks=["RED", "BLU"],
                                                            sources=["bag"]),
     "pharaon.wrong_count", "move.sources"),
    ("Court Official 22: an empty bonus", lambda: case_effect(
        22, empty_bonus, tracks=["RED", "BLU"], sources=[1, "bag"]), "PH_E_NOTHING_TO_TAKE",
     "move.sources.0"),
    ("Court Official 23: no artisan", lambda: case_effect(23), "PH_E_NOTHING_TO_TAKE",
     "move.artisan"),
    ("Traitor silver: a colour short", case_traitor_colours, "pharaon.wrong_count",
     "move.colours"),
    ("Traitor reward: no kind", lambda: case_traitor_reward(reward="basic"),
     "pharaon.kind_needed", "move.kind"),
    ("values already known", case_values_known, "pharaon.value_known", "move.gods"),
    ("jars: wrong count", lambda: (new_game(3), 0, {"type": "draw_jars",
                                                    "jars": [["RED", "RED", "RED"]]}),
     "pharaon.wrong_count", "move.jars"),
]


@pytest.mark.parametrize("name, build, code, field", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals_leave_the_state_untouched(name, build, code, field):
    state, seat, move = build()
    check_invariants(state)
    assert_refused(PHARAON, state, seat, move, code, field)


def test_every_spec_code_is_exercised():
    spec_codes = {"PH_E_NOT_YOUR_TURN", "PH_E_PASSED", "PH_E_AREA_FULL", "PH_E_ENTRY_KIND",
                  "PH_E_TOKEN_NOT_OWNED", "PH_E_COST_UNMET", "PH_E_OVERPAID",
                  "PH_E_NOTHING_TO_TAKE", "PH_E_NILE_TRACK", "PH_E_TOMB_END",
                  "PH_E_JAR_SOURCE", "PH_E_REWARD_NOT_IN_ROW", "PH_E_ABILITY_USED",
                  "PH_E_BANK_EMPTY", "PH_E_NOT_SPENDABLE"}
    assert spec_codes <= {code for _, _, code, _ in REFUSALS}


# ------------------------------------------------------------------------------------------
# 3. Moves and rules
# ------------------------------------------------------------------------------------------


def action(state, seat, area, entry, pay=(), **args):
    move = {"type": "action", "area": area, "entry": decl(*entry),
            "pay": [decl(*p) for p in pay], **args}
    return play(state, (seat, move))


def bare_turn(players=3, nobles=(), **tokens):
    """The first turn, the seat holding only ``tokens`` and ``nobles`` (its starting noble
    taken away)."""
    state, seat = turn_state(players)
    state = tampered(state)
    for card in state["players"][seat]["nobles"]:
        state["noble_deck"] = sorted(state["noble_deck"] + [card])
    state["players"][seat]["nobles"] = []
    state = give(strip(with_nobles(state, seat, *nobles), seat), seat, **tokens)
    return state, seat


def test_noble_7_to_10_entry_by_its_own_colour_counts_for_the_deduction():
    # the Priestess (8) is on the Offerings in the default copy; OFF faces BLK in round 1
    state, seat = bare_turn(nobles=(8,), RED=2)
    after = action(state, seat, "OFF", ("RED",), [("RED",)], pair=0, bonus=0)
    assert after["players"][seat]["res"]["RED"] == 0                   # 2 RED in all
    assert after["wheel"]["BLK"][0]["token"] == "RED"
    plain, seat = bare_turn(RED=2)
    assert_refused(PHARAON, plain, seat, {"type": "action", "area": "OFF", "pair": 0, "bonus": 0,
                                          "entry": decl("RED"), "pay": [decl("RED")]},
                   "PH_E_ENTRY_KIND")


def test_scribe_swaps_a_token_for_its_partner_one_kind_per_use():
    # Scribe 1 pairs GRN and BLK (default copy): a GRN token laid as BLK is BLK for the action
    state, seat = bare_turn(nobles=(1,), GRN=2)
    after = action(state, seat, "OFF", ("GRN", "BLK"), [("GRN", "BLK")], pair=0, bonus=0)
    assert after["players"][seat]["res"]["GRN"] == 0
    ctx = pay_context(state, seat, "OFF")
    assert declarable_kinds("GRN", ctx) == ("GRN", "BLK")
    assert declarable_kinds("R-BLK", ctx) == ("BLK", "GRN")
    assert entry_kinds("RED", ctx) == ()


def test_the_judge_pays_any_five_units():
    judge, seat = bare_turn(nobles=(11,), YEL=1, RED=4)
    after = action(judge, seat, "NOB", ("YEL",), [("RED",)] * 4, card=0)
    assert len(after["players"][seat]["nobles"]) == 2
    plain, seat = bare_turn(nobles=(12,), YEL=1, RED=4)
    assert_refused(PHARAON, plain, seat, {"type": "action", "area": "NOB", "card": 0,
                                          "entry": decl("YEL"), "pay": [decl("RED")] * 4},
                   "PH_E_COST_UNMET")


def test_a_full_area_is_open_once_a_round_to_its_noble_13_to_16():
    state, seat = bare_turn(nobles=(13,), GRN=6)
    state = fill_segment(state, "GRN")                   # ART faces GRN: every spot taken
    bank = state["bank"]["GRN"]
    after = settle(action(state, seat, "ART", ("GRN",), [("GRN",)] * 2, card=0))
    assert 13 in after["players"][seat]["used"]
    assert after["bank"]["GRN"] == bank + 3              # Q11: the entry goes to the bank too
    while after["turn"] != seat:
        after = settle(offerings_action(after, after["turn"]))
    assert_refused(PHARAON, after, seat, {"type": "action", "area": "ART", "card": 0,
                                          "entry": decl("GRN"), "pay": [decl("GRN")] * 2},
                   "PH_E_AREA_FULL")


@pytest.mark.parametrize("card, give_kind, get", [(17, "RED", "BLU"), (17, "R-BLU", "YEL"),
                                                  (18, "RED", "SIL")])
def test_seer_and_treasurer_exchange_once_a_round(card, give_kind, get):
    state, seat = bare_turn(nobles=(card,), RED=1, **{"R-BLU": 1})
    after = play(state, (seat, {"type": "exchange", "card": card, "give": give_kind,
                                "get": get}))
    me = after["players"][seat]
    assert me["res"][get] == 1 and card in me["used"]
    assert after["turn"] == seat                         # the turn goes on
    assert_refused(PHARAON, after, seat, {"type": "exchange", "card": card, "give": "RED" if
                                          give_kind != "RED" else "R-BLU", "get": get},
                   "PH_E_ABILITY_USED")


def test_an_exchange_with_a_pass_uses_the_jar_just_taken():
    state, seat = bare_turn(nobles=(17,))
    jar = state["jar_display"][0]
    after = play(state, (seat, {"type": "pass", "jar": 0,
                                "exchange": {"card": 17, "give": jar[0],
                                             "get": next(k for k in t.BASIC if k != jar[0])}}))
    assert sum(after["players"][seat]["res"].values()) == 3


@pytest.mark.parametrize("nobles, move, gained", [
    ((19,), {"teacher": "BLU"}, "jar+BLU"),
    ((20,), {"diplomat": ["RED", "RED", "YEL"]}, "RED,RED,YEL"),
    ((19, 20), {"teacher": "BLK", "diplomat": ["GRN", "GRN", "GRN"]}, "GRN,GRN,GRN,BLK"),
    ((19, 20), {}, "jar"),
])
def test_teacher_and_diplomat_when_a_jar_is_gained(nobles, move, gained):
    state, seat = bare_turn(nobles=nobles)
    jar = state["jar_display"][0]
    state = play(state, (seat, {"type": "pass", "jar": 0}))
    assert phase_of(state) == "jar_gain" and state["pending"][0]["jar"] == jar
    state = play(state, (seat, {"type": "jar_gain", **move}))
    expected = Counter(jar) if gained.startswith("jar") else Counter()
    if "+" in gained:
        expected[gained.split("+")[1]] += 1
    if not gained.startswith("jar"):
        expected = Counter(gained.split(","))
    assert +Counter(state["players"][seat]["res"]) == expected
    assert set(state["players"][seat]["used"]) == {c for c, k in ((19, "teacher"),
                                                                  (20, "diplomat")) if k in move}


def test_a_gain_the_bank_cannot_pay_is_cut_with_a_warning():
    """§2.2, Q17: the action stays legal; the gain is cut to what the bank holds and
    PH_W_BANK_SHORT is recorded."""
    state, seat = bare_turn()
    jar = state["jar_display"][0]
    kind = jar[0]
    wanted = Counter(jar)[kind]
    other = (seat + 1) % 3
    state["players"][other]["res"][kind] += state["bank"][kind]    # the bank runs out
    state["bank"][kind] = 0
    assert state["warnings"] == []
    after = play(state, (seat, {"type": "pass", "jar": 0}))
    gained = Counter({k: n for k, n in after["players"][seat]["res"].items() if n})
    assert gained == Counter({k: n for k, n in Counter(jar).items() if k != kind})
    assert after["bank"][kind] == 0
    assert after["warnings"] == [{"code": "PH_W_BANK_SHORT", "round": state["round"],
                                  "actor": seat, "kind": kind, "short": wanted}]
    # With the bank able to pay there is no cut and no warning.
    state["bank"][kind], state["players"][other]["res"][kind] = state["players"][other][
        "res"][kind], 0
    full = play(state, (seat, {"type": "pass", "jar": 0}))
    assert +Counter(full["players"][seat]["res"]) == Counter(jar)
    assert full["warnings"] == []


def _bank_out_of(state, kind, seat):
    """A copy where another player holds every ``kind`` token the bank had."""
    state = tampered(state)
    other = (seat + 1) % len(state["players"])
    state["players"][other]["res"][kind] += state["bank"][kind]
    state["bank"][kind] = 0
    return state


def _nile_3(options=None):
    """Nile action 3 of the test copy (RED + BLU; gains BLK and YEL), the bank out of BLK."""
    state, seat = turn_state(entered=FULL_EDITION, options=options)
    state = _bank_out_of(give(strip(state, seat), seat, RED=1, BLU=1), "BLK", seat)
    return state, seat, {"type": "action", "area": "NIL", "entry": decl("RED"),
                         "pay": [decl("BLU")], "nile": {"action": 3, "tracks": ["RED", "BLU"]}}


def test_q17_refuse_a_nile_action_the_bank_cannot_pay():
    state, seat, move = _nile_3({"bank_short": "refuse"})
    assert_refused(PHARAON, state, seat, move, "PH_E_BANK_EMPTY", "move.nile")
    # the recommended reading: the action stands, BLK is cut, a warning is recorded
    state, seat, move = _nile_3()
    after = play(state, (seat, move))
    assert after["players"][seat]["res"]["BLK"] == 0 and after["players"][seat]["res"]["YEL"] == 1
    assert [(w["code"], w["kind"], w["short"]) for w in after["warnings"]] == [
        ("PH_W_BANK_SHORT", "BLK", 1)]


def test_q17_refuse_a_nile_gain_paid_by_the_tokens_spent_is_allowed():
    # the action's own payment goes back to the bank first: a BLU gain it pays is no problem
    state, seat = turn_state(entered=FULL_EDITION, options={"bank_short": "refuse"})
    state = _bank_out_of(give(strip(state, seat), seat, RED=1, BLU=1), "BLU", seat)
    state["rules"]["nile_actions"][3] = {**state["rules"]["nile_actions"][3],
                                         "gains": {"BLU": 1}}
    after = play(state, (seat, {"type": "action", "area": "NIL", "entry": decl("RED"),
                                "pay": [decl("BLU")],
                                "nile": {"action": 3, "tracks": ["RED", "BLU"]}}))
    assert after["players"][seat]["res"]["BLU"] == 1 and after["warnings"] == []


def test_q17_refuse_a_jar_the_bank_cannot_pay_while_another_one_it_can():
    state, seat = bare_turn()
    state["options"]["bank_short"] = "refuse"
    assert len(state["jar_display"]) >= 2
    state["jar_display"][:2] = [["BLK", "BLK", "YEL"], ["RED", "GRN", "BLU"]]
    display = state["jar_display"]
    state = _bank_out_of(state, "BLK", seat)
    assert_refused(PHARAON, state, seat, {"type": "pass", "jar": 0}, "PH_E_BANK_EMPTY",
                   "move.jar")
    after = play(state, (seat, {"type": "pass", "jar": 1}))
    assert after["warnings"] == []
    # no jar the bank can pay: the jar is taken and cut, passing stays possible
    for kind in {k for jar in display for k in jar}:
        state = _bank_out_of(state, kind, seat)
    after = play(state, (seat, {"type": "pass", "jar": 0}))
    assert after["players"][seat]["passed"] and after["warnings"]


def test_q17_refuse_a_basic_reward_of_a_kind_the_bank_lacks():
    rows = [["basic", "basic", "basic"], [None, None], [None, None], [None, None]]
    for refuse_short in (True, False):
        state, seat = turn_state(entered={"pyramid_rows": rows},
                                 options={"bank_short": "refuse" if refuse_short else "cut"})
        state = _bank_out_of(stepping(state, seat), "GRN", seat)
        move = {"type": "step", "reward": "basic", "kind": "GRN"}
        if refuse_short:
            assert_refused(PHARAON, state, seat, move, "PH_E_BANK_EMPTY", "move.kind")
            after = play(state, (seat, {**move, "kind": "RED"}))
            assert after["warnings"] == []
        else:
            after = play(state, (seat, move))
            assert after["warnings"][-1]["code"] == "PH_W_BANK_SHORT"


def test_court_officials_resolve_on_acquisition():
    state, seat = effect_state(21)
    after = play(state, (seat, {"type": "noble_effect", "tracks": ["RED", "RED", "BLU"]}))
    me = after["players"][seat]
    assert me["nile"][3:] == [2, 1] and me["res"]["SIL"] == 2        # 2 × silver (U11)
    state, seat = effect_state(22)
    bonus = state["bonus"][0]
    after = play(state, (seat, {"type": "noble_effect", "tracks": ["GRN", "GRN"],
                                "sources": [0, "bag"]}))
    assert phase_of(after) == "draw_offerings"                     # the bag draw
    after = play(after, (seat, first_draw(after)))
    assert after["players"][seat]["nile"][2] == 2
    assert after["players"][seat]["off"][bonus] >= 1 and sum(
        after["players"][seat]["off"].values()) == 2
    state, seat = effect_state(23)
    card = state["artisan_display"][1]
    after = settle(play(state, (seat, {"type": "noble_effect", "artisan": 1})))
    assert after["players"][seat]["artisans"] == [card]
    assert after["players"][seat]["res"]["SIL"] >= 1


def test_court_official_25_advances_the_tomb_without_a_choice():
    state, seat = turn_state()
    state = settle(take_noble(state, seat, 25))
    me = state["players"][seat]
    assert me["tomb"] == 1 and me["res"]["SIL"] == 1 and phase_of(state) == "turn"


def test_general_steps_at_once_and_takes_the_first_player_token():
    state, seat = bare_turn(nobles=(6,))
    other = (seat + 1) % 3
    state = play(state, (seat, {"type": "pass", "jar": 0}))
    assert phase_of(state) == "general"
    state = play(state, (seat, {"type": "step", "reward": "first_player"}))
    assert state["first_player"] == seat and state["players"][seat]["space"] == 1
    assert state["turn"] == other


def test_the_4_plus_spot_only_with_four_or_five_players():
    assert free_spots(started(3), "YEL") == 3
    assert free_spots(started(4), "YEL") == 4
    state = started(3, entered={"four_plus_spot": 1})
    assert usable_spots(state) == [1, 2, 3]
    assert area_view(state)[1]["spots"][0] == "closed"


def test_succession_first_to_two_nobles_and_three_steps_never_changes():
    state, seat = bare_turn(nobles=(3,), BLU=3, BLK=3, GRN=3, RED=3, YEL=3)
    state = tampered(state)
    state["players"][seat]["tomb"] = 2
    other = (seat + 1) % 3
    state["players"][other]["tomb"] = 5
    after = action(state, seat, "TMB", ("BLU",), [("BLK",), ("YEL",), ("GRN",)],
                   tomb={"cost": ["BLU", "BLK", "YEL", "GRN"]})
    assert after["pharaoh"] is None                      # one noble only
    state = with_nobles(state, seat, 9)
    after = action(state, seat, "TMB", ("BLU",), [("BLK",), ("YEL",), ("GRN",)],
                   tomb={"cost": ["BLU", "BLK", "YEL", "GRN"]})
    assert after["pharaoh"] == seat
    # another player qualifying later does not take it (Q14)
    later = settle(with_nobles(after, other, 10, 14))
    assert len(later["players"][other]["nobles"]) >= 2 and later["players"][other]["tomb"] >= 3
    later = play(later, (later["turn"], PHARAON.legal_moves(later, later["turn"])[0]))
    assert later["pharaoh"] == seat


def test_round_end_clears_the_wheel_refills_and_turns():
    state, seat = turn_state()
    state = give(state, seat, **{"A-OFF": 1})
    state = play(state, (seat, {"type": "action", "area": "OFF", "pair": 0,
                                "entry": decl("A-OFF", "BLK"), "pay": []}))
    discard = state["offer_discard"]["A-OFF"]
    for _ in range(3):
        state = pass_turn(settle(state), state["turn"])
    state = settle(state)
    assert state["round"] == 2
    assert state["offer_discard"]["A-OFF"] == discard + 1           # offerings to discard
    assert all(spot is None for segment in state["wheel"].values() for spot in segment)
    assert all(len(p) == 2 for p in state["pairs"]) and all(state["bonus"])
    assert len(state["jar_display"]) == 3
    assert entry_colour(state, "OFF") == "BLU"                      # turned clockwise
    assert all(p["used"] == [] and not p["passed"] for p in state["players"])


def test_round_five_has_no_jars_and_ends_the_game():
    state = advance(started(3), lambda s: s["round"] == 5 and phase_of(s) == "turn", seed=4)
    assert state["jar_display"] == []
    seat = state["turn"]
    assert_refused(PHARAON, state, seat, {"type": "pass", "jar": 0}, "PH_E_JAR_SOURCE")
    state = advance(state, lambda s: s["phase"] in ("values", "over"), seed=4)
    assert state["round"] == 5 and state["pending"] == []


def test_missing_values_are_entered_at_the_end_by_any_seat():
    state = advance(new_game(3), lambda s: phase_of(s) == "values", seed=5)
    gods_missing, steps = missing_values(state)
    assert gods_missing
    awaited = PHARAON.awaiting(state)
    assert awaited.seats == frozenset({0, 1, 2}) and awaited.step == "values"
    assert not PHARAON.is_over(state) and not PHARAON.score(state).complete
    gods = [{"name": f"G{g}", "a": {"threshold": 1, "points": 2},
             "b": {"threshold": 1, "points": 3}} for g in range(5)]
    state = play(state, (2, {"type": "enter_values", "gods": gods}))
    if steps:
        assert not PHARAON.is_over(state)
        state = play(state, (1, {"type": "enter_values", "tomb_points": [
            {"steps": s, "points": 4 * s} for s in steps]}))
    assert PHARAON.is_over(state) and PHARAON.score(state).complete
    assert_refused(PHARAON, state, 0, {"type": "enter_values", "gods": gods}, "pharaon.game_over")


def test_prompts_offer_each_area_with_a_legal_payment():
    state, seat = turn_state(entered=FULL_EDITION)
    state = give(state, seat, **{k: 2 for k in t.BASIC})
    prompts = PHARAON.prompts(state, seat)
    assert prompts["moves"] == ["action", "pass"]
    areas = {row["area"]: row for row in prompts["areas"]}
    assert set(areas) == set(t.AREAS)
    assert areas["OFF"]["colour"] == "BLK" and areas["OFF"]["free"] == 3
    proposals = [(area, row["proposal"]) for area, row in areas.items() if "proposal" in row]
    proposals += [("NIL", a["proposal"]) for a in areas["NIL"]["actions"]]
    for area, proposal in proposals:
        if proposal is None:
            continue
        extra = {"OFF": {"pair": 0}, "NOB": {"card": 0}, "ART": {"card": 0},
                 "TMB": {}}.get(area)
        if area == "NIL":
            action = next(a for a in areas["NIL"]["actions"] if a["proposal"] is proposal)
            extra = {"nile": {"action": action["action"], "tracks": [
                a.split("/")[0] if a != "any" else "RED" for a in action["arrows"]]}}
        PHARAON.validate(state, seat, {"type": "action", "area": area, **proposal, **extra})
    assert PHARAON.prompts(state, (seat + 1) % 3)["moves"] == []


@pytest.mark.parametrize("seed", range(6))
def test_the_phone_offers_every_declaration_and_the_proposal_is_among_them(seed):
    """payment_choices lists exactly the (token, kind) pairs the referee accepts for the
    entry and the action cost; each proposal uses them; pay_rows fits the proposal."""
    import random
    rng = random.Random(seed)
    state, seat = turn_state(entered=FULL_EDITION if seed % 2 else None)
    held = {k: rng.randint(0, 2) for k in t.BASIC + ("SIL",)}
    for kinds in (t.RESOURCE_OFFERINGS, t.AREA_OFFERINGS):
        held[rng.choice([k for k in kinds if state["bag"][k]])] = 1
    state = give(state, seat, **held)
    state = with_nobles(state, seat, *rng.sample([1, 2, 3, 4, 5, 7, 8, 9, 10, 11], 2))
    for row in PHARAON.prompts(state, seat)["areas"]:
        area = row["area"]
        ctx = pay_context(state, seat, area)
        tokens = holdings(state, seat)
        choices = payment_choices(state, seat, area)
        assert choices == row["choices"] and choices["entry_colour"] == row["colour"]
        entry = {(c["token"], c["as"]) for c in choices["entry"]}
        pay = {(c["token"], c["as"]) for c in choices["pay"]}
        assert entry == {(tok, k) for tok in tokens for k in entry_kinds(tok, ctx)}
        assert pay == {(tok, k) for tok in tokens for k in declarable_kinds(tok, ctx)}
        for key, rows in (("proposal", row["rows"]), ("proposal_bonus", row.get("rows_bonus"))):
            proposal = row.get(key)
            if proposal:
                assert (proposal["entry"]["token"], proposal["entry"]["as"]) in entry
                assert {(p["token"], p["as"]) for p in proposal["pay"]} <= pay
                assert len(proposal["pay"]) <= rows


def test_view_hides_the_nobles_drawn_for_another_seats_pick():
    state, seat = start_pick_state()
    drawn = state["pending"][0]["nobles"]
    mine = PHARAON.view(state, seat, {})
    theirs = PHARAON.view(state, (seat + 1) % 3, {})
    assert mine["pending"][0]["nobles"] == drawn
    assert theirs["pending"][0]["nobles"] == [None, None]
    assert state["pending"][0]["nobles"] == drawn
    assert [row["area"] for row in mine["table"]["areas"]] == list(t.AREAS)


# ------------------------------------------------------------------------------------------
# 4. The payment proposal: legal and as cheap as a brute force finds
# ------------------------------------------------------------------------------------------

SPENDABLE = t.KINDS + t.RESOURCE_OFFERINGS + ("A-OFF", "A-ART", "A-NOB")


def brute_fewest(holdings, ctx, pattern):
    """The fewest tokens of any legal declaration, trying every entry, every multiset of
    other tokens and every way to declare them."""
    best = None
    for entry in holdings:
        for kind in entry_kinds(entry, ctx):
            rest = Counter(holdings)
            rest[entry] -= 1
            pool = list((+rest).elements())
            for size in range(0, 6):
                if best is not None and size + 1 >= best:
                    break
                for tokens in set(itertools.combinations(sorted(pool), size)):
                    options = [declarable_kinds(token, ctx) for token in tokens]
                    if any(cost_problem(pattern, kind, list(kinds)) is None
                           for kinds in itertools.product(*options)):
                        best = size + 1
                        break
    return best


@st.composite
def payment_cases(draw):
    holdings = Counter(draw(st.lists(st.sampled_from(SPENDABLE), min_size=0, max_size=7)))
    area = draw(st.sampled_from(t.AREAS))
    pairs = draw(st.lists(st.sampled_from([("GRN", "BLK"), ("RED", "BLU"), ("YEL", "RED")]),
                          max_size=2, unique=True))
    ctx = PayContext(area, draw(st.sampled_from(t.BASIC)), scribe_partners(pairs),
                     own_colour_entry=draw(st.booleans()))
    if area == "OFF":
        pattern = area_pattern("OFF", bonus=draw(st.booleans()))
    elif area == "NOB":
        pattern = area_pattern("NOB", judge=draw(st.booleans()))
    elif area == "ART":
        pattern = area_pattern("ART")
    else:
        pattern = area_pattern(area, fixed=draw(st.lists(st.sampled_from(t.BASIC),
                                                         min_size=1, max_size=3)))
    return dict(holdings), ctx, pattern


@settings(max_examples=200, derandomize=True, deadline=None)
@given(payment_cases())
def test_the_proposal_is_legal_and_cheapest(case):
    holdings, ctx, pattern = case
    proposal = propose_payment(holdings, ctx, pattern)
    fewest = brute_fewest(holdings, ctx, pattern)
    if proposal is None:
        assert fewest is None
        return
    entry, pay = proposal["entry"], proposal["pay"]
    assert entry["as"] in entry_kinds(entry["token"], ctx)
    assert all(p["as"] in declarable_kinds(p["token"], ctx) for p in pay)
    used = Counter([entry["token"]] + [p["token"] for p in pay])
    assert all(holdings.get(token, 0) >= n for token, n in used.items())
    assert cost_problem(pattern, entry["as"], [p["as"] for p in pay]) is None
    assert 1 + len(pay) == fewest


# ------------------------------------------------------------------------------------------
# 5. The Traitor (§7)
# ------------------------------------------------------------------------------------------


def tiles(columns, jars=(3, 3, 3, 3, 3), dark_jars=(4, 4, 4, 4, 4)):
    return [{"light": {"jars": jars[i], "column": columns[i]},
             "dark": {"jars": dark_jars[i], "column": columns[i]}} for i in range(5)]


def traitor_game(columns, *, full_wheel=(), options=None, **setup):
    """A solo game whose Traitor starts, stopped at his first jar; the listed segments full.
    Columns sit left to right BLK YEL GRN RED BLU (the default set-up)."""
    state = started(1, stop_at_traitor_jar=True, entered={**FULL_EDITION,
                                                          "traitor_tiles": tiles(columns)},
                    traitor_starts=True, options=options, **setup)
    for colour in full_wheel:
        state = fill_segment(state, colour)
    return state


def traitor_jar(state, jar, board_choice=0):
    """Flip the Traitor's jar and resolve it, the human's choices and draws by default."""
    state = play(state, (0, {"type": "draw_jars", "jars": jar}))
    while phase_of(state) != "turn" and not PHARAON.is_over(state) and state["turn"] == 1:
        phase = phase_of(state)
        if phase == "traitor_board":
            state = play(state, (0, {"type": "traitor_board", "token": board_choice}))
        elif phase in CHANCE_STEPS and not (phase == "draw_jars" and
                                            state["pending"][0]["to"] == "traitor"):
            state = play(state, (0, first_draw(state)))
        else:
            break
    return state


SHORT = [[None, None]] * 5


def test_place_on_column_wraps_right_and_a_token_with_every_column_full_is_not_placed():
    state = traitor_game(SHORT, full_wheel=t.BASIC)
    state = traitor_jar(state, ["BLK", "BLK", "BLK"])     # B, then TL and TR (no wheel spot)
    columns = state["traitor_board"]["columns"]
    assert [len(c) for c in columns] == [2, 2, 2, 1, 1]
    assert [c[-1]["token"] for c in columns[:3]] == ["BLK"] * 3
    state = pass_turn(state, 0)                           # the human passes; he plays on
    bank = state["bank"]["BLU"]
    state = traitor_jar(state, ["BLU", "BLU", "BLU"])
    columns = state["traitor_board"]["columns"]
    assert [len(c) for c in columns] == [2, 2, 2, 2, 2]   # BLU col, then wrap to RED's
    assert columns[3][-1]["token"] == "BLU"
    assert state["bank"]["BLU"] == bank - 2               # Q6: the third stays in the bank


@pytest.mark.parametrize("symbol, options, check", [
    ("tomb", None, lambda s, b: s["players"][1]["tomb"] == 1),
    ("take_noble:2", None,
     lambda s, b: s["players"][1]["nobles"][-1] == b["noble_display"][1]
     and s["noble_display"][1] not in (None, b["noble_display"][1])),
    ("discard_noble:1", None,
     lambda s, b: s["noble_discard"] == [b["noble_display"][0]]
     and b["noble_display"][0] not in s["players"][1]["nobles"]),
    ("take_artisan", None, lambda s, b: s["players"][1]["artisans"][0]["points"] == 5
     and s["artisan_display"][2]["points"] == 5),                 # tie: the leftmost
    ("take_artisan_2", {"traitor_artisan_take_2": "lowest"},
     lambda s, b: s["players"][1]["artisans"][0]["points"] == 1),
    ("discard_artisan", None, lambda s, b: s["artisan_discard"][0]["points"] == 5
     and not s["players"][1]["artisans"]),
    ("discard_artisan", {"traitor_artisan_discard": "lowest"},
     lambda s, b: s["artisan_discard"][0]["points"] == 1),
    ("pair:2", None, lambda s, b: +Counter(s["players"][1]["off"]) == Counter(b["pairs"][1])
     and s["pairs"][1] == []),
    ("bonus:3", None, lambda s, b: +Counter(s["players"][1]["off"]) == Counter(
        [b["bonus"][2]]) and s["bonus"][2] is None),
    ("pair:3", None, lambda s, b: not any(s["players"][1]["off"].values())),   # no 3rd? 3 pairs
    ("nile_most", None, lambda s, b: s["players"][1]["nile"] == [1, 0, 0, 0, 0]),
    ("nile_least", None, lambda s, b: s["players"][1]["nile"] == [0, 1, 0, 0, 0]),
    ("god:NIL:ccw", None, lambda s, b: PHARAON.score(s).players[1].categories[0].detail[
        "indices"] == [2]),
    ("noble_mult:9", None, lambda s, b: PHARAON.score(s).players[1].categories[1].detail[
        "multiplier"] == 9),
])
def test_traitor_column_symbols(symbol, options, check):
    columns = [[None, symbol, None]] + [[None, None, None]] * 4
    state = traitor_game(columns, full_wheel=("RED", "YEL"), options=options)
    state = tampered(state)
    for slot, points in enumerate((2, 5, 5, 1)):
        state["artisan_display"][slot] = {"points": points, "gains": {}, "jar": False}
    before = copy.deepcopy(state)
    if symbol == "pair:3":
        state["bag"].update(Counter(state["bag"]) + Counter(state["pairs"][2]))
        state["pairs"][2] = []
    state = traitor_jar(state, ["RED", "YEL", "BLK"])    # B (BLK) on the first column
    check_invariants(state)
    assert check(state, before)


def test_traitor_ignores_a_taken_nobles_effect():
    state = traitor_game([[None, "take_noble:1"]] + [[None, None]] * 4, full_wheel=t.BASIC)
    state = display_noble(state, 0, 21)
    state = traitor_jar(state, ["RED", "YEL", "BLK"])
    assert 21 in state["players"][1]["nobles"]
    assert all(step["kind"] != "noble_effect" for step in state["pending"])
    assert state["players"][1]["nile"] == [0, 0, 0, 0, 0]


def test_silver_on_his_jar_takes_the_colour_the_human_picks():
    state = traitor_game(SHORT, full_wheel=("RED",))
    state = play(state, (0, {"type": "draw_jars", "jars": ["SIL", "RED", "SIL"]}))
    assert phase_of(state) == "traitor_colours"
    assert state["pending"][0]["silver"] == [0, 2]
    state = play(state, (0, {"type": "traitor_colours", "colours": ["GRN", "BLU"]}))
    columns = state["traitor_board"]["columns"]
    # B (silver as BLU) on the BLU column; TL (silver as GRN) is the only one with a spot
    assert columns[4][-1]["token"] == "SIL"
    assert state["wheel"]["GRN"][0]["token"] == "SIL" and state["wheel"]["GRN"][0]["actor"] == 1
    assert columns[3][-1]["token"] == "RED"             # TR on its column
    check_invariants(state)


@pytest.mark.parametrize("full, wheel, choice", [
    ((), ["RED"], "traitor_board"),                     # both eligible: the human picks
    (("RED",), ["YEL"], None),                          # only YEL eligible: forced
    (("RED", "YEL"), [], None),                          # none: TL then TR on columns
])
def test_his_top_tokens_and_the_wheel(full, wheel, choice):
    state = traitor_game(SHORT, full_wheel=full)
    state = play(state, (0, {"type": "draw_jars", "jars": ["RED", "YEL", "BLK"]}))
    assert (phase_of(state) == "traitor_board") == (choice is not None)
    if choice:
        assert state["pending"][0]["eligible"] == [0, 1]
        state = play(state, (0, {"type": "traitor_board", "token": 0}))
    his = [c for c in t.BASIC for s in state["wheel"][c] if s and s["actor"] == 1]
    assert his == wheel
    on_wheel = len(his)
    assert sum(len(c) for c in state["traitor_board"]["columns"]) == 5 + 3 - on_wheel


@pytest.mark.parametrize("timing, passes_with_last_jar", [("empty_stack_turn", False),
                                                          ("after_last_jar", True)])
def test_he_passes_when_his_jars_run_out(timing, passes_with_last_jar):
    state = traitor_game(SHORT, full_wheel=t.BASIC, options={"traitor_pass_timing": timing})
    state = pass_turn(traitor_jar(state, ["RED", "YEL", "BLK"]), 0)   # the human passes first
    state = traitor_jar(state, ["RED", "YEL", "GRN"])
    state = play(state, (0, {"type": "step", "reward": "basic", "kind": "RED"}))
    state = traitor_jar(state, ["BLU", "BLK", "GRN"])      # his last jar
    if passes_with_last_jar:
        assert state["round"] == 2                      # he passed last: the round ended
    else:
        assert state["round"] == 1 and not state["players"][1]["passed"]
        assert state["traitor_board"]["stack"] == 0
        assert state["players"][0]["space"] == 1        # the human stepped once
        state = play(state, (0, {"type": "step", "reward": "first_player"}))
        assert state["players"][1]["passed"] and state["round"] == 2


def human_acts(state: dict) -> dict:
    """The human takes some area action (the first the referee lists)."""
    move = next(m for m in PHARAON.legal_moves(state, 0) if m["type"] == "action")
    state = play(state, (0, move))
    while phase_of(state) not in ("turn", "draw_jars") or (
            phase_of(state) == "draw_jars" and state["pending"][0]["to"] != "traitor"):
        seat = min(PHARAON.awaiting(state).seats)
        draw = PHARAON.chance(state)
        state = play(state, (seat, first_draw(state) if draw
                             else PHARAON.legal_moves(state, seat)[0]))
    return state


def test_his_pyramid_step_takes_the_space_reached():
    # he runs out of jars while the human plays on: he passes first, then steps;
    # row 1 (default copy): basic, first-player token, silver
    state = give(traitor_game(SHORT, full_wheel=()), 0, **{k: 4 for k in t.BASIC})
    for jar in (["RED", "YEL", "BLK"], ["RED", "YEL", "GRN"], ["BLU", "BLK", "GRN"]):
        state = human_acts(traitor_jar(state, jar))
    state = settle(state, True)                          # his turn: the stack is empty
    assert state["players"][1]["passed"] and state["players"][1]["row"] == 0
    state = human_acts(state)
    assert state["first_player"] == 1 and state["players"][1]["space"] == 1
    state = human_acts(state)
    assert state["players"][1]["res"]["SIL"] == 1 and state["players"][1]["space"] == 2


def test_with_human_picks_the_human_chooses_his_reward():
    state = traitor_reward_state()
    head = state["pending"][0]
    row = state["players"][1]["row"]
    reached = pyramid_row(state, row)[:state["players"][1]["space"] + 1]
    expected = list(t.REWARDS) if None in reached else [r for r in t.REWARDS if r in reached]
    assert head["choices"] == expected
    outside = [r for r in t.REWARDS if r not in expected]
    if outside:
        assert_refused(PHARAON, state, 0, {"type": "traitor_reward", "reward": outside[0],
                                           "kind": "RED"}, "PH_E_REWARD_NOT_IN_ROW")
    before = state["players"][1]["res"]["GRN"]
    if "basic" in expected:
        state = play(state, (0, {"type": "traitor_reward", "reward": "basic", "kind": "GRN"}))
        assert state["players"][1]["res"]["GRN"] == before + 1


DIFFICULTIES = range(0, 6)                 # §7.6: 0 to 5 tiles dark side up


@pytest.mark.parametrize("dark", DIFFICULTIES)
def test_sides_left_blank_on_the_form_follow_the_difficulty(dark):
    state = new_game(1, options={"traitor_dark_tiles": dark}, traitor_sides=[""] * 5)
    assert state["traitor_board"]["sides"] == ["light"] * (5 - dark) + ["dark"] * dark
    # sides entered as the tiles lie: any order, as many dark ones as the difficulty says
    chosen = ["dark"] * dark + ["light"] * (5 - dark)
    state = new_game(1, options={"traitor_dark_tiles": dark}, traitor_sides=chosen)
    assert state["traitor_board"]["sides"] == chosen
    wrong = ["dark"] * ((dark + 1) % 6) + ["light"] * (5 - (dark + 1) % 6)
    with pytest.raises(RuleViolation) as caught:
        new_game(1, options={"traitor_dark_tiles": dark}, traitor_sides=wrong)
    assert caught.value.code == "pharaon.traitor_difficulty"


@pytest.mark.parametrize("dark, code", [(-1, "schema.negative"), (6, "schema.too_large")])
def test_a_difficulty_outside_0_to_5_is_refused(dark, code):
    with pytest.raises(InvalidDocument) as caught:
        new_game(1, options={"traitor_dark_tiles": dark})
    assert [(v.code, v.field) for v in caught.value.violations] == [
        (code, "options.traitor_dark_tiles")]


@pytest.mark.parametrize("dark", DIFFICULTIES)
def test_difficulty_turns_the_rightmost_tiles_dark_and_sets_his_stacks(dark):
    from companion.rules.pharaon.traitor import jars_for_round
    jars = (2, 3, 4, 5, 6)
    entered = {**FULL_EDITION, "traitor_tiles": [
        {"light": {"jars": jars[i], "column": [None, None]},
         "dark": {"jars": jars[i] + 3, "column": [None, None, None]}} for i in range(5)]}
    state = started(1, entered=entered, options={"traitor_dark_tiles": dark},
                    traitor_order=[5, 4, 3, 2, 1])
    board = state["traitor_board"]
    assert board["sides"] == ["light"] * (5 - dark) + ["dark"] * dark
    assert board["tiles"] == [4, 3, 2, 1, 0]
    # round r plays the r-th tile from the left: tile 6 - r, dark when among the rightmost
    expected = [jars[5 - r] + (3 if r > 5 - dark else 0) for r in range(1, 6)]
    assert board["stack"] == expected[0]
    for round_number in range(1, 6):
        assert jars_for_round(board, state["rules"]["traitor_tiles"], round_number) \
            == expected[round_number - 1]


@pytest.mark.parametrize("dark", DIFFICULTIES)
def test_a_solo_game_plays_to_the_end_at_every_difficulty(dark):
    state, log = random_game(7000 + dark, 1, check=True,
                             options={"traitor_dark_tiles": dark}, entered=FULL_EDITION)
    assert PHARAON.is_over(state) and state["round"] == t.ROUNDS
    assert state["traitor_board"]["sides"].count("dark") == dark
    sheet = PHARAON.score(state)
    assert sheet.complete
    assert score_final(PHARAON.final_document(state)).as_dict() == sheet.as_dict()


@pytest.mark.parametrize("counts, expected", [(True, 2), (False, 1)])
def test_his_starting_noble_counts_unless_the_option_says_no(counts, expected):
    state = traitor_game(SHORT, options={"traitor_start_noble_counts": counts})
    assert state["players"][1]["start_noble"] in state["players"][1]["nobles"]
    state = with_nobles(state, 1, 9)
    state = tampered(state)
    state["players"][1]["tomb"] = 3
    nobles = PHARAON.score(state).players[1].categories[1]
    assert nobles.detail["cards"] == expected and nobles.points == expected * 6
    state = traitor_jar(state, ["RED", "YEL", "BLK"])             # succession is checked
    assert (state["pharaoh"] == 1) == counts


def test_a_stand_in_when_the_bank_is_out_of_a_colour():
    state = traitor_game(SHORT, full_wheel=t.BASIC)
    state = tampered(state)
    state["players"][0]["res"]["BLK"] += state["bank"]["BLK"]
    state["bank"]["BLK"] = 0
    state = traitor_jar(state, ["RED", "YEL", "BLK"])
    assert state["traitor_board"]["columns"][0][-1] == {"token": "BLK", "stand_in": True}
    assert state["stand_ins"]["BLK"] == 1 and state["bank"]["BLK"] == 0
    check_invariants(state)


def test_the_traitor_tiles_and_colours_are_drawn_as_chance_inputs():
    import random
    state = new_game(1, traitor_draw=True)
    assert phase_of(state) == "draw_traitor_tiles" and PHARAON.awaiting(state).seats == {0}
    draw = PHARAON.chance(state)
    assert draw.key == "order" and draw.draws == 5
    assert sorted(o for o, n in draw.outcomes) == [1, 2, 3, 4, 5]
    assert all(state["bank"][k] == state["rules"]["bank_size"] for k in t.KINDS)
    for order, code, field in (([1, 1, 2, 3, 4], "pharaon.bad_traitor_order", "move.order"),
                               ([1, 2, 3], "pharaon.bad_move", "move.order"),
                               ([0, 1, 2, 3, 4], "pharaon.bad_move", "move.order.0")):
        assert_refused(PHARAON, state, 0, {"type": "draw_traitor_tiles", "order": order},
                       code, field)
    move = draw.draw(random.Random(7))                  # what the app draws: a permutation
    assert sorted(move["order"]) == [1, 2, 3, 4, 5]
    state = play(state, (0, move))
    assert state["traitor_board"]["tiles"] == [n - 1 for n in move["order"]]
    assert phase_of(state) == "draw_traitor_colours"
    assert_refused(PHARAON, state, 0, {"type": "draw_traitor_colours", "colours": ["RED"] * 5},
                   "pharaon.bad_traitor_colours", "move.colours")
    move = PHARAON.chance(state).draw(random.Random(8))
    state = play(state, (0, move))
    board = state["traitor_board"]
    assert board["colours"] == move["colours"] and sorted(move["colours"]) == sorted(t.BASIC)
    assert [c[0]["token"] for c in board["columns"]] == move["colours"]
    assert all(state["bank"][k] == state["rules"]["bank_size"] - 1 for k in t.BASIC)
    state = settle(state)
    first_tile = board["tiles"][0]
    assert board["stack"] == 0 and state["traitor_board"]["stack"] == state["rules"][
        "traitor_tiles"][first_tile][board["sides"][0]]["jars"]


def events(state: dict, since: int = 0) -> list[str]:
    return [entry["event"] for entry in state["traitor_log"][since:]]


def test_his_turn_is_logged_step_by_step():
    columns = [[None, "take_noble:2", None]] + [[None, None, None]] * 4
    state = traitor_game(columns, full_wheel=("RED",))
    noble = state["noble_display"][1]
    state = traitor_jar(state, ["RED", "YEL", "BLK"])
    log = state["traitor_log"]
    assert events(state) == ["jar", "column", "take_noble", "wheel", "column"]
    assert {(entry["round"], entry["turn"]) for entry in log} == {(1, 1)}
    jar, bottom, taken, wheel, top = log
    assert jar["jar"] == ["RED", "YEL", "BLK"] and jar["left"] == 2
    assert (bottom["token"], bottom["position"], bottom["space"], bottom["symbol"],
            bottom["wrapped"]) == ("BLK", 0, 1, "take_noble:2", False)
    assert (taken["slot"], taken["card"]) == (1, noble)
    area = state["board"]["areas"][facing(state).index("YEL")]
    assert (wheel["token"], wheel["area"], wheel["spot"], wheel["why"]) == ("YEL", area, 0,
                                                                            "only")
    assert (top["token"], top["position"], top["symbol"]) == ("RED", 3, None)


def test_the_log_says_when_a_token_wraps_and_when_no_spot_is_free():
    state = traitor_game(SHORT, full_wheel=t.BASIC)
    state = traitor_jar(state, ["BLK", "BLK", "BLK"])
    columns = [entry for entry in state["traitor_log"] if entry["event"] == "column"]
    assert events(state)[:3] == ["jar", "column", "no_wheel"]
    assert [(c["position"], c["wrapped"]) for c in columns] == [(0, False), (1, True),
                                                                (2, True)]


@pytest.mark.parametrize("symbol, event", [
    ("tomb", "tomb"), ("god:NIL:ccw", "god"), ("noble_mult:9", "multiplier"),
    ("take_noble:1", "take_noble"), ("discard_noble:3", "discard_noble"),
    ("take_artisan", "take_artisan"), ("take_artisan_2", "take_artisan"),
    ("discard_artisan", "discard_artisan"), ("pair:2", "pair"), ("bonus:1", "bonus"),
    ("pair:3", "nothing"), ("nile_most", "nile"), ("nile_least", "nile"),
])
def test_every_symbol_effect_is_logged(symbol, event):
    columns = [[None, symbol, None]] + [[None, None, None]] * 4
    state = traitor_game(columns, full_wheel=("RED", "YEL"))
    if symbol == "pair:3":
        state = tampered(state)
        state["bag"].update(Counter(state["bag"]) + Counter(state["pairs"][2]))
        state["pairs"][2] = []
    state = traitor_jar(state, ["RED", "YEL", "BLK"])
    log = state["traitor_log"]
    assert events(state)[:4] == ["jar", "column", event, "no_wheel"]
    assert log[1]["symbol"] == symbol and log[2]["symbol"] == symbol
    if event == "god":
        assert log[2]["god"] == 2                        # the god counter-clockwise of NIL


def test_the_log_says_why_he_passes_and_what_he_takes_on_the_pyramid():
    state = give(traitor_game(SHORT, full_wheel=()), 0, **{k: 4 for k in t.BASIC})
    for jar in (["RED", "YEL", "BLK"], ["RED", "YEL", "GRN"], ["BLU", "BLK", "GRN"]):
        state = human_acts(traitor_jar(state, jar))
    state = settle(state, True)
    passed = state["traitor_log"][-1]
    assert passed["event"] == "pass" and (passed["why"], passed["row"]) == ("empty_stack", 0)
    assert passed["turn"] == 4 and passed["last"] is False
    state = human_acts(state)
    step = state["traitor_log"][-1]
    assert (step["event"], step["reward"], step["space"]) == ("step", "first_player", 1)
    assert step["turn"] == 5


def test_with_human_picks_his_reward_is_logged_as_chosen():
    state = traitor_reward_state()
    head = state["pending"][0]
    reward = head["choices"][-1]
    kind = "GRN" if reward == "basic" else None
    state = play(state, (0, {"type": "traitor_reward", "reward": reward, "kind": kind}))
    entry = next(x for x in reversed(state["traitor_log"]) if x["event"] == "step")
    assert (entry["reward"], entry["kind"], entry["chosen"]) == (reward, kind, True)
    assert (entry["row"], entry["space"]) == (head["row"], head["space"])


# ------------------------------------------------------------------------------------------
# 6. Seeded random play-outs to the end
# ------------------------------------------------------------------------------------------

VARIANTS = {
    "confirm mode": {},
    "our copy entered": {"entered": FULL_EDITION},
    "gods at set-up": {"setup": {"gods": [
        {"name": f"G{g}", "a": {"threshold": 1 + g % 3, "points": 3},
         "b": {"threshold": 2, "points": 4}} for g in range(5)], "direction": "ccw"}},
    "open questions the other way": {"options": {
        "nile_top_cumulative": True, "traitor_artisan_take_2": "lowest",
        "traitor_artisan_discard": "lowest", "traitor_pass_timing": "after_last_jar",
        "traitor_pyramid_reward": "human_picks", "traitor_start_noble_counts": False,
        "traitor_column_tokens_score": True, "point_offerings_spendable": True,
        "reject_overpayment": False, "starting_silver": 1, "rejected_nobles": "bottom",
        "seer_on_offerings": False, "traitor_dark_tiles": 3, "bank_short": "refuse"},
        "setup": {"traitor_draw": True}},
    "a small bank, gains refused": {"entered": {"bank_size": 5},
                                    "options": {"bank_short": "refuse"}},
}
CASES = [(players, variant, seed) for players in (1, 2, 3, 4, 5) for variant in VARIANTS
         for seed in range(PLAYOUTS)]
_LOGS: list[tuple[Any, list]] = []


@pytest.mark.parametrize("players, variant, seed", CASES)
def test_random_playout(players, variant, seed):
    kwargs = VARIANTS[variant]
    state, log = random_game(1000 * players + seed, players, check=True, **kwargs)
    assert PHARAON.is_over(state) and PHARAON.awaiting(state).seats == frozenset()
    assert state["round"] == t.ROUNDS
    # the log replays to the same state
    replay = new_game(players, entered=kwargs.get("entered"), options=kwargs.get("options"),
                      **kwargs.get("setup", {}))
    for seat, move in log:
        replay = PHARAON.apply(replay, seat, move)
    assert replay == state
    # live scoring equals score-only scoring of the final document
    sheet = PHARAON.score(state)
    assert sheet.complete
    assert score_final(PHARAON.final_document(state)).as_dict() == sheet.as_dict()
    assert [p.name for p in sheet.players] == state["actors"]
    _LOGS.append(((players, kwargs), log))


def test_print_replay_speed():
    four = [(case, log) for case, log in _LOGS if case[0] == 4]
    if not four:
        pytest.skip("no play-out ran before this test")

    def replay(case, log):
        players, kwargs = case
        state = new_game(players, entered=kwargs.get("entered"), options=kwargs.get("options"),
                         **kwargs.get("setup", {}))
        for seat, move in log:
            state = PHARAON.apply(state, seat, move)
        assert PHARAON.is_over(state)

    print_replay_speed("Pharaon (4 players)", four, replay)


# ------------------------------------------------------------------------------------------
# 7. Malformed input: a RuleViolation, never a crash
# ------------------------------------------------------------------------------------------

_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 30) | st.sampled_from(
        list(t.TOKENS) + list(t.AREAS) + list(t.REWARDS) + ["top", "bag", "supply", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["token", "as", "action", "tracks", "cost", "gains", "jar", "points",
                         "threshold", "name", "a", "b", "steps", "card", "give", "get"]),
        inner, max_size=4), max_leaves=12)
_MOVES = st.fixed_dictionaries({"type": st.sampled_from([k.value for k in MoveKind])},
                               optional={key: _VALUES for key in (
                                   "area", "entry", "pay", "pair", "bonus", "card", "nile",
                                   "tomb", "jar", "jars", "cards", "tokens", "exchange",
                                   "reward", "kind", "source", "noble", "teacher", "diplomat",
                                   "tracks", "sources", "artisan", "colours", "token", "gods",
                                   "tomb_points", "give", "get")})


@pytest.fixture(scope="module")
def fuzz_states():
    rich = give(started(3), 0, **{k: 3 for k in t.KINDS}, **{"A-NIL": 1, "R-BLU": 1})
    confirm = give(started(3), 0, **{k: 3 for k in t.KINDS})
    catalogue = give(started(3, entered=FULL_EDITION), 0, **{k: 3 for k in t.KINDS})
    states = [new_game(3), rich, confirm, catalogue,
              started(1, stop_at_traitor_jar=True, traitor_starts=True),
              start_pick_state()[0], effect_state(22)[0], case_traitor_colours()[0],
              stepping(started(3), 0), case_values_known()[0]]
    return states


def _nested_paths(value, prefix=()):
    """Every path to a value inside a move (dict keys and list indices)."""
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _nested_paths(inner, prefix + (key,))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _nested_paths(inner, prefix + (index,))


@st.composite
def damaged_moves(draw, state):
    """A legal move with one value somewhere inside it replaced by junk."""
    seat = min(PHARAON.awaiting(state).seats)
    moves = PHARAON.legal_moves(state, seat)
    groups = sorted({(m["type"], m.get("area", "")) for m in moves})
    group = draw(st.sampled_from(groups))         # each kind of move as likely as another
    move = copy.deepcopy(draw(st.sampled_from([m for m in moves if (m["type"], m.get(
        "area", "")) == group])))
    paths = [p for p in _nested_paths(move) if p and p != ("type",)]
    if not paths:
        return move
    top = [p for p in paths if len(p) == 1]
    path = draw(st.sampled_from(top if draw(st.booleans()) else paths))
    node = move
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = draw(_VALUES)
    return move


@settings(max_examples=800, derandomize=True, deadline=None)
@given(st.data())
def test_malformed_moves_are_refused_not_crashed(fuzz_states, data):
    state = data.draw(st.sampled_from(fuzz_states))
    kind = data.draw(st.sampled_from(["junk", "damaged", "damaged", "damaged"]))
    move = data.draw(_MOVES | _VALUES if kind == "junk" else damaged_moves(state))
    seat = min(PHARAON.awaiting(state).seats)
    snapshot = copy.deepcopy(state)
    try:
        after = PHARAON.apply(state, seat, move)
    except RuleViolation:
        assert state == snapshot
        return
    check_invariants(after)


# ------------------------------------------------------------------------------------------
# 8. A malformed move of every kind is refused in the player's words; a seat that is not
#    awaited is offered nothing
# ------------------------------------------------------------------------------------------


def at_phase(state: dict, phase: str) -> dict:
    """Enter the first outcomes of every draw until ``phase`` is awaited."""
    while phase_of(state) != phase:
        state = play(state, (min(PHARAON.awaiting(state).seats), first_draw(state)))
    return state


def jar_gain_state():
    state, seat = turn_state()
    state = play(with_nobles(state, seat, 20), (seat, {"type": "pass", "jar": 0}))
    return state, seat


def traitor_board_state():
    state = traitor_game(SHORT)
    return play(state, (0, {"type": "draw_jars", "jars": ["RED", "YEL", "BLK"]})), 0


def gods_missing_state():
    state = new_game(2)
    return advance(state, lambda s: phase_of(s) == "values", seed=3), 0


DECLARE_ALL_FIVE = {"threshold": 1}
MALFORMED = [
    ("draw_jars", lambda: (new_game(3), 0), {"jars": [["RED", "RED", "GOLD"]]},
     "move.jars.0.2", "Jars › Jar 1 › Resource 3: Choose one of the values offered."),
    ("draw_nobles", lambda: (at_phase(new_game(3), "draw_nobles"), 0), {"cards": [3, 30, 4]},
     "move.cards.1", "Nobles › Noble 2: Choose one of the values offered."),
    ("draw_artisans", lambda: (at_phase(new_game(3), "draw_artisans"), 0),
     {"cards": {"points": 25, "gains": {}, "jar": False}}, "move.cards.0.points",
     "Artisans › Artisan 1 › Points: At most 20."),
    ("draw_offerings", lambda: (at_phase(new_game(3), "draw_offerings"), 0),
     {"tokens": ["P1", "P3"]}, "move.tokens.1",
     "Offerings › Offering 2: Choose one of the values offered."),
    ("draw_traitor_tiles", lambda: (new_game(1, traitor_draw=True), 0), {"order": [1, 2, 3]},
     "move.order", "Traitor tiles, left to right: Exactly 5 entries are needed."),
    ("draw_traitor_colours",
     lambda: (at_phase(new_game(1, traitor_draw=True), "draw_traitor_colours"), 0),
     {"colours": ["RED", "BLU", "GRN", "YEL", "PINK"]}, "move.colours.4",
     "Colour of each column › Position 5: Choose one of the values offered."),
    ("start_pick", start_pick_state, {"jar": -1, "noble": 3}, "move.jar",
     "Jar: This must not be negative."),
    ("action", turn_state, {"area": "OFF", "entry": {"token": "BLK", "as": "BLK"}, "pay": []},
     "move.pair", "Offering pair: This is required."),
    ("action", turn_state, {"area": "NOB", "card": 0, "entry": {"token": "BLK", "as": "BLK"},
                            "pay": [{"token": "RED"}]},
     "move.pay.0.as", "Payment › Unit 1 › Counts as: This is required."),
    ("action", turn_state, {"area": "NIL", "entry": {"token": "BLK", "as": "BLK"}, "pay": [],
                            "nile": {"cost": ["BLK"], "gains": {"RED": 3, "BLU": 2}}},
     "move.nile.gains", "Nile › Gains: At most 4 resources in all."),
    ("action", turn_state, {"area": "TMB", "entry": {"token": "BLK", "as": "BLK"}, "pay": [],
                            "tomb": {"cost": ["BLK"]}},
     "move.tomb.cost", "Tomb › Cost: Between 2 and 4 entries are needed."),
    ("pass", turn_state, {"jar": "first"}, "move.jar", "Jar: Choose one of the values offered."),
    ("pass", turn_state, {"jar": 0, "exchange": {"card": 17}}, "move.exchange.give",
     "Exchange › Give: This is required."),
    ("step", lambda: (stepping(*turn_state()), turn_state()[1]), {"reward": "basic"},
     "move.kind", "Resource: This is required."),
    ("exchange", lambda: case_exchange()[:2], {"card": 17, "give": "RED"}, "move.get",
     "Get: This is required."),
    ("exchange", lambda: case_exchange(card=18)[:2], {"card": 18, "give": "RED", "get": "BLU"},
     "move.get", "Get: The Treasurer gives silver."),
    ("jar_gain", jar_gain_state, {"diplomat": ["RED", "RED"]}, "move.diplomat",
     "The Diplomat's three basic tokens: Exactly 3 entries are needed."),
    ("noble_effect", lambda: effect_state(22), {"tracks": ["RED", "PINK"]}, "move.tracks.1",
     "Nile levels › Level 2: Choose one of the values offered."),
    ("traitor_colours", lambda: case_traitor_colours()[:2], {"colours": ["PINK"]},
     "move.colours.0", "Colours › Silver 1: Choose one of the values offered."),
    ("traitor_board", traitor_board_state, {"token": 2}, "move.token",
     "Top token: Choose one of the values offered."),
    ("traitor_reward", lambda: (traitor_reward_state(), 0), {"reward": "gold"}, "move.reward",
     "Reward: Choose one of the values offered."),
    ("enter_values", lambda: case_values_known()[:2], {}, "move.gods",
     "Gods: Enter the gods or the points of a tomb space."),
    ("enter_values", gods_missing_state, {"gods": [{"name": "Ra", "a": DECLARE_ALL_FIVE,
                                                    "b": DECLARE_ALL_FIVE}] * 5},
     "move.gods.0.a.points",
     "Gods › God 1 › Half on the area before it (clockwise) › Points: This is required."),
]


@pytest.mark.parametrize("kind, build, arguments, field, words", MALFORMED,
                         ids=[f"{m[0]}-{m[3]}" for m in MALFORMED])
def test_a_malformed_move_is_refused_naming_the_argument_in_words(kind, build, arguments,
                                                                  field, words):
    state, seat = build()
    assert seat in PHARAON.awaiting(state).seats
    refusal = assert_refused(PHARAON, state, seat, {"type": kind, **arguments},
                             "pharaon.bad_move", field)
    assert refusal.render() == words
    path = field.removeprefix("move.")       # an internal path such as "gods.0.a" is not shown
    assert "move." not in words and ("." not in path or path not in words)


def test_every_kind_with_arguments_has_a_malformed_case():
    declared = {rule.kind for rule in PHARAON.move_rules() if rule.args}
    assert declared == {kind for kind, *_ in MALFORMED}
    assert {rule.kind for rule in PHARAON.move_rules() if not rule.args} == {"skip_step"}


@pytest.mark.parametrize("build", [
    lambda: new_game(3), lambda: started(3), start_pick_state, lambda: effect_state(22),
    lambda: stepping(*turn_state())])
def test_a_seat_that_is_not_awaited_is_offered_nothing(build):
    built = build()
    state = built[0] if isinstance(built, tuple) else built
    awaited = PHARAON.awaiting(state).seats
    for seat in set(range(state["seats"])) - awaited:
        assert PHARAON.legal_moves(state, seat) == []
        assert PHARAON.prompts(state, seat) == {
            "moves": [], "phase": phase_of(state), "round": state["round"],
            "awaiting": sorted(awaited)}
    for seat in awaited:
        assert PHARAON.prompts(state, seat)["moves"] and PHARAON.legal_moves(state, seat)
