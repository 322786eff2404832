"""Valley of the Kings live referee of public events (companion/rules/valley/: the state,
set-up, move families and referee modules) against shared/rules/valley-of-the-kings.md.

1. Opening a table (§3) and the ruleset members the web layer uses.
2. Every refusal code (§13 and the game's own), each asserting that the refused move leaves
   the state untouched.
3. Each clarified action of §8 and the generic action; the turn's end (§5), the end of the
   game (§9), the correction window (§7), chance inputs.
4. Seeded random play-outs of whole simulated games (hidden hands simulated in the test
   only) for 1-6 players and every pool, with invariants after every move, replay of the move
   log, live scoring equal to score-only scoring; and play-outs driven only by
   ``legal_moves`` and ``chance().draw``. ``VALLEY_PLAYOUTS=n`` plays n simulated games
   instead of 120.
"""

from __future__ import annotations

import ast
import copy
import inspect
import importlib
import json
import os
import pkgutil
import random

import pytest

from companion.rules import base, get_ruleset
from companion.rules.base import RuleViolation
import companion.rules.valley
from companion.rules.valley import VALLEY, action, ui
from companion.rules.valley import pyramid as pyr
from companion.rules.valley.final import score_final
from companion.rules.valley.setup import setup
from companion.rules.valley.state import last_seat, refill_count, to_act
from tests.rules.playout import print_replay_speed
from tests.rules.valley_helpers import (FULL, entomb, give, new_game, pay, play, refused)
from tests.rules.valley_sim import NAMES, Sim, edition, random_options

PLAYOUTS = int(os.environ.get("VALLEY_PLAYOUTS", "120"))


# ------------------------------------------------------------------------------------------
# 1. Opening a table
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [m.name for m in pkgutil.iter_modules(
    companion.rules.valley.__path__)])
def test_engine_is_pure(name):
    tree = ast.parse(inspect.getsource(importlib.import_module(f"companion.rules.valley.{name}")))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module and not node.level}
    assert not imported & {"random", "time", "os", "flask", "datetime"}


def test_setup_standard_table():
    state = new_game(3, start=2, boneyard="sphinx")
    assert state["supply"] == 49 and state["phase"] == "play" and state["current"] == 2
    assert state["pyramid"] == FULL and state["boneyard"] == ["sphinx"]
    assert state["located"]["shabti"] == 12 and state["located"]["nut"] == 1
    for player in state["players"]:
        assert (player["cards"], player["hand"], player["deck"], player["discard"]) == (
            10, 5, 5, 0)
    assert last_seat(state) == 1
    assert json.loads(json.dumps(state)) == state


def test_one_player_plays_solo_and_the_level_is_kept():
    assert new_game(1)["solo"] == "beginner"
    assert new_game(1, solo="master")["solo"] == "master"
    assert new_game(2)["solo"] is None


@pytest.mark.parametrize("players, table, options, expected", [
    (0, None, {}, ("valley.bad_player_count", "players")),
    (7, None, {"pool": "six_players"}, ("valley.bad_player_count", "players")),
    (2, None, {"solo": "beginner"}, ("valley.solo_alone", "options.solo")),
    (5, None, {}, ("valley.pool_player_count", "options.pool")),
    (2, None, {"pool": "everything"}, ("valley.bad_option", "options.pool")),
    (2, None, {"dagger_to": "pocket"}, ("valley.bad_option", "options.dagger_to")),
    (2, None, {"ring_lost_on_action": "yes"}, ("valley.bad_option", "options.ring_lost_on_action")),
    (2, {"start_player": 2}, {}, ("valley.bad_start_player", "start_player")),
    (2, {"pyramid": ["?"] * 5}, {}, ("valley.bad_pyramid", "pyramid")),
    (2, {"pyramid": ["?"] * 5 + ["excalibur"]}, {}, ("valley.unknown_title", "pyramid.5")),
    (2, {"pyramid": ["?"] * 5 + ["shabti"]}, {}, ("valley.not_in_pool", "pyramid.5")),
    (2, {"pyramid": ["?"] * 5 + ["book_of_gates"]}, {}, ("valley.not_in_pool", "pyramid.5")),
    (2, {"pyramid": ["axe", "axe", "?", "?", "?", "?"], "boneyard": "axe"}, {},
     ("VK_COPY_LIMIT", "boneyard")),
    (2, {"pyramid": ["?"] * 6, "boneyard": "sphinx"}, {"pool": "half_sets",
                                                         "uniques": "original"},
     ("valley.not_in_pool", "boneyard")),
])
def test_setup_errors(players, table, options, expected):
    table = {"start_player": 0, "pyramid": ["?"] * 6, "boneyard": "?", **(table or {})}
    with pytest.raises(RuleViolation) as raised:
        setup(options, NAMES[:players] if players <= 6 else NAMES + ["G"], table)
    assert (raised.value.code, raised.value.field) == expected


def test_ruleset_live_members():
    ruleset = get_ruleset("valley")
    assert isinstance(ruleset, base.Ruleset) and ruleset is VALLEY
    assert base.Capability.LIVE in ruleset.catalogue.capabilities
    assert ruleset.catalogue.live_player_counts == (1, 2, 3, 4, 5, 6)
    schema = ruleset.setup_schema(3)
    assert [f.key for f in schema.fields] == ["start_player", "pyramid", "boneyard"]
    assert schema.fields[0].seat_choice and schema.fields[0].choices == (0, 1, 2)
    default = ruleset.default_setup(3)
    clean, problems = base.check_document(schema, default)
    assert problems == [] and clean == default
    options = base.normalise_options(ruleset, {"pool": "mix", "set_3": "sarcophagi"})
    state = ruleset.setup(options, NAMES[:3], default, None)
    assert [g["id"] for g in state["pool"]["groups"]][0] == "sarcophagi"
    assert ruleset.awaiting(state) == base.Awaiting.one(0)
    assert ruleset.chance(state) is None and not ruleset.is_over(state)
    assert ruleset.legal_moves(state, 0) and ruleset.legal_moves(state, 1) == []
    assert ruleset.prompts(state, 1) == {"moves": []}
    assert ruleset.scores_visible(state, options)


def _states_of_every_phase():
    """A table in each phase: play, refill, reveal (Brain Hook), brain_hook, over."""
    play_phase = give(new_game(3), 0, "brain_hook", "?")
    refill = play(play_phase, {"type": "end_turn", "sacrifice": {"slot": "T"}})
    reveal = play(play_phase, {"type": "action", "card": "brain_hook"})
    brain_hook = play(reveal, {"type": "reveal", "card": "axe"})
    over = play(end_game_state(3, current=2), {"type": "end_turn", "sacrifice": {"slot": "B1"}})
    return {"play": play_phase, "refill": refill, "reveal": reveal, "brain_hook": brain_hook,
            "over": over}


