"""Valley of the Kings: a card on the discard pile is not in the hand (state.DISCARD_PILE_RULE).

The seed, /work/shared/seeds/003_a5a1750f916b3499.txt, "Nákup karet", step 2 (l.165):
"Odstraňte zakoupenou kartu z pyramidy a umístěte ji na vršek své odkládací hromádky" — a
bought card goes onto the top of the buyer's discard pile (spec §5.1 step 2), as does a gained
card (§6 "Gain") and, at the end of a turn, every played card (§5 step 2). So it cannot be
played, paid with or sealed from the hand in the same turn — nor in a later one — until an
effect brings it to the hand: Antechamber (§8), or a draw that finds the deck empty and
shuffles the discard pile into a new deck (§5 step 4). Before this rule any card a player
owned could be named as a hand card.
"""

from __future__ import annotations

import copy

from companion.rules.valley import VALLEY
from tests.rules.valley_helpers import give, new_game, pay, play, refused

# Sling (B1) bought for a typed cost of 2, paid with two Shabti (capital 1 each, typed).
BUY_SLING = {"type": "buy", "slot": "B1", "cost": 2, "pay": pay(("shabti", 1), ("shabti", 1))}


def _hand_titles(state, seat=0):
    return {own["card"] for own in VALLEY.prompts(state, seat)["cards"]["own"]}


def test_a_card_bought_this_turn_cannot_pay_for_another_purchase():
    state = play(new_game(2), BUY_SLING)
    assert state["players"][0]["discard_known"] == {"sling": 1}
    error = refused(state, {"type": "buy", "slot": "B3", "cost": 1,
                            "pay": pay(("sling", 1))}, "valley.card_in_discard", field="move.pay.0")
    assert "Ana" in error.render() and "discard pile" in error.render()


def test_a_card_bought_this_turn_cannot_be_played_for_its_action_nor_sealed():
    state = play(new_game(2, ["dagger", "sling", "serdab", "nut", "ring", "brooch"]),
                 {"type": "buy", "slot": "B1", "cost": 2, "pay": pay(("urn", 2))})
    refused(state, {"type": "action", "card": "dagger"}, "valley.card_in_discard",
            field="move.card")
    refused(state, {"type": "seal", "card": "dagger"}, "valley.card_in_discard",
            field="move.card")
    # the other copies of a title still in hand stay usable: one Urn paid, two remain
    assert play(state, {"type": "seal", "card": "urn"})["players"][0]["tomb"] == ["urn"]


def test_a_gained_card_lies_on_the_discard_pile_too():
    state = give(new_game(2), 0, "khopesh")
    state = play(state, {"type": "action", "card": "khopesh", "gain": {"slot": "T"}})
    assert state["players"][0]["discard_known"] == {"brooch": 1}
    refused(state, {"type": "seal", "card": "brooch"}, "valley.card_in_discard")


def test_prompts_and_legal_moves_do_not_offer_a_card_on_the_discard_pile():
    state = play(new_game(2, ["dagger", "sling", "serdab", "nut", "ring", "brooch"]),
                 {"type": "buy", "slot": "B1", "cost": 2, "pay": pay(("urn", 2))})
    assert "dagger" not in _hand_titles(state) and "urn" in _hand_titles(state)
    offered = {a["action"] for a in VALLEY.prompts(state, 0)["actions"]}
    assert "dagger" not in offered
    seals = {m.get("card") for m in VALLEY.legal_moves(state, 0) if m["type"] == "seal"}
    assert "dagger" not in seals and "urn" in seals
    for move in VALLEY.legal_moves(state, 0):
        VALLEY.validate(state, 0, move)


def test_an_unnamed_card_bought_this_turn_is_not_the_hand_card_named_later():
    state = play(new_game(2, ["?"] * 6), {"type": "buy", "slot": "B1", "cost": 2,
                                          "pay": pay(("urn", 2))})
    # every card of Ana's but the one bought as "a card" is known: a Sling in her hand
    # could only be that card, which lies on the discard pile
    refused(state, {"type": "seal", "card": "sling"}, "valley.card_in_discard",
            field="move.card")
    assert VALLEY.prompts(state, 0)["cards"]["unnamed"] == 0


def test_antechamber_brings_a_card_from_the_discard_pile_to_the_hand():
    state = play(give(new_game(2), 0, "antechamber"), BUY_SLING)
    refused(state, {"type": "seal", "card": "sling"}, "valley.card_in_discard")
    state = play(state, {"type": "action", "card": "antechamber"})
    assert "sling" in _hand_titles(state)
    assert play(state, {"type": "seal", "card": "sling"})["players"][0]["tomb"] == ["sling"]


def test_a_draw_that_shuffles_the_discard_pile_brings_it_back():
    state = copy.deepcopy(give(new_game(2), 0, "linen_bandages"))
    player = state["players"][0]
    player["deck"], player["discard"] = 0, 5            # the deck ran out earlier
    state = play(state, BUY_SLING)
    refused(state, {"type": "seal", "card": "sling"}, "valley.card_in_discard")
    state = play(state, {"type": "action", "card": "linen_bandages",
                         "effects": [{"kind": "draw", "count": 1}]})
    assert state["players"][0]["discard_known"] == {} and state["players"][0]["discard"] == 0
    assert play(state, {"type": "seal", "card": "sling"})["players"][0]["tomb"] == ["sling"]


def test_the_card_stays_on_the_discard_pile_in_later_turns_until_the_deck_runs_out():
    state = play(new_game(1), BUY_SLING, {"type": "end_turn"},
                 {"type": "refill", "cards": ["?"]})
    player = state["players"][0]
    # the five cards of the deck were drawn; the played Shabti lie on the pile with Sling
    assert (player["deck"], player["discard"]) == (0, 6)
    assert player["discard_known"] == {"sling": 1, "shabti": 2}
    refused(state, {"type": "seal", "card": "sling"}, "valley.card_in_discard")
    state = play(state, {"type": "end_turn", "sacrifice": {"slot": "T"}},
                 {"type": "refill", "cards": ["?"]})
    # the next draw found the deck empty: the pile became the deck, Sling may be in hand
    assert state["players"][0]["discard_known"] == {}
    assert play(state, {"type": "seal", "card": "sling"})["players"][0]["tomb"] == ["sling"]


def test_offering_chapel_seals_the_card_from_the_top_of_the_discard_pile():
    state = play(give(new_game(2), 0, "offering_chapel"), BUY_SLING)
    choices = VALLEY.prompts(state, 0)["actions"]
    chapel = next(a for a in choices if a["action"] == "offering_chapel")
    assert "sling" in {own["card"] for own in chapel["choices"]["0"]["own"]}
    state = play(state, {"type": "action", "card": "offering_chapel",
                         "seals": [{"seat": 0, "card": "sling"}]})
    player = state["players"][0]
    assert player["tomb"] == ["sling"] and player["discard_known"] == {}
