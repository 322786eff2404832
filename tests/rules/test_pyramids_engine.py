"""Silver & Gold – Pyramids live referee (companion/rules/pyramids/, the live game) against spec
silver-gold-pyramids.md §3-§9, §14 and issue 13.

1. The ruleset's members, set-up (§3) and its refusals.
2. Turn structure: reveal as chance input, the expedition deck per round, simultaneous marking
   (awaiting, step ids, marks commute), seats without a legal mark, the end after 4 × 7 turns.
3. Every refusal code, each with a state that triggers it, the state left untouched.
4. Record mode (published cards) and mixed games; prompts, legal moves, chance, view.
5. Seeded random simultaneous play-outs to the end for 2-4 players on our cards, on the
   published cards in record mode and in a mixed game: invariants after every move, marks of a
   step applied in two orders give the same state, replay of the move log, JSON round-trip,
   live scoring equal to score-only scoring. ``PYRAMIDS_PLAYOUTS=n`` plays n games per kind.
6. Any move on positions the play-outs reach applies cleanly or changes nothing (hypothesis).
"""

from __future__ import annotations

import ast
import copy
import importlib
import inspect
import json
import os
import random
import re
from itertools import permutations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import base
from companion.rules.base import RuleViolation, normalise_options
from companion.rules.pyramids import PYRAMIDS, ours
from companion.rules.pyramids import printed as t
from companion.rules.pyramids.final import score_final
from companion.rules.pyramids.placement import (NEIGHBOURS, entrance, legal_placements,
                                                legal_singles, position)
from companion.rules.pyramids.state import (Phase, card_colour, card_grid, expedition_left,
                                            pass_allowed)
from tests.rules.playout import print_replay_speed
from tests.rules.pyramids_helpers import (PATH, FIXTURE, NAMES, arrange, at, cards_in_play, cell,
                                          code, connected, edition, fixture_game, hands, hold,
                                          mark, new_game, others_mark, refused, reveal, turn)

# The live referee's modules (the engine of the game, one module per move family).
LIVE_MODULES = tuple(importlib.import_module(f"companion.rules.pyramids.{name}") for name in (
    "state", "setup", "deal", "reveal", "marking", "turns", "replacement", "phones", "referee",
    "result"))
PLAYOUTS = int(os.environ.get("PYRAMIDS_PLAYOUTS", "30"))


# --------------------------------------------------------------------------------------------
# Invariants
# --------------------------------------------------------------------------------------------


def check_invariants(state: dict[str, Any]) -> None:
    """What must hold after every move."""
    assert cards_in_play(state) == list(range(1, t.CARD_COUNT + 1))     # every card once
    assert len(state["offer"]) <= t.OFFER_SIZE
    assert state["deck"] == sorted(state["deck"])
    for colour in t.COLOURS:
        claimed = state["race"][colour]
        assert len(claimed) <= len(t.RACE_BOXES)
        for seat, player in enumerate(state["players"]):
            mine = [t.RACE_BOXES[i] for i, s in enumerate(claimed) if s == seat]
            assert player["race"][colour] == mine
            done = sum(1 for c in player["completed"] if c["colour"] == colour)
            assert len(mine) <= done // 2
    for player in state["players"]:
        assert len(player["open"]) <= t.KEPT
        assert 0 <= player["red"] <= 10 and 0 <= player["green"] <= 10
        assert 0 <= player["skulls"] <= 10
        assert not any(player["torches"][state["round"]:])              # no later box
        assert all(c["colour"] in t.COLOURS for c in player["completed"])
        for card in player["open"]:
            grid = card_grid(state, card["number"])
            if "cells" in card:
                cells = card["cells"]
                assert len(set(cells)) == len(cells)
                assert all(grid[c] not in "#B" for c in cells)          # a tomb completes
                assert not cells or (entrance(grid) in cells and connected(set(cells)))
            else:
                codes = card["codes"]
                assert grid is None and "B" not in codes and "#" not in codes
                assert not codes or codes.count("E") == 1
    waiting = PYRAMIDS.awaiting(state)
    if PYRAMIDS.is_over(state):
        assert not waiting.seats
    else:
        assert waiting.seats
        for seat in waiting.seats:
            assert PYRAMIDS.legal_moves(state, seat)
    if state["phase"] == Phase.MARK:
        assert state["shape"] and waiting.step == f"r{state['round']}t{state['turn']}:mark"
    assert json.loads(json.dumps(state)) == state


# --------------------------------------------------------------------------------------------
# 1. Ruleset and set-up
# --------------------------------------------------------------------------------------------


def test_ruleset_declares_the_protocol():
    assert isinstance(PYRAMIDS, base.Ruleset)
    assert base.get_ruleset("pyramids") is PYRAMIDS
    catalogue = PYRAMIDS.catalogue
    assert catalogue.live_player_counts == catalogue.player_counts == (2, 3, 4)
    assert base.Capability.LIVE in catalogue.capabilities
    assert "silver_gold_pyramids" in catalogue.aliases
    assert catalogue.bgg_id is None and catalogue.bgg_source
    assert normalise_options(PYRAMIDS, {}) == {"cards": "ours", "skulls_before_potion": True}
    assert PYRAMIDS.out_of_turn_codes == {"pyramids.not_your_turn", "pyramids.already_marked",
                                          "pyramids.already_kept"}
    assert [v.key for v in PYRAMIDS.edition] == ["skull_penalties", "expedition_deck",
                                                 "card_layouts"]


def test_engine_is_pure():
    for module in LIVE_MODULES:
        tree = ast.parse(inspect.getsource(module))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import)
                     for a in n.names}
        assert not {m for m in imported if m and m.split(".")[0] in {
            "random", "time", "os", "flask", "datetime"}}, module.__name__


@pytest.mark.parametrize("players", [2, 3, 4])
def test_default_setup_is_a_valid_deterministic_deal(players):
    table = PYRAMIDS.default_setup(players)
    assert table == PYRAMIDS.default_setup(players)
    clean, violations = base.check_document(PYRAMIDS.setup_schema(players), table)
    assert violations == []
    state = PYRAMIDS.setup(normalise_options(PYRAMIDS, {}), NAMES[:players], table, edition())
    check_invariants(state)
    assert len(state["deck"]) == {2: 40, 3: 38, 4: 36}[players]          # spec §3 table
    assert [len(p["open"]) for p in state["players"]] == [2] * players
    assert state["phase"] == "reveal" and (state["round"], state["turn"]) == (1, 1)