@pytest.mark.parametrize("phase", ["play", "refill", "reveal", "brain_hook", "over"])
def test_a_seat_that_is_not_awaited_gets_no_moves(phase):
    state = _states_of_every_phase()[phase]
    assert state["phase"] == phase
    awaited = VALLEY.awaiting(state).seats
    assert awaited == (set() if phase == "over" else {0})
    for seat in set(range(3)) - awaited:
        assert VALLEY.prompts(state, seat) == {"moves": []}
        assert VALLEY.legal_moves(state, seat) == []
    for seat in awaited:
        assert VALLEY.prompts(state, seat)["moves"] and VALLEY.legal_moves(state, seat)


def test_view_shows_the_pyramid_as_a_picture_and_only_the_boneyards_top():
    state = play(new_game(2, boneyard="sphinx"), {"type": "end_turn", "sacrifice":
                                                  {"slot": "T"}})
    shown = VALLEY.view(state, 1, state["options"])
    assert shown["boneyard"] is None
    assert (shown["boneyard_top"], shown["boneyard_count"]) == ("brooch", 2)
    assert [[c["slot"] for c in row] for row in shown["pyramid_rows"]] == [
        ["T"], ["M1", "M2"], ["B1", "B2", "B3"]]
    assert shown["tombs"] == [[], []] and shown["supply"] == 49
    solo = VALLEY.view(play(new_game(1, boneyard="sphinx"), {"type": "end_turn", "sacrifice":
                                                              {"slot": "T"}}), 0, {})
    assert solo["boneyard"] == ["sphinx", "brooch"]          # §12.1: inspect at any time


def test_prompts_offer_the_choices_a_phone_needs():
    state = give(new_game(3), 0, "?")            # an unnamed card: it may carry any action
    prompt = VALLEY.prompts(state, 0)
    assert prompt["moves"] == ["buy", "action", "seal", "end_turn"]
    assert [b["slot"] for b in prompt["base"]] == ["B1", "B2", "B3"]
    assert prompt["crumble"] == {"B2": ["M1", "M2"]}
    assert prompt["mirror_case_fall"]["B2"] == {"M1": ["T"], "M2": ["T"]}
    assert prompt["sacrifice_required"] and prompt["free_seal"]
    assert prompt["opponents"] == [1, 2]
    offered = {o["action"] for o in prompt["actions"]}
    assert {"ring", "nut", "khopesh", "senet", "bow", "mirror_case", "brain_hook",
            "generic"} <= offered
    assert "brooch" not in offered and "antechamber" not in offered   # no set card, no discard
    # a player whose cards are all named is offered only the actions of their titles
    assert [o["action"] for o in VALLEY.prompts(give(new_game(3), 0, "ring"), 0)["actions"]] == [
        "ring", "generic"]
    assert [o["action"] for o in VALLEY.prompts(new_game(3), 0)["actions"]] == ["generic"]
    assert prompt["cards"]["unnamed"] == 1 and {"card": "shabti", "count": 4,
                                                "capital": None} in prompt["cards"]["own"]
    assert "nut" in prompt["needs_set"] and "sphinx" in prompt["needs_vp"]
    targets = {o["action"]: o for o in VALLEY.prompts(
        entomb(give(new_game(3), 0, "?", "bow", "brooch"), 0, "axe"), 0)["actions"]}
    assert targets["bow"]["slots"] == ["B3", "M1", "M2", "T"]     # not Sling or Dagger
    assert targets["brooch"]["sacrifice"] == ["axe"]
    assert targets["nut"]["costs"]["M1"] == 4 and targets["nut"]["costs"]["B1"] is None
    assert targets["dagger"]["takes"] is False and targets["offering_chapel"]["seats"] == []
    solo = VALLEY.prompts(new_game(1, solo="master"), 0)
    assert "seal" not in solo["moves"]
    assert not {"nut", "khopesh", "senet"} & {o["action"] for o in solo["actions"]}


@pytest.mark.parametrize("players, distinct", [(2, 2), (1, 1)])    # V9/V10: solo pairs
def test_the_phone_sees_each_tomb_by_scoring_group(players, distinct):
    state = entomb(new_game(players), 0, "axe", "axe", "dagger", "shabti", "sphinx")
    tomb = VALLEY.view(state, 0, {})["tomb_view"][0]
    weapons = next(g for g in tomb["groups"] if g["id"] == "weapons")
    assert weapons["titles"] == [["axe", 2], ["dagger", 1]]
    assert (weapons["distinct"], weapons["points"]) == (distinct, distinct * distinct)
    assert tomb["starters"] == {"shabti": 1, "urn": 0, "box_of_food": 0, "offering_table": 0}
    assert tomb["uniques"] == [["sphinx", None]] and tomb["cards"] == 5
    assert ui.card_colour(state, "axe") == "green" and ui.card_colour(state, "nut") == ""


# ------------------------------------------------------------------------------------------
# 2. Refusals
# ------------------------------------------------------------------------------------------


def test_shared_opening_checks():
    state = new_game(2)
    refused(state, {"type": 5}, "valley.bad_move")
    refused(state, {"type": "pass"}, "valley.unknown_move")
    refused(state, {"type": "end_turn"}, "valley.not_your_turn", seat=1)
    refused(state, {"type": "refill", "cards": []}, "valley.wrong_phase")
    refused(state, {"type": "buy", "slot": "B9", "pay": []}, "valley.bad_move")
    refused(state, {"type": "buy", "slot": "B1", "pay": "spear"}, "valley.bad_move")
    refused(state, {"type": "seal", "card": "excalibur"}, "valley.bad_move", field="move.card")
    over = copy.deepcopy(state)
    over["phase"] = "over"
    refused(over, {"type": "end_turn"}, "valley.game_over")
    refill = play(state, {"type": "end_turn", "sacrifice": {"slot": "T"}})
    refused(refill, {"type": "seal", "card": "shabti"}, "valley.wrong_phase")


