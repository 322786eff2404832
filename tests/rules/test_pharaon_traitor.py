"""The Traitor against shared/rules/pharaon.md §7 (traitor.py, traitor_turns.py):
wrap-around, every column symbol, silver, the wheel choice, passing, his pyramid rewards,
difficulty, his tiles and colours drawn as chance inputs, and the log of his turns."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from companion.rules.base import InvalidDocument, RuleViolation
from companion.rules.pharaon import PHARAON
from companion.rules.pharaon import printed as t
from companion.rules.pharaon.final import score_final
from companion.rules.pharaon.state import facing, phase_of, pyramid_row
from tests.rules.pharaon_helpers import (FULL_EDITION, SHORT, check_invariants, display_noble,
                                         first_draw, give, new_game, pass_turn, play, random_game,
                                         settle, started, tampered, traitor_game, traitor_jar,
                                         traitor_reward_state, with_nobles)
from tests.rules.refusals import assert_refused


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