def test_returned_cards_go_back_to_the_deck_and_may_show_in_the_offer():
    table = {"hands": [{"dealt": [1, 2, 3, 4], "kept": [1, 3]},
                       {"dealt": [5, 6, 7, 8], "kept": [6, 8]}],
             "offer": [2, 9, 10, 11]}
    state = PYRAMIDS.setup({}, NAMES[:2], table, edition())
    assert state["offer"] == [2, 9, 10, 11]
    assert {4, 5, 7} <= set(state["deck"]) and 2 not in state["deck"]
    assert state["players"][0]["dealt"] == [1, 2, 3, 4]
    check_invariants(state)


@pytest.mark.parametrize("names, table, options, code_, field", [
    (NAMES[:1], hands(1), {}, "pyramids.bad_player_count", "players"),
    (NAMES + ["Eve"], hands(4), {}, "pyramids.bad_player_count", "players"),
    (NAMES[:2], {"hands": [{"kept": [1, 2]}, {"kept": [2, 3]}], "offer": [5, 6, 7, 8]}, {},
     "pyramids.duplicate_card", "hands.1.kept.0"),
    (NAMES[:2], {"hands": [{"kept": [1, 1]}, {"kept": [2, 3]}], "offer": [5, 6, 7, 8]}, {},
     "pyramids.duplicate_card", "hands.0.kept.1"),
    (NAMES[:2], {"hands": [{"kept": [1, 2]}, {"kept": [3, 4]}], "offer": [5, 6, 7, 2]}, {},
     "pyramids.duplicate_card", "offer.3"),
    (NAMES[:2], {"hands": [{"dealt": [1, 2, 3, 4], "kept": [1, 9]}, {"kept": [5, 6]}],
                 "offer": [7, 8, 10, 11]}, {}, "pyramids.kept_not_dealt", "hands.0.kept.1"),
    (NAMES[:2], {"hands": [{"dealt": [1, 2, 3], "kept": [1, 2]}, {"kept": [5, 6]}],
                 "offer": [7, 8, 10, 11]}, {}, "pyramids.dealt_count", "hands.0.dealt"),
    (NAMES[:2], {"hands": [{"dealt": [1, 2, 3, 4], "kept": [1, 2]},
                           {"dealt": [5, 6, 7, 4], "kept": [5, 6]}],
                 "offer": [8, 9, 10, 11]}, {}, "pyramids.duplicate_card", "hands.1.dealt.3"),
    (NAMES[:2], {"hands": [{"kept": [1, 2]}, {"kept": [3, 4]}]}, {}, "pyramids.deal_needed",
     "offer"),
    (NAMES[:2], {"dealer": "table", "offer": [5, 6, 7, 8]}, {}, "pyramids.deal_needed",
     "hands"),
    (NAMES[:2], {"dealer": "shop"}, {}, "schema.not_a_choice", "dealer"),
    (NAMES[:2], {"hands": [{"kept": [1, 2]}], "offer": [5, 6, 7, 8]}, {},
     "schema.list_length", "hands"),
    (NAMES[:2], {"hands": [{"kept": [1, 2]}, {"kept": [3, 49]}], "offer": [5, 6, 7, 8]}, {},
     "schema.not_a_choice", "hands.1.kept.1"),
    (NAMES[:2], hands(2), {"cards": "mine"}, "pyramids.bad_option", "options.cards"),
])
def test_setup_refusals(names, table, options, code_, field):
    with pytest.raises(RuleViolation) as caught:
        PYRAMIDS.setup(options, names, table, edition())
    assert (caught.value.code, caught.value.field) == (code_, field)
    assert caught.value.render()


def test_our_cards_ignore_the_groups_published_values():
    state = new_game(2, "ours", skull_penalties=[0] * 10, expedition_deck=["I2"] * 3 + [
        "I3", "L3", "I4", "L4", "O4"])
    assert state["penalties"] == list(ours.SKULL_PENALTIES)
    assert state["expedition"] == list(ours.EXPEDITION_DECK)
    assert state["grids"] is None and not state["penalties_assumed"]


def test_published_cards_take_the_groups_values():
    deck = ["I2", "I2", "I3", "I3", "L3", "I4", "L4", "T4"]
    state = new_game(2, "published", skull_penalties=[0, 1, 1, 2, 3, 5, 8, 13, 21, 34],
                     expedition_deck=deck,
                     card_layouts=[{"number": 1, "colour": "green", "grid": list(FIXTURE)},
                                   {"number": 2, "colour": "orange"}])
    assert state["penalties"][-1] == 34 and not state["penalties_assumed"]
    assert state["expedition"] == deck
    assert state["players"][0]["open"] == [{"number": 1, "cells": []},
                                           {"number": 2, "codes": []}]
    assert card_colour(state, 2) == "orange" and card_grid(state, 2) is None


# --------------------------------------------------------------------------------------------
# 2. Turn structure
# --------------------------------------------------------------------------------------------


def test_any_seat_reveals_and_everybody_marks_at_once():
    state = new_game(3)
    waiting = PYRAMIDS.awaiting(state)
    assert waiting.seats == {0, 1, 2} and waiting.step is None
    chance = PYRAMIDS.chance(state)
    assert chance.key == "shape" and chance.seats == {0, 1, 2}
    assert dict(chance.outcomes) == {"I2": 1, "I3": 2, "L3": 2, "I4": 1, "L4": 1, "O4": 1}
    state = reveal(state, "L3", seat=2)
    waiting = PYRAMIDS.awaiting(state)
    assert waiting.seats == {0, 1, 2} and waiting.step == "r1t1:mark"
    state = PYRAMIDS.apply(state, 1, PYRAMIDS.legal_moves(state, 1)[0])
    assert PYRAMIDS.awaiting(state) == base.Awaiting(frozenset({0, 2}), "r1t1:mark")
    assert PYRAMIDS.prompts(state, 1) == {"moves": [], "still_marking": [0, 2]}
    refused(state, 1, PYRAMIDS.legal_moves(state, 0)[0], "pyramids.already_marked")
    state = others_mark(state)
    assert state["phase"] == "reveal" and state["turn"] == 2


def test_seven_of_eight_cards_per_round_then_a_fresh_deck():
    state = new_game(2)
    for shape in ("I3", "I3", "L3", "L3", "I2", "I4", "L4"):
        state = turn(state, shape, {})
    assert (state["round"], state["turn"]) == (2, 1) and state["revealed"] == []
    assert dict(PYRAMIDS.chance(state).outcomes)["I3"] == 2