# A malformed move of each kind, with the argument named in the player's words: by its
# declaration (the referee parses every move) or by the move family (an argument only one
# action needs, a number that must name a card played this turn).
MALFORMED = [
    ({"type": "buy", "slot": "B9"}, "move.slot",
     "Card bought: Choose one of the values offered."),
    ({"type": "buy", "slot": "B1", "pay": [{"card": "?", "capital": -1}]},
     "move.pay.0.capital", "Payment › Card 1 › Capital printed on it: This must not be negative."),
    ({"type": "buy", "slot": "B1", "pay": [{"card": "?", "colour": "red"}]},
     "move.pay.0.colour", "Payment › Card 1 › colour: Unknown entry “colour”."),
    ({"type": "buy", "slot": "B1", "cost": 1, "pay": [{"played": 3}]}, "move.pay.0.played",
     "Payment › Card 1 › Card played earlier this turn: No card with this number was played "
     "this turn."),
    ({"type": "buy", "slot": "B1", "cost": 1, "pay": [{"capital": 1}]}, "move.pay.0.card",
     "Payment › Card 1 › Card: This is required."),
    ({"type": "action"}, "move.card", "Card played: This is required."),
    ({"type": "action", "card": "excalibur"}, "move.card",
     "Card played: Choose one of the values offered."),
    ({"type": "action", "card": "senet", "opponent": 1,
      "response": {"card": "axe", "reaction": "yes"}}, "move.response.reaction",
     "The opponent's answer › Axe's reaction: This must be true or false."),
    ({"type": "action", "card": "senet", "opponent": 1,
      "response": {"card": "spear", "reaction": True, "discards": []}},
     "move.response.reaction", "The opponent's answer › Axe's reaction: Only Axe reacts so."),
    ({"type": "action", "card": "senet", "opponent": 9}, "move.opponent",
     "Opponent: There is no such seat at this table."),
    ({"type": "action", "card": "senet"}, "move.opponent", "Opponent: This is required."),
    ({"type": "action", "card": "offering_chapel", "seals": [{"seat": 1}, {"seat": 1}]},
     "move.seals.1.seat", "Cards sealed › Seal 2 › Player: Each player seals at most once."),
    ({"type": "action", "card": "?", "effects": [{"kind": "gain"}]}, "move.effects.0.slot",
     "What the card did › Effect 1 › Pyramid slot: This is required."),
    ({"type": "action", "card": "?", "effects": [{"kind": "draw", "count": 0}]},
     "move.effects.0.count", "What the card did › Effect 1 › Cards drawn: At least 1."),
    ({"type": "seal"}, "move.card", "Card sealed: This is required."),
    ({"type": "seal", "card": "shabti", "vp": "two"}, "move.vp",
     "Victory points printed on it: This must be a whole number."),
    ({"type": "end_turn", "sacrifice": {"card": "brooch"}}, "move.sacrifice.slot",
     "Pyramid card sacrificed › Pyramid slot: This is required."),
]


@pytest.mark.parametrize("move, field, words", MALFORMED,
                         ids=[f"{m['type']}-{f}" for m, f, _ in MALFORMED])
def test_a_malformed_move_is_refused_naming_the_argument_in_words(move, field, words):
    state = give(new_game(3), 0, "senet", "offering_chapel", "?")
    violation = refused(state, move, "valley.bad_move", field=field)
    assert violation.render() == words
    assert field.removeprefix("move.") not in violation.render()


@pytest.mark.parametrize("move, field, words", [
    ({"type": "refill"}, "move.cards", "Cards turned up: This is required."),
    ({"type": "refill", "cards": [5]}, "move.cards.0",
     "Cards turned up › Card 1: Choose one of the values offered."),
    ({"type": "refill", "cards": ["?"], "slots": ["X"]}, "move.slots.0",
     "Slots filled, in order › Slot 1: Choose one of the values offered."),
    ({"type": "reveal", "card": "excalibur"}, "move.card",
     "Card turned up: Choose one of the values offered."),
])
def test_a_malformed_chance_move_is_refused_naming_the_argument_in_words(move, field, words):
    state = _states_of_every_phase()[move["type"]]         # the phase of the same name
    violation = refused(state, move, "valley.bad_move", field=field)
    assert violation.render() == words
    assert field.removeprefix("move.") not in violation.render()


def test_buy_refusals():
    state = give(new_game(2), 0, "spear", "?")
    refused(state, {"type": "buy", "slot": "M1", "pay": pay("spear")}, "VK_NOT_IN_BASE")
    refused(state, {"type": "buy", "slot": "revealed", "pay": []}, "VK_NOT_IN_BASE")
    refused(state, {"type": "buy", "slot": "B1", "cost": 4, "pay": pay("spear")}, "VK_UNDERPAID")
    refused(state, {"type": "buy", "slot": "B2", "cost": 1, "pay": pay("spear")},
            "VK_CRUMBLE")                                 # two cards could drop into B2
    refused(state, {"type": "buy", "slot": "B1", "cost": 1, "drop": "M2",
                    "pay": pay("spear")}, "VK_CRUMBLE")
    refused(state, {"type": "buy", "slot": "B1", "cost": 1,
                    "pay": pay(("spear", 4))}, "valley.printed_value_mismatch")
    refused(state, {"type": "buy", "slot": "B1", "cost": 1, "pay": pay("?")},
            "valley.value_needed")
    refused(state, {"type": "buy", "slot": "B1", "pay": pay("spear")},
            "valley.value_needed")                        # the cost of Sling is not known
    refused(state, {"type": "buy", "slot": "B1", "cost": 0, "card": "axe",
                    "pay": []}, "valley.wrong_card")
    refused(give(new_game(2), 0, "spear"), {"type": "buy", "slot": "B1", "cost": 1,
                                            "pay": pay("ring")}, "valley.card_not_owned")
    state = new_game(2, ["?"] * 6)
    for _ in range(3):
        state = play(state, {"type": "buy", "slot": "B1", "cost": 0, "pay": []})
    assert state["pyramid"] == [None, "?", "?", None, "?", None]
    refused(state, {"type": "buy", "slot": "B1", "cost": 0, "pay": []}, "valley.empty_slot")


def test_hand_cards_are_counted():
    state = new_game(2)
    six = {"type": "buy", "slot": "B1", "cost": 1,
           "pay": pay(*[("?", 0)] * 5, ("?", 1))}
    refused(state, six, "valley.hand_empty")
    five_shabti = give(new_game(2), 0, "?")
    five_shabti = copy.deepcopy(five_shabti)
    move = {"type": "buy", "slot": "B1", "cost": 1, "pay": pay(*[("shabti", 0)] * 5)}
    refused(five_shabti, move, "VK_COPY_LIMIT")     # only 4 Shabti; the 5th card is not


def test_card_already_used_and_capital_reused():
    state = give(new_game(2, ["?"] * 6), 0, "ring", "?")
    state = play(state, {"type": "action", "card": "ring"})
    refused(state, {"type": "buy", "slot": "B1", "cost": 1,
                    "pay": [{"played": 0}]}, "VK_CARD_ALREADY_USED")
    refused(state, {"type": "seal", "played": 0}, "VK_CARD_ALREADY_USED")
    state = play(state, {"type": "buy", "slot": "B1", "cost": 1, "pay": pay(("?", 1))})
    refused(state, {"type": "buy", "slot": "B1", "cost": 0,
                    "pay": [{"played": 1}]}, "VK_CAPITAL_REUSED")
    refused(state, {"type": "buy", "slot": "B1", "cost": 0,
                    "pay": [{"played": 7}]}, "valley.bad_move")


