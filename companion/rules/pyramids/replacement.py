"""Silver & Gold – Pyramids: step 3 of a turn, new cards for the cards completed (spec §7).

Seat by seat in the §14 #8 order (:mod:`.turns`), a seat that completed cards takes as many
new ones, one at a time, from the offer or blind from the deck (``take``; a blind draw names
the card that came up), then refills the offer from the deck (``refill``: the cards turned up,
physical randomness; C1-C3). Each move's arguments, check and change are declared here side by
side; :mod:`.referee` assembles the table.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import ChoiceField, N_, RuleViolation
from ..referee import Draft, MoveRule
from . import printed as t
from .state import (CARD_NUMBER, MOVE_LABELS, MoveKind, Pending, Phase, Source, card_numbers,
                    check_drawn, new_card)
from .turns import advance

SOURCE = ChoiceField("source", N_("Where the card comes from"), (
    (Source.OFFER.value, N_("the offer")),
    (Source.DECK.value, N_("the top of the deck")),
))


def _check_take(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    card = args["card"]
    if args["source"] == Source.OFFER and card not in state["offer"]:
        raise RuleViolation("pyramids.not_in_offer",
                            N_("Card %(number)d is not in the offer."), "move.card",
                            number=card)
    if args["source"] == Source.DECK and card not in state["deck"]:
        raise RuleViolation("pyramids.not_in_deck",
                            N_("Card %(number)d cannot come from the deck."), "move.card",
                            number=card)


def _take(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """§7: one replacement; after the seat's last one, the offer is refilled (C1, C2)."""
    card, source = args["card"], args["source"]
    d[source] = [n for n in d[source] if n != card]
    player = d.own("players", seat)
    player["open"] = player["open"] + [new_card(d.state, card)]
    pending = list(d["pending"])
    head = pending.pop(0)
    if head["left"] > 1:
        pending.insert(0, {**head, "left": head["left"] - 1})
    else:
        refill = min(t.OFFER_SIZE - len(d["offer"]), len(d["deck"]))
        if refill > 0:                                # C3: an empty deck refills nothing
            pending.insert(0, {"seat": seat, "kind": Pending.REFILL.value, "count": refill})
    d["pending"] = pending
    advance(d)


def _check_refill(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    check_drawn(state, args["cards"], state["pending"][0]["count"])


def _refill(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    d["offer"] = d["offer"] + list(args["cards"])
    d["deck"] = [n for n in d["deck"] if n not in args["cards"]]
    d["pending"] = d["pending"][1:]
    advance(d)


RULES: tuple[MoveRule, ...] = (
    MoveRule(MoveKind.TAKE, MOVE_LABELS[MoveKind.TAKE], frozenset({Phase.REPLACE}),
             args=(SOURCE, CARD_NUMBER), check=_check_take, change=_take),
    MoveRule(MoveKind.REFILL, MOVE_LABELS[MoveKind.REFILL], frozenset({Phase.REFILL}),
             args=(card_numbers(scalar=True),), check=_check_refill, change=_refill),
)