def test_a_card_cannot_come_up_more_often_than_the_deck_holds():
    state = turn(turn(new_game(2), "I3", {}), "I3", {})
    assert "I3" not in expedition_left(state)
    refused(state, 0, {"type": "reveal", "shape": "I3"}, "pyramids.shape_not_in_deck",
            "move.shape")
    refused(state, 0, {"type": "reveal", "shape": "T4"}, "pyramids.shape_not_in_deck")


def test_unconfirmed_published_deck_offers_the_palette_without_repeat_check():
    state = new_game(2, "published")
    assert state["expedition"] is None
    for _ in range(3):
        state = turn(state, "T4", {})
    assert dict(PYRAMIDS.chance(state).outcomes) == {code_: 1 for code_ in t.SHAPES}


def test_confirmed_published_deck_is_checked():
    deck = ["I2", "I2", "I3", "I3", "L3", "I4", "L4", "T4"]
    state = turn(new_game(2, "published", expedition_deck=deck), "T4", {})
    refused(state, 1, {"type": "reveal", "shape": "T4"}, "pyramids.shape_not_in_deck")


def test_the_game_ends_after_four_rounds_of_seven_turns():
    state = new_game(2)
    shapes = ["I2", "I3", "I3", "L3", "L3", "I4", "L4"]
    turns = 0
    while not PYRAMIDS.is_over(state):
        if state["phase"] == "reveal":
            state = reveal(state, shapes[state["turn"] - 1])
            turns += 1
        else:
            seat = min(PYRAMIDS.awaiting(state).seats)
            state = PYRAMIDS.apply(state, seat, PYRAMIDS.legal_moves(state, seat)[0])
        check_invariants(state)
    assert turns == 28 and state["round"] == 4 and state["turn"] == 7
    assert PYRAMIDS.score(state).complete
    refused(state, 0, {"type": "reveal", "shape": "I2"}, "pyramids.game_over")
    assert PYRAMIDS.legal_moves(state, 0) == [] and PYRAMIDS.prompts(state, 0) == {"moves": []}
    assert PYRAMIDS.chance(state) is None


def test_no_replacements_after_the_last_turn():
    state = hold(new_game(2, "published"), 0, [(1, PATH), (2, PATH)])
    state = arrange(state, round=4, turn=7)
    state = turn(state, "I2", {0: mark(code(1, "B"), completed=[{"number": 1,
                                                                 "colour": "green"}])})
    assert PYRAMIDS.is_over(state) and state["players"][0]["completed"][0]["number"] == 1


def test_marks_of_one_step_commute():
    state = hold(new_game(3, "published"), 0, [(1, PATH), (2, [])])
    state = reveal(state, "I2")
    moves = {0: mark(code(1, "B"), completed=[{"number": 1, "colour": "green"}]),
             1: mark(code(3, "E"), code(3, "S")),
             2: mark(code(5, "E"), code(5, "P"))}
    results = []
    for order in permutations(moves):
        after = state
        for seat in order:
            PYRAMIDS.validate(after, seat, moves[seat])
            after = PYRAMIDS.apply(after, seat, moves[seat])
        results.append(after)
    assert all(result == results[0] for result in results)


def test_a_seat_without_cards_is_not_awaited():
    state = hold(new_game(2), 1, [])
    state = reveal(state, "I2")
    assert PYRAMIDS.awaiting(state).seats == {0}
    assert PYRAMIDS.legal_moves(state, 1) == []
    nobody = hold(hold(new_game(2), 0, []), 1, [])
    after = reveal(nobody, "I2")
    assert after["phase"] == "reveal" and after["turn"] == 2     # the turn closed at once


def test_a_player_without_a_replacement_goes_on_with_fewer_cards():
    """§14 #11: offer and deck both empty."""
    state = hold(new_game(2, "published"), 0, [(1, PATH), (2, PATH)])
    state = arrange(state, deck=[], offer=[])
    state = turn(state, "I2", {0: mark(code(1, "B"), completed=[{"number": 1,
                                                                 "colour": "purple"}])})
    assert state["phase"] == "reveal" and len(state["players"][0]["open"]) == 1


def test_score_during_play_is_not_complete_and_counts_what_is_ticked():
    state = arrange(new_game(2), 0, red=3, green=2, torches=[True, False, False, False])
    sheet = PYRAMIDS.score(state)
    assert not sheet.complete
    assert sheet.players[0].total == 10 + 1 + 5       # 2 pairs, 1 single gem, a torch


# --------------------------------------------------------------------------------------------
# 3. Refusals (each leaves the state as it was)
# --------------------------------------------------------------------------------------------


def ours_at_mark(shape: str = "I3") -> dict[str, Any]:
    """Our cards, seat 0 holds cards 1 and 2 (fresh), step 2 of turn 1."""
    return reveal(new_game(2), shape)


def entrance_of(number: int) -> tuple[int, int]:
    return position(entrance(ours.CARDS[number - 1].flat))


@pytest.mark.parametrize("move, code_, field", [
    ("nothing", "pyramids.bad_move", "move.type"),
    ({"type": 3}, "pyramids.bad_move", "move.type"),
    ({"type": "fly"}, "pyramids.unknown_move", "move.type"),
    ({"type": "mark"}, "pyramids.bad_move", "move.cells"),
    ({"type": "mark", "cells": []}, "pyramids.bad_move", "move.cells"),
    ({"type": "mark", "cells": [5]}, "pyramids.bad_move", "move.cells.0"),
    ({"type": "mark", "cells": [{"card": 60, "row": 0, "col": 0}]}, "pyramids.bad_move",
     "move.cells.0.card"),
    ({"type": "mark", "cells": [{"card": 1, "row": "0", "col": 0}]}, "pyramids.bad_move",
     "move.cells.0.row"),
    ({"type": "mark", "cells": [{"card": 1, "row": 0}]}, "pyramids.bad_move",
     "move.cells.0.col"),
    ({"type": "mark", "cells": [{"card": 1, "code": "Q"}]}, "pyramids.bad_move",
     "move.cells.0.code"),
    ({"type": "mark", "cells": [{"card": 1, "row": 0, "col": 0}], "extra": {}},
     "pyramids.bad_move", "move.extra"),
    ({"type": "mark", "cells": [{"card": 1, "row": 0, "col": 0}], "potion_first": 1},
     "pyramids.bad_move", "move.potion_first"),
    ({"type": "mark", "cells": [{"card": 1, "row": 0, "col": 0}], "torch": True},
     "pyramids.bad_move", "move.torch"),
    ({"type": "mark", "cells": [{"card": 1, "row": 0, "col": 0}], "race": ["red"]},
     "pyramids.bad_move", "move.race.0"),
    ({"type": "mark", "cells": [{"card": 1, "row": 0, "col": 0}], "completed": [{}]},
     "pyramids.bad_move", "move.completed.0.number"),
    ({"type": "mark", "cells": [{"card": 1, "row": 0, "col": 0}],
      "completed": [{"number": 1, "colour": "red"}]}, "pyramids.bad_move",
     "move.completed.0.colour"),
    ({"type": "reveal", "shape": "I3"}, "pyramids.wrong_phase", None),
    ({"type": "take", "source": "offer", "card": 5}, "pyramids.wrong_phase", None),
])
def test_malformed_and_misplaced_moves(move, code_, field):
    refused(ours_at_mark(), 0, move, code_, field)