def test_free_seal_limits():
    state = play(new_game(2), {"type": "seal", "card": "shabti"})
    assert state["players"][0]["tomb"] == ["shabti"] and state["free_seals"] == 1
    assert state["players"][0]["cards"] == 9 and state["players"][0]["hand"] == 4
    refused(state, {"type": "seal", "card": "urn"}, "VK_FREE_SEAL_LIMIT")
    refused(new_game(1, solo="master"), {"type": "seal", "card": "urn"}, "VK_FREE_SEAL_LIMIT")
    refused(new_game(2), {"type": "seal", "card": "?"}, "valley.title_needed")
    # a card whose set the catalogue does not know, and a unique's VP (§2.7)
    state = give(new_game(2), 0, "nut", "sphinx")
    refused(state, {"type": "seal", "card": "nut"}, "valley.set_needed")
    refused(state, {"type": "seal", "card": "nut", "set": "books"}, "valley.unknown_set")
    refused(state, {"type": "seal", "card": "sphinx"}, "valley.value_needed")
    sealed = play(state, {"type": "seal", "card": "nut", "set": "tomb_art"})
    assert sealed["printed"]["card_set"]["nut"] == "tomb_art"
    sealed = play(state, {"type": "seal", "card": "sphinx", "vp": 4})
    assert VALLEY.score(sealed).players[0].total == 4


def test_rebuild_refusals():
    state = new_game(2)
    refused(state, {"type": "end_turn"}, "VK_REBUILD")
    state = play(state, {"type": "end_turn", "sacrifice": {"slot": "B1"}})
    assert state["pyramid"] == ["nut", "dagger", "serdab", "brooch", "ring", None]
    refused(state, {"type": "refill", "cards": ["?", "?"]}, "VK_REBUILD")
    refused(state, {"type": "refill", "cards": ["?"], "slots": ["M1"]}, "VK_REBUILD")
    state = play(new_game(2), {"type": "end_turn", "sacrifice": {"slot": "B2", "drop": "M2"}})
    assert state["pyramid"] == ["sling", "ring", "serdab", "nut", "brooch", None]
    assert VALLEY.prompts(state, 0)["slots"] == ["T"]


def empty_base_slot(state) -> dict:
    """A buy of the first card in the base, with the first crumble choice if one is needed."""
    slot = next(s for s in pyr.BASE if state["pyramid"][pyr.INDEX[s]] is not None)
    pick = {"type": "buy", "slot": slot, "cost": 0, "pay": []}
    choices = pyr.choices_needed(state["pyramid"]).get(slot)
    return {**pick, "drop": choices[0]} if choices else pick


def test_refill_bottom_up_any_order_within_a_row():
    state = new_game(2, ["?"] * 6)
    state = play(state, *[{"type": "buy", "slot": slot, "cost": 0, "pay": []}
                          for slot in ("B3", "B1", "B2")])
    assert state["pyramid"] == ["?", "?", "?", None, None, None]
    state = play(state, {"type": "buy", "slot": "B2", "cost": 0, "pay": []},
                 {"type": "end_turn"})
    assert refill_count(state) == 6 - 2
    assert pyr.refill_order(state["pyramid"]) == ["B2", "M1", "M2", "T"]
    refused(state, {"type": "refill", "cards": ["?"] * 4,
                    "slots": ["M1", "B2", "M2", "T"]}, "VK_REBUILD")
    state = play(state, {"type": "refill", "cards": ["axe", "bow", "?", "?"],
                         "slots": ["B2", "M2", "M1", "T"]})
    assert state["pyramid"][1:5] == ["axe", "?", "?", "bow"]


def test_copy_limits():
    state = new_game(2, ["axe", "axe", "?", "?", "?", "?"])
    state = play(state, {"type": "end_turn", "sacrifice": {"slot": "T"}})
    refused(state, {"type": "refill", "cards": ["axe"]}, "VK_COPY_LIMIT")
    tomb_art = new_game(2, [f"tomb_art_{n}" for n in range(1, 7)], boneyard="tomb_art_7",
                        edition=edition({"card_set": {"nut": "tomb_art"}}))
    tomb_art = play(tomb_art, {"type": "end_turn", "sacrifice": {"slot": "T"}})
    refused(tomb_art, {"type": "refill", "cards": ["nut"]}, "VK_COPY_LIMIT")
    uniques = new_game(2, ["sphinx", "ibex_statuette", "afterlife_unique_3",
                           "afterlife_unique_4", "afterlife_unique_5", "afterlife_unique_6"])
    uniques = play(uniques, {"type": "end_turn", "sacrifice": {"slot": "T"}})
    with pytest.raises(RuleViolation) as raised:
        new_game(2, ["sphinx", "sphinx", "?", "?", "?", "?"])
    assert raised.value.code == "VK_COPY_LIMIT"
    # the placed name of a card joins the count of its set
    placed = new_game(2, [f"tomb_art_{n}" for n in range(1, 7)], boneyard="tomb_art_7")
    placed = give(placed, 0, "nut")
    refused(placed, {"type": "seal", "card": "nut", "set": "tomb_art"}, "VK_COPY_LIMIT")


def test_mixed_uniques_take_one_per_cost_when_the_costs_are_known():
    costs = edition({"cost": {"sphinx": 3, "boat": 3, "censer": 4}})
    with pytest.raises(RuleViolation) as raised:
        new_game(2, ["sphinx", "boat", "?", "?", "?", "?"], pool="mix", uniques="mixed",
                 edition=costs)
    assert (raised.value.code, raised.value.field) == ("valley.unique_cost_taken", "pyramid.1")
    fine = new_game(2, ["sphinx", "censer", "?", "?", "?", "?"], pool="mix", uniques="mixed",
                    edition=costs)
    fine = play(fine, {"type": "end_turn", "sacrifice": {"slot": "T"}})
    refused(fine, {"type": "refill", "cards": ["boat"]}, "valley.unique_cost_taken")
    # with the uniques of one box, or costs unknown, nothing is enforced
    new_game(2, ["sphinx", "ibex_statuette", "?", "?", "?", "?"], pool="mix",
             edition=edition({"cost": {"sphinx": 3, "ibex_statuette": 3}}))
    new_game(2, ["sphinx", "boat", "?", "?", "?", "?"], pool="mix", uniques="mixed")


def test_solo_opponent_actions_are_blocked():
    state = give(new_game(1), 0, "nut", "khopesh", "senet")
    refused(state, {"type": "action", "card": "nut", "opponent": 0,
                    "gain": {"slot": "B1"}}, "VK_SOLO_OPPONENT")
    refused(state, {"type": "action", "card": "khopesh",
                    "gain": {"slot": "B1"}}, "VK_SOLO_OPPONENT")
    refused(state, {"type": "action", "card": "senet", "opponent": 0,
                    "response": {"card": None}}, "VK_SOLO_OPPONENT")


