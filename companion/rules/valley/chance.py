"""Valley of the Kings: the cards the supply turns up (spec §4 refill, §8 Brain Hook), declared
once. Physical randomness is input (design.md §2): the table says what came up.

* ``{"type": "refill", "cards": ["axe", "?"]}``: the refill, bottom-up into the lowest empty
  slots while the supply lasts (any order within a row: ``slots``); then the turn ends.
* ``{"type": "reveal", "card": "boat"}``: the card Brain Hook turned up, when its action did
  not name it; it then waits to be bought or sacrificed.

:func:`supply_outcomes` is what the supply may still hold, so that any draw fits the pool
(§13); :func:`chance` offers it to the table as the seam's chance input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import N_, Chance, ChoiceField, ListField, Term
from ..referee import Draft, MoveRule
from . import arguments as a
from . import printed as t
from . import pyramid as pyr
from .end_turn import finish_turn
from .knowledge import locate_dealt
from .state import REBUILD, UNKNOWN, MoveKind, Phase, card_set, fail, refill_count
from .zones import turn_up

REFILL_ARGS = (
    ListField("cards", N_("Cards turned up"), a.card("card", N_("Card"), optional=False),
              required=True, scalar=True, item_label=N_("Card %(n)d")),
    ListField("slots", N_("Slots filled, in order"), a.slot(label=N_("Slot")), optional=True,
              item_label=N_("Slot %(n)d")),
)
REVEAL_ARGS = (ChoiceField("card", N_("Card turned up"), a.CARD_CHOICES, default=UNKNOWN),)


def check_refill(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    """Require as many cards as the refill takes, the lowest row with an empty slot first."""
    wanted = refill_count(state)
    if len(args["cards"]) != wanted:
        raise fail(REBUILD, N_("The refill takes %(count)d cards from the supply."),
                   "move.cards", count=wanted)
    order = args["slots"] or pyr.refill_order(state["pyramid"])[:wanted]
    if len(order) != wanted or not pyr.refill_valid(state["pyramid"], order):
        raise fail(REBUILD, N_("Refill bottom-up: always the lowest row with an empty slot."),
                   "move.slots")


def refill(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """Refill bottom-up from the supply, one card at a time into the lowest empty slot (§4);
    then end the turn."""
    cards = args["cards"]
    order = args["slots"] or pyr.refill_order(d["pyramid"])[:len(cards)]
    slots = d.own("pyramid")
    for index, (slot, card) in enumerate(zip(order, cards)):
        locate_dealt(d, card, f"move.cards.{index}")
        slots[pyr.INDEX[slot]] = card
    d.state["supply"] = d["supply"] - len(cards)
    finish_turn(d)


def reveal(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """Lay Brain Hook's card face up until it is bought or sacrificed."""
    turn_up(d, args["card"], "move.card")


def supply_outcomes(state: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The titles the supply may still hold, with copies left: for each set of the pool the
    titles already seen plus stand-ins up to the printed number of titles, and the uniques in
    play likewise, so that any draw from these counts fits the pool (§13)."""
    located = state["located"]
    limits = state["limits"]
    by_set: dict[str, list[str]] = {s: [] for s in state["pool"]["sets"]}
    uniques: list[str] = []
    for card in limits:
        placed = card_set(state, card)
        if placed in by_set:
            by_set[placed].append(card)
        elif placed == t.UNIQUE:
            uniques.append(card)
    outcomes: list[tuple[str, int]] = []
    for placed, cards in list(by_set.items()) + [(t.UNIQUE, uniques)]:
        room = t.SETS[placed].size if placed in t.SETS else state["pool"]["uniques"]
        seen = [c for c in cards if located.get(c)]
        canonical = seen + [c for c in cards if not located.get(c)][:max(0, room - len(seen))]
        outcomes += [(c, limits[c] - located.get(c, 0)) for c in canonical
                     if limits[c] > located.get(c, 0)]
    return outcomes


def chance(state: Mapping[str, Any]) -> Chance | None:
    """The refill cards (§4) or Brain Hook's card (§8) the table turns up."""
    phase = state["phase"]
    if phase == Phase.REFILL:
        return Chance({"type": MoveKind.REFILL.value}, "cards", tuple(supply_outcomes(state)),
                      frozenset({state["current"]}), draws=refill_count(state))
    if phase == Phase.REVEAL:
        return Chance({"type": MoveKind.REVEAL.value}, "card", tuple(supply_outcomes(state)),
                      frozenset({state["current"]}))
    return None


REFILL_RULE = MoveRule(MoveKind.REFILL, Term(N_("refill the pyramid")),
                       frozenset({Phase.REFILL}), args=REFILL_ARGS, check=check_refill,
                       change=refill,
                       hint=N_("The cards turned up from the supply into the pyramid's empty "
                               "slots, bottom-up."))
REVEAL_RULE = MoveRule(MoveKind.REVEAL, Term(N_("turn up the top supply card")),
                       frozenset({Phase.REVEAL}), args=REVEAL_ARGS, change=reveal,
                       hint=N_("The card Brain Hook turned up from the supply."))