@pytest.mark.parametrize("move", [
    {"type": "reveal"}, {"type": "reveal", "shape": "Z5"},
    {"type": "take", "source": "pile", "card": 5}, {"type": "take", "source": "offer"},
    {"type": "refill", "cards": "all"},
])
def test_malformed_moves_of_other_steps(move):
    refused(new_game(2), 0, move, "pyramids.bad_move")


def test_not_your_turn_in_a_sequential_step():
    state = hold(new_game(2, "published"), 0, [(1, PATH), (2, PATH)])
    state = turn(state, "I2", {0: mark(code(1, "B"), completed=[{"number": 1,
                                                                 "colour": "green"}])})
    refused(state, 1, {"type": "take", "source": "offer", "card": 5},
            "pyramids.not_your_turn")
    refused(state, 7, {"type": "take", "source": "offer", "card": 5},
            "pyramids.not_your_turn")


def test_sgp_codes_on_our_cards():
    state = ours_at_mark("I3")
    r, c = entrance_of(1)
    refused(state, 0, mark(cell(3, 0, 0)), "pyramids.not_your_card", "move.cells.0.card")
    below = next(n for n in NEIGHBOURS[entrance(ours.CARDS[0].flat)]
                 if ours.CARDS[0].flat[n] != "#")
    refused(state, 0, mark(cell(1, r, c), cell(1, *position(below))), "SGP_NOT_SHAPE",
            "move.cells")                                      # 2 cells of a 3-cell pattern
    refused(state, 0, mark(cell(1, r, c), cell(1, 1, 0), cell(2, 1, 1)), "SGP_SPLIT",
            "move.cells")
    refused(state, 0, mark(cell(1, 0, 0), cell(1, 1, 1), cell(1, 2, 2)), "SGP_NOT_SHAPE",
            "move.cells")                                      # diagonal: not I3
    refused(state, 0, mark(cell(1, r, c), cell(1, r, c), cell(1, r, c)), "SGP_NOT_SHAPE")
    refused(state, 0, mark(cell(1, -1, c)), "SGP_OUT_OF_GRID", "move.cells.0")
    wall = next(i for i, x in enumerate(ours.CARDS[0].flat) if x == "#")
    refused(state, 0, mark(cell(1, *position(wall))), "SGP_WALL", "move.cells.0")
    floor = next(i for i, x in enumerate(ours.CARDS[0].flat) if x not in "#E")
    refused(state, 0, mark(cell(1, *position(floor))), "SGP_NO_ENTRANCE", "move.cells")
    refused(state, 0, {"type": "pass"}, "SGP_NO_MOVE", "move.type")
    refused(state, 0, mark(cell(1, r, c), extra=[cell(1, r, c)]), "pyramids.extra_not_due",
            "move.extra.0")
    refused(state, 0, mark(cell(1, r, c), torch=1), "pyramids.no_torch", "move.torch")
    refused(state, 0, mark(cell(1, r, c), completed=[{"number": 1, "colour": "purple"}]),
            "pyramids.completed_mismatch", "move.completed")
    refused(state, 0, mark({"card": 1, "code": "E"}), "pyramids.position_needed",
            "move.cells.0")


def test_already_marked_and_not_connected_on_our_cards():
    state = ours_at_mark("I2")
    r, c = entrance_of(1)
    state = others_mark(PYRAMIDS.apply(state, 0, mark(cell(1, r, c))))
    state = reveal(state, "I3")                  # our deck has one I2
    refused(state, 0, mark(cell(1, r, c)), "SGP_ALREADY_MARKED", "move.cells.0")
    far = next(i for i, x in enumerate(ours.CARDS[0].flat)
               if x != "#" and i != entrance(ours.CARDS[0].flat)
               and all(n != entrance(ours.CARDS[0].flat) for n in NEIGHBOURS[i]))
    refused(state, 0, mark(cell(1, *position(far))), "SGP_NOT_CONNECTED", "move.cells")


def test_torch_round_and_colour_codes_in_record_mode():
    state = hold(new_game(2, "published", card_layouts=[{"number": 1, "colour": "green"}]),
                 0, [(1, PATH), (2, PATH)])
    state = arrange(state, round=2)
    state = reveal(state, "I2")
    refused(state, 0, mark(code(1, "T"), code(1, "."), torch=1), "SGP_TORCH_ROUND",
            "move.torch")
    refused(state, 0, mark(code(1, "B"), completed=[{"number": 1, "colour": "orange"}]),
            "pyramids.wrong_colour", "move.completed.0.colour")
    refused(state, 0, mark(code(2, "B")), "pyramids.colour_needed", "move.completed")
    refused(state, 0, mark(code(2, "B"), completed=[{"number": 1, "colour": "green"}]),
            "pyramids.completed_mismatch", "move.completed")
    full = hold(state, 1, [(3, [])], [(n, "purple") for n in range(30, 46)])
    refused(full, 0, mark(code(2, "B"), completed=[{"number": 2, "colour": "purple"}]),
            "pyramids.too_many_of_colour", "move.completed.0.colour")
    after = PYRAMIDS.apply(full, 0, mark(code(2, "B"),
                                         completed=[{"number": 2, "colour": "green"}]))
    assert after["players"][0]["completed"] == [{"number": 2, "colour": "green"}]