@pytest.mark.parametrize("cards, move, expected", [
    (["antechamber"], {"card": "antechamber"}, "VK_ACTION_IMPOSSIBLE"),
    (["hounds_and_jackals"], {"card": "hounds_and_jackals", "return": {"played": 0}},
     "VK_ACTION_IMPOSSIBLE"),
    (["victory"], {"card": "victory", "seal": {"played": 0}}, "VK_ACTION_IMPOSSIBLE"),
    (["axe"], {"card": "axe"}, "VK_ACTION_IMPOSSIBLE"),
    (["judgement", "?"], {"card": "judgement", "set_aside": [{"card": "?"}] * 2},
     "VK_ACTION_IMPOSSIBLE"),
    (["judgement", "?"], {"card": "judgement", "set_aside": [{"played": 0}]},
     "VK_SACRIFICE_PLAYED"),
    (["?"], {"card": "?", "effects": [{"kind": "sacrifice_hand", "played": 0}]},
     "VK_SACRIFICE_PLAYED"),
    (["?"], {"card": "?", "effects": [{"kind": "fly"}]}, "valley.bad_move"),
    (["bow"], {"card": "bow", "seal": {"slot": "B1", "card": "sphinx"}}, "VK_SEAL_LIMIT"),
    (["nut"], {"card": "nut", "opponent": 0, "gain": {"slot": "B1"}},
     "valley.not_an_opponent"),
    (["mirror_case"], {"card": "mirror_case", "gain": {"slot": "B1"}, "place": "B3"},
     "VK_CRUMBLE"),
])
def test_action_refusals(cards, move, expected):
    state = give(new_game(2, ["?"] * 6, boneyard="?"), 0, *cards)
    refused(state, {"type": "action", **move}, expected)


def test_actions_on_an_empty_pyramid_or_supply_are_impossible():
    state = give(new_game(2, ["?"] * 6), 0, "?")
    for _ in range(6):
        state = play(state, empty_base_slot(state))
    assert pyr.count(state["pyramid"]) == 0
    state = give(state, 0, "khopesh", "nut", "mirror_case", "bow", "brain_hook")
    for move in ({"card": "khopesh", "gain": {"slot": "B1"}},
                 {"card": "nut", "opponent": 1, "gain": None},
                 {"card": "mirror_case", "gain": {"slot": "B1"}},
                 {"card": "bow", "seal": {"slot": "B1"}}):
        refused(state, {"type": "action", **move}, "VK_ACTION_IMPOSSIBLE")
    empty = copy.deepcopy(state)
    empty["supply"] = 0
    refused(empty, {"type": "action", "card": "brain_hook"}, "VK_ACTION_IMPOSSIBLE")


def test_seal_limits_of_actions():
    state = give(new_game(2, ["?"] * 6), 0, "victory", "?")
    state = play(state, {"type": "buy", "slot": "B1", "cost": 0, "pay": pay(("?", 0))})
    refused(state, {"type": "action", "card": "victory",
                    "seal": {"played": 1}}, "VK_SEAL_LIMIT")        # itself
    bow = entomb(give(new_game(2, ["axe", "?", "?", "?", "?", "?"]), 0, "bow"), 0, "dagger")
    refused(bow, {"type": "action", "card": "bow", "seal": {"slot": "B1"}},
            "VK_SEAL_LIMIT")                              # weapons in tomb
    printed = play(bow, {"type": "action", "card": "bow",
                         "seal": {"slot": "B2", "card": "ring", "drop": "M1"}})
    assert printed["players"][0]["tomb"] == ["dagger", "ring"]
    necklace = give(new_game(2), 0, "necklace")
    necklace["players"][0]["deck"] = 0
    necklace["players"][0]["discard"] = 0
    necklace["players"][0]["hand"] = 11
    refused(necklace, {"type": "action", "card": "necklace",
                       "seals": [{"card": "shabti"}]}, "VK_ACTION_IMPOSSIBLE")


def test_brooch_and_its_refusals():
    state = entomb(give(new_game(2), 0, "brooch"), 0, "axe", "shabti")
    move = {"type": "action", "card": "brooch", "seal": {"slot": "B1"},
            "sacrifice": {"card": "shabti"}}
    refused(state, move, "valley.not_a_set_card")
    refused(state, {**move, "sacrifice": {"card": "bow"}}, "valley.not_in_tomb")
    # §16 #7: the card just sealed may be the sacrifice
    done = play(state, {**move, "sacrifice": {"card": "sling"}})
    assert done["players"][0]["tomb"] == ["axe", "shabti"]
    assert done["boneyard"][-1] == "sling" and done["changed"]


def test_nut_gives_the_cheapest_to_the_opponent_and_takes_the_most_expensive():
    costs = {"cost": {"sling": 1, "dagger": 2, "serdab": 3, "ring": 3, "brooch": 5}}
    state = give(new_game(3, edition=edition(costs)), 0, "nut")
    move = {"type": "action", "card": "nut", "opponent": 2,
            "opponent_gain": {"slot": "B1"}, "gain": {"slot": "M1"}}
    after = play(state, move)
    assert after["players"][2]["discard"] == 1 and after["players"][2]["known"]["sling"] == 1
    assert after["players"][0]["known"]["brooch"] == 1     # Brooch (5) fell from T into M1
    refused(state, {**move, "opponent_gain": {"slot": "B2", "drop": "M1"}}, "valley.nut_choice")
    declined = play(state, {**move, "opponent_gain": None, "gain": {"slot": "T"}})
    assert declined["players"][0]["known"]["brooch"] == 1
    refused(state, {**move, "gain": {"slot": "B3"}}, "valley.nut_choice")
    refused(state, {**move, "gain": None}, "valley.bad_move")


def test_opponent_change_option():
    state = give(new_game(2, ["?"] * 6), 0, "nut")
    move = {"type": "action", "card": "nut", "opponent": 1,
            "opponent_gain": {"slot": "B1"}, "gain": {"slot": "B1"}}
    assert play(state, move)["changed"]
    off = give(new_game(2, ["?"] * 6, opponent_change_counts=False), 0, "nut")
    only_opponent = play(off, {**move, "gain": {"slot": "B1"}})
    assert only_opponent["changed"]                        # your own gain changes it too


