"""Pharaon's refusals (companion/rules/pharaon/, the families of referee.py):

1. Every refusal code, each with a state that triggers it; the refused move leaves the state
   untouched and ``validate`` refuses it the same way (tests/rules/refusals.assert_refused).
2. Malformed input: a RuleViolation, never a crash.
3. A malformed move of every kind is refused naming the argument in the player's words; a
   seat that is not awaited is offered no move.
"""

from __future__ import annotations

import copy
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.base import RuleViolation
from companion.rules.pharaon import PHARAON
from companion.rules.pharaon import printed as t
from companion.rules.pharaon.state import MoveKind, phase_of
from tests.rules.pharaon_helpers import (FULL_EDITION, GOD_HALVES, SHORT, TOMB_TRACK, advance,
                                         check_invariants, decl, effect_state, fill_segment,
                                         first_draw, give, new_game, play, random_game,
                                         start_pick_state, started, stepping, strip, tampered,
                                         traitor_game, traitor_jar_state, traitor_reward_state,
                                         turn_state, with_nobles)
from tests.rules.refusals import assert_refused


# ------------------------------------------------------------------------------------------
# Every refusal, and the state stays as it was
# ------------------------------------------------------------------------------------------


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


def case_effect(card, change=None, **move):
    state, seat = effect_state(card)
    if change:
        state = tampered(state)
        change(state)
    return state, seat, {"type": "noble_effect", **move}


def case_traitor_colours():
    state = traitor_jar_state(["SIL", "RED", "SIL"])
    assert phase_of(state) == "traitor_colours"
    return state, 0, {"type": "traitor_colours", "colours": ["RED"]}


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
# Malformed input: a RuleViolation, never a crash
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
# A malformed move of every kind is refused in the player's words; a seat that is not
# awaited is offered nothing
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