def test_record_mode_checks_what_needs_no_layout():
    state = reveal(new_game(2, "published"), "I3")
    refused(state, 0, mark(code(1, "."), code(1, "."), code(1, ".")), "SGP_NO_ENTRANCE",
            "move.cells")
    refused(state, 0, mark(code(1, "E"), code(1, "#"), code(1, ".")), "SGP_WALL",
            "move.cells.1")
    refused(state, 0, mark(code(1, "E"), code(1, "E"), code(1, ".")), "SGP_ALREADY_MARKED",
            "move.cells.1")
    refused(state, 0, mark(code(1, "E"), code(1, ".")), "SGP_NOT_SHAPE", "move.cells")
    refused(state, 0, mark(cell(1, 0, 2)), "pyramids.code_needed", "move.cells.0")
    refused(state, 0, mark(code(1, "E"), code(1, "X"), code(1, "."),
                           extra=[code(2, ".")]), "SGP_NO_ENTRANCE", "move.extra.0")
    opened = hold(state, 0, [(1, ["E"] + ["."] * 22), (2, [])])
    refused(opened, 0, mark(code(1, "E")), "SGP_ALREADY_MARKED", "move.cells.0")
    refused(opened, 0, mark(code(1, "."), code(1, "."), code(1, ".")), "SGP_ALREADY_MARKED",
            "move.cells")                                        # more than 25 chambers
    assert PYRAMIDS.apply(opened, 0, mark(code(1, "S")))["players"][0]["skulls"] == 1
    done = PYRAMIDS.apply(opened, 0, mark(code(1, "B"), completed=[{"number": 1,
                                                             "colour": "orange"}]))
    assert done["players"][0]["just"] == [1]
    twice = hold(state, 0, [(1, ["E", "B"]), (2, [])])
    refused(twice, 0, mark(code(1, "B")), "SGP_ALREADY_MARKED", "move.cells.0")


def test_record_mode_trusts_a_lapsed_red_cross_and_a_pass():
    state = reveal(new_game(2, "published"), "I2")
    after = PYRAMIDS.apply(state, 0, mark(code(1, "E"), code(1, "X")))     # no extra: trusted
    assert after["players"][0]["open"][0]["codes"] == ["E", "X"]
    assert pass_allowed(state, 0)
    after = PYRAMIDS.apply(state, 0, {"type": "pass"})
    assert after["marked"][0]


def test_cross_pending_only_when_a_cell_is_free():
    state = fixture_game()
    state = reveal(state, "O4")
    square = at(1, (0, 2), (0, 3), (1, 2), (1, 3))
    refused(state, 0, mark(*square), "SGP_CROSS_PENDING", "move.extra")
    # a chain: the extra mark on card 2's entrance... and another red cross asks again
    chain = hold(state, 0, [(1, []), (2, [(0, 2), (0, 3)])])
    refused(chain, 0, mark(*square, extra=[cell(2, 1, 3)]), "SGP_CROSS_PENDING",
            "move.extra")
    after = PYRAMIDS.apply(chain, 0, mark(*square, extra=[cell(2, 1, 3), cell(2, 1, 4)]))
    assert sorted(after["players"][0]["open"][1]["cells"]) == [2, 3, 8, 9]


CORRIDOR = ["##E##",
            "##.##",
            "##.##",
            "##.X#",
            "##B##"]


def test_red_cross_obligation_lapses_when_no_cell_is_free():
    """§14 #5: the last marking of a one-card player covers the tomb and a red cross; no
    chamber is left for the extra mark, so none is due."""
    state = new_game(2, "published", card_layouts=[
        {"number": 1, "colour": "purple", "grid": CORRIDOR}])
    state = hold(state, 0, [(1, [(0, 2), (1, 2), (2, 2)])])
    state = reveal(state, "L3")
    after = PYRAMIDS.apply(state, 0, mark(*at(1, (3, 2), (3, 3), (4, 2))))
    assert after["players"][0]["completed"] == [{"number": 1, "colour": "purple"}]
    with_other_card = hold(state, 0, [(1, [(0, 2), (1, 2), (2, 2)]), (2, ["E"])])
    after = PYRAMIDS.apply(with_other_card, 0, mark(*at(1, (3, 2), (3, 3), (4, 2))))
    assert after["players"][0]["just"] == [1]          # the other card is in record mode


def test_extra_mark_on_a_card_completed_in_the_same_move():
    """§14 #7: the completed card leaves only in step 3, so a red-cross extra may go on it."""
    state = hold(new_game(2, "published"), 0, [(1, PATH), (2, [])])
    state = reveal(state, "I2")
    after = PYRAMIDS.apply(state, 0, mark(code(1, "X"), code(1, "B"), extra=[code(1, "G")],
                                   completed=[{"number": 1, "colour": "orange"}]))
    player = after["players"][0]
    assert player["green"] == 1 and player["completed"] == [{"number": 1, "colour": "orange"}]
    layout = new_game(2, "published", card_layouts=[{"number": 1, "colour": "green",
                                                     "grid": ["#.E.#", "..#..", "..#..",
                                                              "..X..", "#.B.#"]}])
    layout = hold(layout, 0, [(1, [(0, 2), (0, 1), (1, 1), (2, 1), (3, 1)]), (2, [])])
    layout = reveal(layout, "I2")
    after = PYRAMIDS.apply(layout, 0, mark(*at(1, (3, 2), (4, 2)), extra=[cell(1, 4, 1)]))
    assert after["players"][0]["completed"] == [{"number": 1, "colour": "green"}]
    refused(layout, 0, mark(*at(1, (3, 2), (4, 2))), "SGP_CROSS_PENDING", "move.extra")


def test_take_and_refill_refusals():
    state = hold(new_game(2, "published"), 0, [(1, PATH), (2, PATH)])
    state = turn(state, "I2", {0: mark(code(1, "B"), completed=[{"number": 1,
                                                                 "colour": "green"}])})
    refused(state, 0, {"type": "take", "source": "offer", "card": 30}, "pyramids.not_in_offer",
            "move.card")
    refused(state, 0, {"type": "take", "source": "deck", "card": 5}, "pyramids.not_in_deck",
            "move.card")
    refused(state, 0, {"type": "take", "source": "deck", "card": 2}, "pyramids.not_in_deck")
    state = PYRAMIDS.apply(state, 0, {"type": "take", "source": "offer", "card": 5})
    refused(state, 0, {"type": "refill", "cards": [30, 31]}, "pyramids.refill_count",
            "move.cards")
    refused(state, 0, {"type": "refill", "cards": [6]}, "pyramids.not_in_deck", "move.cards.0")
    refused(state, 0, {"type": "refill", "cards": []}, "pyramids.refill_count")