def test_victory_hounds_and_jackals_ring():
    state = give(new_game(2, ["?"] * 6), 0, "ring", "hounds_and_jackals", "victory", "spear")
    state = play(state, {"type": "buy", "slot": "B1", "cost": 3, "pay": pay("spear")})
    state = play(state, {"type": "action", "card": "hounds_and_jackals",
                         "return": {"played": 0}})
    assert state["played"][0]["out"] and state["players"][0]["hand"] == 8
    # the returned Spear pays again (§16 #16), doubled by Ring
    state = play(state, {"type": "action", "card": "ring"})
    state = play(state, {"type": "buy", "slot": "B1", "cost": 6, "pay": pay("spear")})
    refused(state, {"type": "action", "card": "victory", "seal": {"played": 0}},
            "valley.not_on_table")
    state = play(state, {"type": "action", "card": "victory", "seal": {"played": 3}})
    assert state["players"][0]["tomb"] == ["spear"]
    assert state["players"][0]["known"].get("spear") is None


def test_ring_is_lost_on_an_action_unless_the_option_says_otherwise():
    for lost, capital in ((True, 3), (False, 6)):
        state = give(new_game(2, ["?"] * 6, ring_lost_on_action=lost), 0, "ring", "serdab",
                     "spear")
        state = play(state, {"type": "action", "card": "ring"},
                     {"type": "action", "card": "serdab", "count": 0})
        with pytest.raises(RuleViolation) as raised:
            VALLEY.apply(state, 0, {"type": "buy", "slot": "B1", "cost": 99, "pay": pay("spear")})
        assert raised.value.params["capital"] == capital


def test_serdab_cards_join_the_next_hand():
    state = give(new_game(2), 0, "serdab")
    state = play(state, {"type": "action", "card": "serdab", "count": 3},
                 {"type": "seal", "card": "shabti"})
    assert state["players"][0]["aside"] == 3 and state["players"][0]["hand"] == 1
    refused(give(new_game(2), 0, "serdab"), {"type": "action", "card": "serdab",
                                             "count": 6}, "valley.hand_empty")
    state = play(state, {"type": "end_turn", "sacrifice": {"slot": "T"}},
                 {"type": "refill", "cards": ["?"]})
    player = state["players"][0]
    assert (player["hand"], player["deck"], player["discard"], player["aside"]) == (8, 0, 2, 0)


def test_antechamber_offering_chapel_and_discard_piles():
    state = give(new_game(3), 0, "antechamber", "offering_chapel")
    state = give(state, 1, "axe", zone="discard")
    state = give(state, 2, "urn", zone="discard")
    state = play(state, {"type": "action", "card": "offering_chapel",
                         "seals": [{"seat": 1, "card": "axe"}, {"seat": 2}]})
    assert state["players"][1]["tomb"] == ["axe"] and state["players"][1]["discard"] == 0
    assert state["players"][2]["tomb"] == [] and state["players"][2]["discard"] == 1   # "may"
    refused(state, {"type": "action", "card": "antechamber"}, "VK_ACTION_IMPOSSIBLE")
    chapel = give(new_game(3), 0, "offering_chapel")
    refused(chapel, {"type": "action", "card": "offering_chapel",
                     "seals": [{"seat": 2, "card": "shabti"}]}, "valley.discard_empty")
    state = give(new_game(2), 0, "antechamber", "urn", zone="hand")
    state = give(state, 0, "bow", zone="discard")
    state = play(state, {"type": "action", "card": "antechamber"})
    assert (state["players"][0]["hand"], state["players"][0]["discard"]) == (7, 0)


def test_dagger_takes_from_the_boneyard_when_it_holds_enough():
    state = give(new_game(2, boneyard="sphinx"), 0, "dagger")
    assert play(state, {"type": "action", "card": "dagger"})["boneyard"] == ["sphinx"]
    state = play(play(new_game(2, boneyard="sphinx"),
                      {"type": "end_turn", "sacrifice": {"slot": "T"}},
                      {"type": "refill", "cards": ["?"]}), seat=None)
    state = give(state, 1, "dagger")
    done = play(state, {"type": "action", "card": "dagger"})
    assert done["boneyard"] == []
    assert done["players"][1]["known"]["brooch"] == 1 and done["players"][0]["known"]["sphinx"]
    to_hand = give(copy.deepcopy(state), 1, "?")
    to_hand["options"]["dagger_to"] = "hand"
    done = play(to_hand, {"type": "action", "card": "dagger"})
    assert done["players"][1]["hand"] == 5 + 2 - 1 + 1 and done["players"][0]["hand"] == 6


def test_judgement_swaps_hand_cards_for_boneyard_cards():
    state = play(new_game(2, boneyard="sphinx"), {"type": "end_turn", "sacrifice":
                                                  {"slot": "T"}},
                 {"type": "refill", "cards": ["?"]})
    state = give(state, 1, "judgement")
    done = play(state, {"type": "action", "card": "judgement",
                        "set_aside": [{"card": "shabti"}, {"card": "urn"}]})
    assert done["boneyard"] == ["shabti", "urn"]                  # the last ends on top
    player = done["players"][1]
    assert player["known"]["sphinx"] == 1 and player["known"]["brooch"] == 1
    assert player["known"]["shabti"] == 3 and player["discard"] == 2 and player["hand"] == 3


def test_brain_hook_reveal_buy_with_discount_ring_exception_and_decline():
    costs = edition({"cost": {"axe": 3}})
    state = give(new_game(2, edition=costs), 0, "brain_hook", "ring", "spear")
    state = play(state, {"type": "action", "card": "brain_hook"})
    assert state["phase"] == "reveal" and state["supply"] == 48
    chance = VALLEY.chance(state)
    assert chance.move == {"type": "reveal"} and chance.draws == 1
    assert ("axe", 2) in chance.outcomes and ("nut", 1) not in chance.outcomes
    state = play(state, {"type": "reveal", "card": "axe"})
    assert VALLEY.prompts(state, 0)["cost"] == 1
    refused(state, {"type": "end_turn"}, "valley.wrong_phase")
    refused(state, {"type": "buy", "slot": "B1", "pay": []}, "valley.finish_brain_hook")
    refused(state, {"type": "action", "card": "spear"}, "valley.finish_brain_hook")
    state = play(state, {"type": "action", "card": "ring"})      # the official exception
    bought = play(state, {"type": "buy", "slot": "revealed", "pay": pay(("shabti", 1))})
    assert bought["phase"] == "play" and bought["players"][0]["known"]["axe"] == 1
    assert not bought["changed"]                                  # not a pyramid change
    declined = play(state, {"type": "decline"})
    assert declined["boneyard"][-1] == "axe" and not declined["changed"]
    named = play(give(new_game(2), 0, "brain_hook"),
                 {"type": "action", "card": "brain_hook", "revealed": "?"})
    assert named["phase"] == "brain_hook" and named["revealed"] == "?"


