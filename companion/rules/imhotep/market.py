"""A stone delivered to the Market (spec imhotep.md §4.6, §6.1 Market B, §6.5, E1, E5, E6): the
owner's ``pick_card``, ``pick_pair`` or ``skip_card`` move.

E1: the stone goes back to the quarry before the card acts, whichever move is made.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import ChoiceField, N_, RuleViolation, Term
from ..referee import Args, Draft, MoveRule
from . import printed
from .delivery import gain
from .flow import choice
from .state import CARD_CHOICES, Delivery, MoveKind, bad_argument, not_in_deck

MARKET_PICK = frozenset({Delivery.MARKET_PICK.value})


def _back_to_quarry(d: Draft, seat: int) -> None:
    """E1: the market stone returns to its owner's quarry first."""
    d.add(("quarry", seat), 1)


# ---- pick_card: an open card -------------------------------------------------------------------


def _check_pick(state: Mapping[str, Any], seat: int, args: Args) -> None:
    if args["card"] not in state["display"]:
        raise RuleViolation("imhotep.card_not_on_board",
                            N_("No %(card)s card lies open on the Market."), "move.card",
                            card=printed.CARD_LABELS[args["card"]])


@choice
def _pick_card(d: Draft, seat: int, args: Args, task: Mapping[str, Any]) -> None:
    _back_to_quarry(d, seat)
    d.own("display").remove(args["card"])
    gain(d, seat, args["card"])


PICK_CARD = MoveRule(
    MoveKind.PICK_CARD.value, Term(N_("take a market card")), MARKET_PICK,
    args=(ChoiceField("card", N_("Card"), CARD_CHOICES),),
    check=_check_pick, change=_pick_card,
    hint=N_("When your stone reaches the Market: an open card to take."))


# ---- pick_pair: the face-down pair of Market B -------------------------------------------------


def _check_pair(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§6.1 Market B: the pair is there; both its cards are named (one if only one is left),
    each one nobody has seen yet."""
    pair = state["pair"]
    if not pair:
        raise RuleViolation("imhotep.no_pair", N_("There is no face-down pair on the Market."))
    if pair == 1 and args["discard"] is not None:
        raise bad_argument(MoveKind.PICK_PAIR, "discard",
                           N_("Only one card of the pair is left: name no card to discard."))
    if pair > 1 and args["discard"] is None:
        raise bad_argument(MoveKind.PICK_PAIR, "discard")
    named = [args["keep"]] + ([args["discard"]] if args["discard"] else [])
    for key, card in zip(("keep", "discard"), named):
        if state["deck"][card] < named.count(card):
            raise not_in_deck(card, f"move.{key}")


@choice
def _pick_pair(d: Draft, seat: int, args: Args, task: Mapping[str, Any]) -> None:
    """§6.1 Market B: both cards leave the pile's unseen ones; the other is discarded face up
    (E6)."""
    _back_to_quarry(d, seat)
    d.add(("deck", args["keep"]), -1)
    if args["discard"]:
        d.add(("deck", args["discard"]), -1)
        d.add(("discard", args["discard"]), 1)
    d["pair"] = 0
    gain(d, seat, args["keep"])


PICK_PAIR = MoveRule(
    MoveKind.PICK_PAIR.value, Term(N_("take the face-down pair")), MARKET_PICK,
    args=(ChoiceField("keep", N_("Keep"), CARD_CHOICES),
          ChoiceField("discard", N_("Discard"), CARD_CHOICES, optional=True)),
    check=_check_pair, change=_pick_pair,
    hint=N_("Market B, when your stone reaches the Market: the face-down pair, the card you "
            "keep and the one you discard."))


# ---- skip_card: no card (option market_pick_mandatory off) -------------------------------------


def _check_skip(state: Mapping[str, Any], seat: int, args: Args) -> None:
    if state["options"]["market_pick_mandatory"]:
        raise RuleViolation("imhotep.must_pick",
                            N_("A stone delivered to the Market takes a card."))


SKIP_CARD = MoveRule(
    MoveKind.SKIP_CARD.value, Term(N_("take no market card")), MARKET_PICK,
    check=_check_skip,
    change=choice(lambda d, seat, args, task: _back_to_quarry(d, seat)),
    hint=N_("When your stone reaches the Market, if the table lets you take no card."))