def test_every_error_code_is_tested():
    source = "\n".join(inspect.getsource(m) for m in LIVE_MODULES)
    raised = set(re.findall(r'RuleViolation\(\s*"([A-Za-z_.]+)"', source))
    raised |= {f"SGP_{name}" for name in ("NOT_SHAPE", "OUT_OF_GRID", "WALL", "ALREADY_MARKED",
                                          "NO_ENTRANCE", "NOT_CONNECTED")}
    raised |= {"pyramids.bad_move", "pyramids.unknown_move", "pyramids.not_your_turn",
               "pyramids.wrong_phase", "pyramids.game_over"}
    here = inspect.getsource(inspect.getmodule(test_every_error_code_is_tested)).replace(
        inspect.getsource(test_every_error_code_is_tested), "")
    examples = "".join(open(os.path.join(os.path.dirname(__file__), name),
                            encoding="utf-8").read()
                       for name in ("test_pyramids_examples.py", "test_pyramids_phones.py"))
    missing = sorted(code_ for code_ in raised if f'"{code_}"' not in here + examples)
    assert missing == []
    spec_codes = {"SGP_NOT_SHAPE", "SGP_SPLIT", "SGP_OUT_OF_GRID", "SGP_WALL",
                  "SGP_ALREADY_MARKED", "SGP_NO_ENTRANCE", "SGP_NOT_CONNECTED", "SGP_NO_MOVE",
                  "SGP_CROSS_PENDING", "SGP_TORCH_ROUND", "SGP_RACE"}        # spec §5.5
    assert spec_codes <= raised


# --------------------------------------------------------------------------------------------
# 4. Record mode, mixed games, what phones are offered
# --------------------------------------------------------------------------------------------


def test_mixed_game_extra_mark_from_a_layout_card_to_a_record_card():
    state = new_game(2, "published", card_layouts=[
        {"number": 1, "colour": "purple", "grid": list(FIXTURE)}])
    assert state["players"][0]["open"] == [{"number": 1, "cells": []}, {"number": 2,
                                                                         "codes": []}]
    state = reveal(state, "O4")
    square = at(1, (0, 2), (0, 3), (1, 2), (1, 3))
    refused(state, 0, mark(*square, extra=[code(2, "R")]), "SGP_NO_ENTRANCE", "move.extra.0")
    after = PYRAMIDS.apply(state, 0, mark(*square, extra=[code(2, "E")]))
    assert after["players"][0]["open"][1]["codes"] == ["E"]


def test_prompts_show_the_cards_and_the_cells_a_mark_may_take():
    state = fixture_game()
    state = reveal(state, "O4")
    prompt = PYRAMIDS.prompts(state, 0)
    assert prompt["moves"] == ["mark"] and prompt["shape"] == "O4" and prompt["size"] == 4
    assert prompt["step"] == "r1t1:mark" and prompt["still_marking"] == [0, 1]
    first = prompt["cards"][0]
    assert first["grid"] == list(FIXTURE) and first["marked"] == []
    assert first["singles"] == [[0, 2]] and first["pattern_fits"]
    record = PYRAMIDS.prompts(reveal(new_game(2, "published"), "I2"), 0)
    assert record["moves"] == ["mark", "pass"] and record["cards"][0]["record"]


def test_prompts_of_the_other_steps():
    state = new_game(2)
    assert PYRAMIDS.prompts(state, 1)["moves"] == ["reveal"]
    state = hold(new_game(2, "published"), 0, [(1, PATH), (2, PATH)])
    state = turn(state, "I2", {0: mark(code(1, "B"), completed=[{"number": 1,
                                                                 "colour": "green"}])})
    assert PYRAMIDS.prompts(state, 0) == {"moves": ["take"], "offer": [5, 6, 7, 8], "deck": 40,
                                   "left": 1, "draw": True}
    assert PYRAMIDS.prompts(state, 1) == {"moves": []}
    chance = PYRAMIDS.chance(state)
    assert chance.move == {"type": "take", "source": "deck"} and chance.seats == {0}
    drawn = chance.draw(random.Random(3))
    assert drawn["card"] in state["deck"]
    state = PYRAMIDS.apply(state, 0, drawn)
    assert state["phase"] == "reveal" and state["offer"] == [5, 6, 7, 8]   # still full
    assert PYRAMIDS.chance(state).key == "shape"


def test_legal_moves_are_legal_and_cover_every_placement():
    state = fixture_game()
    state = reveal(state, "L3")
    moves = PYRAMIDS.legal_moves(state, 0)
    for move in moves:
        PYRAMIDS.validate(state, 0, move)
    grid = "".join(FIXTURE)
    patterns = [m for m in moves if len(m["cells"]) == 3]
    assert len(patterns) == 2 * len(legal_placements(grid, [], "L3"))      # two fresh cards
    assert all("extra" in m for m in moves if any(
        grid[c["row"] * 5 + c["col"]] == "X" for c in m["cells"]))
    assert {"type": "pass"} not in moves


def test_view_hides_the_deck_and_the_cards_others_were_dealt():
    table = {"hands": [{"dealt": [1, 2, 3, 4], "kept": [1, 2]},
                       {"dealt": [5, 6, 7, 8], "kept": [5, 6]}], "offer": [9, 10, 11, 12]}
    state = PYRAMIDS.setup(normalise_options(PYRAMIDS, {}), NAMES[:2], table, edition())
    shown = PYRAMIDS.view(state, 0, {})
    assert shown["deck"] is None and shown["deck_size"] == 40
    assert shown["players"][0]["dealt"] == [1, 2, 3, 4] and shown["players"][1]["dealt"] is None
    assert state["deck"] and state["players"][1]["dealt"] == [5, 6, 7, 8]
    assert PYRAMIDS.scores_visible(state, {})
    # what lies face up, drawn from our cards: its own cards dealt, open cards, the offer
    assert sorted(map(int, shown["faces"])) == [1, 2, 3, 4, 5, 6, 9, 10, 11, 12]
    assert shown["faces"]["9"] == {"colour": ours.CARDS[8].colour,
                                   "grid": list(ours.CARDS[8].grid)}
    watcher = PYRAMIDS.view(state, None, {})
    assert sorted(map(int, watcher["faces"])) == [1, 2, 5, 6, 9, 10, 11, 12]
    record = PYRAMIDS.view(new_game(2, "published", card_layouts=[
        {"number": 1, "colour": "purple", "grid": list(FIXTURE)},
        {"number": 3, "colour": "green"}]), 1, {})
    assert record["faces"]["1"] == {"colour": "purple", "grid": list(FIXTURE)}
    assert record["faces"]["3"] == {"colour": "green", "grid": None}
    assert record["faces"]["2"] == {"colour": None, "grid": None}