def test_mirror_case_enters_the_pyramid():
    state = give(new_game(2), 0, "mirror_case")
    done = play(state, {"type": "action", "card": "mirror_case", "gain": {"slot": "B1"}})
    assert done["pyramid"] == ["nut", "dagger", "serdab", "brooch", "ring", "mirror_case"]
    assert done["changed"] and done["players"][0]["known"].get("mirror_case") is None
    # after a gain from a half-empty pyramid the case may fall two ways
    state = give(new_game(2), 0, "mirror_case", "?")
    state = play(state, {"type": "buy", "slot": "B3", "cost": 0, "pay": []},
                 {"type": "buy", "slot": "B3", "cost": 0, "pay": []})
    assert state["pyramid"] == ["sling", "dagger", "brooch", "nut", None, None]
    move = {"type": "action", "card": "mirror_case", "gain": {"slot": "M1"}}
    refused(state, move, "VK_CRUMBLE")
    refused(state, {**move, "place": "T"}, "VK_CRUMBLE")
    done = play(state, {**move, "place": "M2"})
    assert done["pyramid"] == ["sling", "dagger", "brooch", None, "mirror_case", None]
    assert pyr.settled(done["pyramid"])


def test_khopesh_gains_with_the_active_players_crumble_choice():
    state = give(new_game(2), 0, "khopesh")
    done = play(state, {"type": "action", "card": "khopesh",
                        "gain": {"slot": "B2", "drop": "M2"}})
    assert done["pyramid"] == ["sling", "ring", "serdab", "nut", "brooch", None]
    assert done["players"][0]["known"]["dagger"] == 1


def test_senet_and_the_axe_reaction():
    state = give(new_game(3), 0, "senet")
    state = give(state, 1, "axe")
    state = give(state, 2, "?")
    plain = play(state, {"type": "action", "card": "senet", "opponent": 1,
                         "response": {"card": None}})
    assert plain["players"][1]["known"]["senet"] == 1 and plain["players"][0]["hand"] == 6
    assert play(state, {"type": "action", "card": "senet", "opponent": 1}) == plain   # shown
    given = play(state, {"type": "action", "card": "senet", "opponent": 1,
                         "response": {"card": "axe"}})
    assert given["players"][0]["known"]["axe"] == 1 and given["players"][1].get("known")
    refused(state, {"type": "action", "card": "senet", "opponent": 1,
                    "response": {"card": "shabti"}}, "valley.not_a_set_card")
    reaction = {"type": "action", "card": "senet", "opponent": 1,
                "response": {"card": "axe", "reaction": True,
                             "discards": [{"seat": 2, "card": "?"}, {"seat": 0, "card": "urn"}]}}
    done = play(state, reaction)
    assert done["players"][0]["discard"] == 2 and done["players"][2]["discard"] == 1
    missing = copy.deepcopy(reaction)
    missing["response"]["discards"].pop()
    refused(state, missing, "valley.bad_move")


def test_generic_actions_log_public_consequences():
    state = give(new_game(2, boneyard="sphinx"), 0, "linen_bandages", "spear")
    done = play(state, {"type": "action", "card": "linen_bandages", "effects": [
        {"kind": "gain", "slot": "T"}, {"kind": "take_boneyard"}, {"kind": "draw", "count": 2},
        {"kind": "seal_hand", "card": "spear"}, {"kind": "take_supply", "card": "axe"},
        {"kind": "sacrifice_pyramid", "slot": "B1"}, {"kind": "discard", "card": "shabti"}]})
    player = done["players"][0]
    assert player["tomb"] == ["spear"] and player["known"]["brooch"] == 1
    assert player["known"]["sphinx"] == 1 and player["known"]["axe"] == 1
    assert done["supply"] == 48 and done["boneyard"] == ["sling"] and done["changed"]
    assert (player["hand"], player["deck"], player["discard"]) == (5 + 2 - 1 + 2 - 1 - 1, 3, 4)


# ------------------------------------------------------------------------------------------
# 3. The turn, the end of the game, corrections, chance
# ------------------------------------------------------------------------------------------


def test_end_of_turn_discards_and_draws():
    state = give(new_game(2, ["?"] * 6), 0, "?")
    state = play(state, {"type": "buy", "slot": "B1", "cost": 2, "pay": pay(("?", 2))},
                 {"type": "end_turn"}, {"type": "refill", "cards": ["?"]})
    player = state["players"][0]
    assert (player["cards"], player["hand"], player["deck"], player["discard"]) == (12, 5, 0, 7)
    assert state["current"] == 1 and state["turn"] == 2 and state["played"] == []


def end_game_state(players: int, current: int, start: int = 0):
    state = new_game(players, start=start)
    state = copy.deepcopy(state)
    state["supply"] = 0
    state["pyramid"] = ["axe", None, None, None, None, None]
    state["current"] = current
    return state


def test_the_game_ends_after_a_full_round_with_supply_and_pyramid_empty():
    last = play(end_game_state(3, current=2), {"type": "end_turn", "sacrifice": {"slot": "B1"}})
    assert VALLEY.is_over(last) and to_act(last) is None
    assert VALLEY.awaiting(last) == base.Awaiting()
    refused(last, {"type": "end_turn"}, "valley.game_over")
    middle = play(end_game_state(3, current=1), {"type": "end_turn", "sacrifice":
                                                 {"slot": "B1"}})
    assert not VALLEY.is_over(middle) and middle["current"] == 2
    middle = play(middle, {"type": "end_turn"})          # nothing to sacrifice or refill
    assert VALLEY.is_over(middle)
    started_late = play(end_game_state(3, current=0, start=1),
                        {"type": "end_turn", "sacrifice": {"slot": "B1"}})
    assert VALLEY.is_over(started_late)                       # seat 0 is right of start player 1
    assert VALLEY.score(started_late).complete


def test_correction_window_closes_at_the_next_players_first_card_play():
    state = new_game(2)
    assert VALLEY.undo_floor(state) == 0
    state = play(state, {"type": "seal", "card": "shabti"},                  # move 0
                 {"type": "end_turn", "sacrifice": {"slot": "T"}},           # move 1
                 {"type": "refill", "cards": ["?"]})                         # move 2
    assert VALLEY.undo_floor(state) == 0        # the next player has not played a card yet
    state = give(state, 1, "?")
    state = play(state, {"type": "seal", "card": "urn"})                     # move 3
    assert VALLEY.undo_floor(state) == 0        # sealing is not playing a card (§6)
    state = play(state, {"type": "buy", "slot": "B1", "cost": 0,
                         "pay": pay(("?", 0))})                              # move 4
    # the first card play closes the previous turn (moves 0-2); this turn stays correctable
    assert VALLEY.undo_floor(state) == 3
    state = play(state, {"type": "end_turn"}, {"type": "refill", "cards": ["?"]})
    assert VALLEY.undo_floor(state) == 3        # until the next player plays a card
    state = play(give(state, 0, "?"), {"type": "action", "card": "?"})       # move 7
    assert VALLEY.undo_floor(state) == 7


