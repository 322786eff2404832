"""Silver & Gold – Pyramids: the deal when the app deals (spec §3), as moves.

A group that plays with phones only opens the table with ``dealer: "app"`` (:mod:`.setup`).
The deal is then physical randomness entered as a move (``deal``: 4 cards to every seat, seat
by seat), every seat keeps 2 of its 4 at once (``keep``, a simultaneous step: the step id is
``setup:keep``), and the offer of 4 is turned up (``offer``). Each move's arguments, check and
change are declared here side by side; :mod:`.referee` assembles the table.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import N_, RuleViolation
from ..referee import Draft, MoveRule
from . import printed as t
from .state import MOVE_LABELS, MoveKind, Phase, card_numbers, check_drawn, new_card


def _check_deal(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    """§3 by the app: 4 different cards for every seat, seat by seat."""
    count = t.DEALT * len(state["names"])
    if len(args["cards"]) != count:
        raise RuleViolation("pyramids.deal_count",
                            N_("Deal %(count)d cards: 4 for every player."), "move.cards",
                            count=count)
    check_drawn(state, args["cards"], count)


def _deal(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    cards = args["cards"]
    for s in range(len(d["names"])):
        d.own("players", s)["dealt"] = cards[t.DEALT * s:t.DEALT * (s + 1)]
    d["deck"] = [n for n in d["deck"] if n not in cards]
    d["marked"] = [False] * len(d["names"])
    d["phase"] = Phase.KEEP.value


def _check_keep(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    """§3: a player keeps 2 different cards of the 4 dealt to them."""
    cards = args["cards"]
    if len(cards) != t.KEPT:
        raise RuleViolation("pyramids.keep_count", N_("Keep exactly 2 of your 4 cards."),
                            "move.cards")
    for i, card in enumerate(cards):
        if card not in state["players"][seat]["dealt"] or cards.index(card) != i:
            raise RuleViolation("pyramids.kept_not_dealt",
                                N_("A player keeps 2 of the 4 cards dealt to them."),
                                f"move.cards.{i}")


def _keep(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """The seat's 2 cards lie open; once every seat has kept, the returned cards go back to the
    deck (§3: shuffled with it) and the offer is turned up."""
    d.own("players", seat)["open"] = [new_card(d.state, n) for n in args["cards"]]
    d.own("marked")[seat] = True
    if all(d["marked"]):
        kept = {card["number"] for player in d["players"] for card in player["open"]}
        d["deck"] = [n for n in range(1, t.CARD_COUNT + 1) if n not in kept]
        d["phase"] = Phase.OFFER.value


def _check_offer(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    check_drawn(state, args["cards"], t.OFFER_SIZE)


def _offer(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    d["offer"] = list(args["cards"])
    d["deck"] = [n for n in d["deck"] if n not in args["cards"]]
    d["marked"] = [False] * len(d["names"])
    d["phase"] = Phase.REVEAL.value


RULES: tuple[MoveRule, ...] = (
    MoveRule(MoveKind.DEAL, MOVE_LABELS[MoveKind.DEAL], frozenset({Phase.DEAL}),
             args=(card_numbers(),), check=_check_deal, change=_deal),
    MoveRule(MoveKind.KEEP, MOVE_LABELS[MoveKind.KEEP], frozenset({Phase.KEEP}),
             args=(card_numbers(),), check=_check_keep, change=_keep),
    MoveRule(MoveKind.OFFER, MOVE_LABELS[MoveKind.OFFER], frozenset({Phase.OFFER}),
             args=(card_numbers(),), check=_check_offer, change=_offer),
)