def test_published_default_penalties_are_an_assumption():
    state = arrange(new_game(2, "published"), 0, skulls=2)
    sheet = PYRAMIDS.score(state)
    assert [a.key for a in sheet.assumed] == ["skull_penalties"]
    scored = score_final(PYRAMIDS.final_document(state))         # (a finished game's document)
    assert (scored.players, scored.assumed) == (sheet.players, sheet.assumed)
    assert PYRAMIDS.score(arrange(new_game(2, "ours"), 0, skulls=2)).assumed == ()
    entered = arrange(new_game(2, "published", skull_penalties=list(range(10))), 0, skulls=2)
    assert PYRAMIDS.score(entered).assumed == ()
    assert score_final(PYRAMIDS.final_document(entered)).assumed == ()


# --------------------------------------------------------------------------------------------
# 5. Seeded random simultaneous play-outs
# --------------------------------------------------------------------------------------------

DECK_CONFIRMED = ["I2", "I3", "I3", "L3", "L3", "I4", "L4", "O4"]
KINDS = ("ours", "record", "mixed")


def game_setup(seed: int, kind: str) -> tuple[dict, list[str], dict, Any]:
    """Options, names, a shuffled deal (4 each, keep 2) and the edition for a play-out."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    numbers = rng.sample(range(1, 49), 4 * players + 4)
    table = {"hands": [{"dealt": numbers[4 * s:4 * s + 4],
                        "kept": rng.sample(numbers[4 * s:4 * s + 4], 2)}
                       for s in range(players)],
             "offer": numbers[4 * players:]}
    entries: dict[str, Any] = {}
    if kind == "mixed":            # half the published cards entered (our layouts stand in)
        entries = {"card_layouts": [
            {"number": card.number, "colour": card.colour, "grid": list(card.grid)}
            for card in ours.CARDS if card.number % 2 == seed % 2],
            "expedition_deck": DECK_CONFIRMED, "skull_penalties": [0, 1, 2, 3, 4, 5, 6, 7,
                                                                   8, 9]}
    options = {"cards": "ours" if kind == "ours" else "published",
               "skulls_before_potion": seed % 5 != 0}
    return options, NAMES[:players], table, edition(**entries)


def hidden_move(rng: random.Random, state: dict[str, Any], seat: int,
                hidden: dict[int, set[int]]) -> tuple[dict[str, Any], dict[int, list[int]]]:
    """A physical player's move and the cells it covers: a record card is marked on its true
    layout (our card of the same number stands in for the printed one) and reported by code;
    a card refereed cell by cell by position."""
    player = state["players"][seat]
    grids, marks = {}, {}
    for card in player["open"]:
        number = card["number"]
        grids[number] = card_grid(state, number) or ours.CARDS[number - 1].flat
        marks[number] = set(card["cells"]) if "cells" in card else set(hidden.get(number, ()))
    before = {n: set(m) for n, m in marks.items()}
    options = []
    for number, grid in grids.items():
        options += [(number, list(c)) for c in legal_placements(grid, marks[number],
                                                                state["shape"])]
        options += [(number, [c]) for c in legal_singles(grid, marks[number])]
    if not options:
        return {"type": "pass"}, {}
    number, cells = rng.choice(options)

    def ref(card: int, where: int) -> dict[str, Any]:
        if card_grid(state, card):
            return cell(card, *position(where))
        return code(card, grids[card][where])

    marks[number] |= set(cells)
    planned = {number: list(cells)}
    due = sum(1 for c in cells if grids[number][c] == "X")
    extra = []
    while due:
        free = [(n, c) for n in grids for c in legal_singles(grids[n], marks[n])]
        if not free:
            break                                           # §14 #5: the obligation lapses
        n, c = rng.choice(free)
        marks[n].add(c)
        planned.setdefault(n, []).append(c)
        extra.append(ref(n, c))
        due += (grids[n][c] == "X") - 1
    move: dict[str, Any] = {"type": "mark", "cells": [ref(number, c) for c in cells]}
    if extra:
        move["extra"] = extra
    done = [n for n in grids if grids[n].index("B") in marks[n] - before[n]]
    if any(card_grid(state, n) is None for n in done):
        move["completed"] = [{"number": n, "colour": ours.CARDS[n - 1].colour
                              if card_grid(state, n) is None else card_colour(state, n)}
                             for n in done]
    if any(grids[n][c] == "T" for n in grids for c in marks[n] - before[n]) and (
            rng.random() < 0.5):
        move["torch"] = state["round"]                      # the cross-check, now and then
    if rng.random() < 0.3:
        move["potion_first"] = rng.random() < 0.5
    return move, {n: cs for n, cs in planned.items() if card_grid(state, n) is None}


def track(move: dict[str, Any], planned: dict[int, list[int]] | None,
          hidden: dict[int, set[int]]) -> None:
    """After an accepted mark: the true cells a record card's report covered. A report made
    from legal_moves (plain chambers, an entrance, a tomb) is placed on matching free cells."""
    if planned is not None:
        for number, cells in planned.items():
            hidden.setdefault(number, set()).update(cells)
        return
    for ref in move.get("cells", []) + move.get("extra", []):
        if "code" not in ref:
            continue
        grid = ours.CARDS[ref["card"] - 1].flat
        marks = hidden.setdefault(ref["card"], set())
        free = [c for c in legal_singles(grid, marks) if grid[c] == ref["code"]] if marks else []
        unmarked = [c for c in range(25) if c not in marks]
        exact = [c for c in unmarked if grid[c] == ref["code"]]
        marks.add((free or exact or unmarked)[0])


def random_game(seed: int, kind: str, checks: bool = True, stats: dict | None = None
                ) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    rng = random.Random(seed * 7919 + KINDS.index(kind))
    options, names, table, ed = game_setup(seed, kind)
    state = PYRAMIDS.setup(options, names, table, ed)
    hidden: dict[int, set[int]] = {}
    log: list[tuple[int, dict[str, Any]]] = []
    frozen = []
    while not PYRAMIDS.is_over(state):
        assert len(log) < 2000, "the game does not end"
        waiting = PYRAMIDS.awaiting(state)
        chance = PYRAMIDS.chance(state)
        if state["phase"] == "mark":
            step, plans = [], {}
            for seat in sorted(waiting.seats):
                if rng.random() < 0.8:
                    move, plans[seat] = hidden_move(rng, state, seat, hidden)
                else:
                    move = rng.choice(PYRAMIDS.legal_moves(state, seat))
                step.append((seat, move))
            order = step[:]
            rng.shuffle(order)
            before = state
            for seat, move in order:
                if checks:
                    assert set(PYRAMIDS.prompts(state, seat)["moves"]) >= {move["type"]}
                    PYRAMIDS.validate(before, seat, move)          # legal on the step's first state
                state = PYRAMIDS.apply(state, seat, move)
                log.append((seat, move))
                track(move, plans.get(seat), hidden)
                if checks:
                    check_invariants(state)
            if checks and len(step) > 1:                    # the same step in reverse
                again = before
                for seat, move in reversed(order):
                    again = PYRAMIDS.apply(again, seat, move)
                assert again == state
                frozen.append((before, json.dumps(before, sort_keys=True)))
            if stats is not None:
                for _, move in step:
                    label = "pass" if move["type"] == "pass" else (
                        "extra" if move.get("extra") else "single" if len(move["cells"]) == 1
                        else "pattern")
                    stats[label] = stats.get(label, 0) + 1
            continue
        seat = min(waiting.seats) if state["phase"] != "reveal" else rng.choice(
            sorted(waiting.seats))
        if state["phase"] == "replace":
            moves = PYRAMIDS.legal_moves(state, seat)
            offer = [m for m in moves if m["source"] == "offer"]
            move = rng.choice(offer) if offer and rng.random() < 0.6 else chance.draw(rng)
        else:
            move = chance.draw(rng)
        if stats is not None:
            stats[state["phase"]] = stats.get(state["phase"], 0) + 1
        state = PYRAMIDS.apply(state, seat, move)
        log.append((seat, move))
        if checks:
            check_invariants(state)
    if checks:
        for old, text in frozen:
            assert json.dumps(old, sort_keys=True) == text
    return state, log


def replay(seed: int, kind: str, log: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    options, names, table, ed = game_setup(seed, kind)
    state = PYRAMIDS.setup(options, names, table, ed)
    for seat, move in log:
        state = PYRAMIDS.apply(state, seat, move)
    return state


@pytest.mark.parametrize("kind", KINDS)
def test_random_playouts(kind):
    stats: dict[str, int] = {}
    logs = []
    completed = 0
    for seed in range(PLAYOUTS):
        state, log = random_game(seed, kind, stats=stats)
        assert PYRAMIDS.is_over(state) and (state["round"], state["turn"]) == (4, 7)
        assert replay(seed, kind, log) == state
        sheet = PYRAMIDS.score(state)
        assert sheet.complete
        assert score_final(PYRAMIDS.final_document(state)).as_dict() == sheet.as_dict()
        completed += sum(len(p["completed"]) for p in state["players"])
        logs.append(((seed, kind), log))
    for key in ("reveal", "replace", "refill", "pattern", "single", "extra"):
        assert stats.get(key, 0) > 0, key
    assert completed > PLAYOUTS * 4
    print_replay_speed(f"Pyramids ({kind})", logs, lambda key, log: replay(*key, log))


def test_playouts_cover_every_player_count_and_the_race():
    seen_counts = set()
    claims = 0
    for seed in range(6):
        state, _ = random_game(seed, "ours", checks=False)
        seen_counts.add(len(state["names"]))
        claims += sum(len(v) for v in state["race"].values())
    assert seen_counts == {2, 3, 4} and claims > 0


# --------------------------------------------------------------------------------------------
# 6. Any move either applies cleanly or changes nothing
# --------------------------------------------------------------------------------------------


def sample_positions() -> list[dict[str, Any]]:
    positions = []
    for seed, kind in ((1, "ours"), (2, "record"), (3, "mixed"), (4, "app")):
        rng = random.Random(seed)
        if kind == "app":                  # the app deals: positions of its set-up steps too
            state = PYRAMIDS.setup({}, NAMES[:3], {"dealer": "app"}, edition())
        else:
            options, names, table, ed = game_setup(seed, kind)
            state = PYRAMIDS.setup(options, names, table, ed)
        steps = 0
        while not PYRAMIDS.is_over(state) and steps < 150:
            if steps % 4 == 0 or steps < 5:
                positions.append(state)
            seat = min(PYRAMIDS.awaiting(state).seats)
            chance = PYRAMIDS.chance(state)
            move = chance.draw(rng) if chance and state["phase"] != "replace" else rng.choice(
                PYRAMIDS.legal_moves(state, seat))
            state = PYRAMIDS.apply(state, seat, move)
            steps += 1
    return positions


_INT = st.integers(-1, 6)
_CARD = st.integers(0, 50)
_REF = st.one_of(st.builds(cell, _CARD, _INT, _INT),
                 st.builds(code, _CARD, st.sampled_from(list("..EBXRGTSP#Z"))))
_MOVES = st.one_of(
    st.builds(lambda s: {"type": "reveal", "shape": s}, st.sampled_from(list(t.SHAPES) + [
        "Q1"])),
    st.builds(lambda cells, extra, torch: {"type": "mark", "cells": cells, "extra": extra,
                                           "torch": torch},
              st.lists(_REF, min_size=1, max_size=5), st.lists(_REF, max_size=2),
              st.one_of(st.none(), st.integers(0, 5))),
    st.just({"type": "pass"}),
    st.builds(lambda s, c: {"type": "take", "source": s, "card": c},
              st.sampled_from(["offer", "deck", "x"]), _CARD),
    st.builds(lambda cs: {"type": "refill", "cards": cs}, st.lists(_CARD, max_size=4)),
    st.builds(lambda kind, cs: {"type": kind, "cards": cs},
              st.sampled_from(["deal", "keep", "offer"]), st.lists(_CARD, max_size=16)),
    st.builds(lambda marks: {"type": "mark", "marks": marks}, st.lists(_REF, max_size=7)),
    st.dictionaries(st.sampled_from(["type", "cells", "card"]), st.text(max_size=3)),
)


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(position=st.sampled_from(sample_positions()), seat=st.integers(0, 4), move=_MOVES)
def test_any_move_applies_cleanly_or_changes_nothing(position, seat, move):
    before = copy.deepcopy(position)
    try:
        after = PYRAMIDS.apply(position, seat, move)
    except RuleViolation as refusal:
        assert (refusal.code.startswith("pyramids.") or refusal.code.startswith("SGP_")
                ) and refusal.render()
    else:
        check_invariants(after)
    assert position == before