def test_chance_offers_only_titles_that_fit_the_pool():
    placed = edition({"card_set": {"nut": "tomb_art"}})
    state = new_game(2, [f"tomb_art_{n}" for n in range(1, 7)], boneyard="tomb_art_7",
                     edition=placed)
    state = play(state, {"type": "end_turn", "sacrifice": {"slot": "T"}})
    outcomes = dict(VALLEY.chance(state).outcomes)
    assert "nut" not in outcomes                 # Tomb Art already shows its 7 titles
    assert outcomes["tomb_art_1"] == 1 and outcomes["axe"] == 2
    assert sum(outcomes.values()) >= state["supply"]
    assert "ibex_statuette" in outcomes and "boat" not in outcomes
    fresh = play(new_game(2, ["?"] * 6, edition=placed), {"type": "end_turn", "sacrifice":
                                                          {"slot": "T"}})
    fresh_outcomes = dict(VALLEY.chance(fresh).outcomes)
    assert sum(fresh_outcomes.values()) == 56             # the standard stock, by title
    assert "nut" in fresh_outcomes and "tomb_art_7" not in fresh_outcomes


def test_chance_draws_are_always_accepted():
    rng = random.Random(7)
    for seed in range(25):
        state = new_game(2 + seed % 3, ["?"] * 6, pool=random_options(rng, 4)["pool"])
        for _ in range(40):
            seat = to_act(state)
            chance = VALLEY.chance(state)
            move = chance.draw(rng) if chance else rng.choice(VALLEY.legal_moves(state, seat))
            state = VALLEY.apply(state, seat, move)
            if VALLEY.is_over(state):
                break


# ------------------------------------------------------------------------------------------
# 4. Play-outs
# ------------------------------------------------------------------------------------------

SIM_CASES = [(seed, 1 + seed % 6) for seed in range(PLAYOUTS)]


def _check_finished(sim: Sim) -> None:
    state = sim.state
    assert VALLEY.is_over(state)
    live = VALLEY.score(state).as_dict()
    assert live["complete"]
    assert score_final(VALLEY.final_document(state)).as_dict() == live
    for player in live["players"]:
        assert player["total"] == sum(c["points"] for c in player["breakdown"]["categories"])
    replayed = setup(sim.options, sim.names, sim.setup_doc, sim.edition)
    for seat, move in sim.log:
        assert seat in VALLEY.awaiting(replayed).seats
        assert VALLEY.legal_moves(replayed, seat) and VALLEY.prompts(replayed, seat)["moves"]
        replayed = VALLEY.apply(replayed, seat, move)
    assert replayed == state


@pytest.mark.parametrize("seed, players", SIM_CASES[:24])
def test_simulated_games_to_the_end(seed, players):
    rng = random.Random(seed)
    sim = Sim(seed, players, random_options(rng, players),
              place_in_edition=seed % 3 != 0).run()
    _check_finished(sim)


def test_many_simulated_games_cover_every_action_pool_and_player_count():
    seen_actions: set[str] = set()
    seen_pools: set[tuple[str, int]] = set()
    logs = []
    for seed, players in SIM_CASES[24:]:
        rng = random.Random(seed)
        options = random_options(rng, players)
        sim = Sim(seed, players, options, place_in_edition=seed % 3 != 0,
                  unknown_rate=0.3 if seed % 4 == 0 else 0.1).run()
        _check_finished(sim)
        seen_actions |= sim.actions_seen
        seen_pools.add((options["pool"], players))
        logs.append((sim, sim.log))
    assert seen_actions >= {a.value for a in action.HANDLERS} | {"generic"}
    assert {players for _, players in seen_pools} == {1, 2, 3, 4, 5, 6}
    assert {pool for pool, _ in seen_pools} >= {"afterlife", "original", "mix", "half_sets",
                                                 "half_sets_merged", "five_players",
                                                 "six_players"}

    def replay(sim, log):
        state = setup(sim.options, sim.names, sim.setup_doc, sim.edition)
        for seat, move in log:
            state = VALLEY.apply(state, seat, move)
        return state
    print_replay_speed("Valley of the Kings", logs, replay)


@pytest.mark.parametrize("seed", range(12))
def test_play_outs_from_legal_moves_and_chance_alone(seed):
    """What a generic random play-out does: a legal move or the table's draw, to the end."""
    rng = random.Random(seed)
    players = 1 + seed % 6
    options = random_options(rng, players)
    state = VALLEY.setup(options, NAMES[:players], VALLEY.default_setup(players), None)
    moves = 0
    while not VALLEY.is_over(state):
        (seat,) = VALLEY.awaiting(state).seats
        chance = VALLEY.chance(state)
        move = chance.draw(rng) if chance and rng.random() < 0.8 else rng.choice(
            VALLEY.legal_moves(state, seat))
        state = VALLEY.apply(state, seat, move)
        assert pyr.settled(state["pyramid"])
        moves += 1
        assert moves < 5000
    assert score_final(VALLEY.final_document(state)).as_dict() == VALLEY.score(state).as_dict()


def test_the_phone_offers_no_title_nor_set_that_a_full_set_would_refuse():
    """§13 on the phone's lists: once a set shows as many different titles as it holds, a
    title nobody has seen yet cannot be of it. Found playing four phones to the end: the seal
    form offered Mummification, full already, as the set of an unplaced title, and the refill
    offered titles of a full set; each choice was refused ("only 3 different titles")."""
    placed = new_game(2, [f"tomb_art_{n}" for n in range(1, 7)], boneyard="tomb_art_7")
    placed = give(placed, 0, "nut")                # its set is not known yet
    choices = VALLEY.prompts(placed, 0)["needs_set"]["nut"]
    assert "tomb_art" not in choices and "mummification" in choices
    for choice in choices:                         # each one offered is taken
        VALLEY.apply(placed, 0, {"type": "seal", "card": "nut", "set": choice,
                                 **({"vp": 3} if choice == "unique" else {})})
    full = new_game(2, [f"tomb_art_{n}" for n in range(1, 7)], boneyard="tomb_art_7",
                    edition=edition({"card_set": {"nut": "tomb_art"}}))
    full = play(full, {"type": "end_turn", "sacrifice": {"slot": "T"}})
    offered = [card for run in VALLEY.prompts(full, full["current"])["titles"]
               for card in run["cards"]]
    assert "nut" not in offered and "tomb_art_1" in offered
    for card in offered:                           # every title offered may come up
        VALLEY.apply(full, full["current"], {"type": "refill", "cards": [card]})
