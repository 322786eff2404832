"""Valley of the Kings: buying a card (spec §5.1, §8 Brain Hook and Ring), declared once.

``{"type": "buy", "slot": "B1", "pay": [{"card": "spear"}, {"card": "?", "capital": 2}]}``:
a card of the pyramid's base (or ``"revealed"``: the card Brain Hook turned up, 2 cheaper), paid
with hand cards played for their capital now (Ring doubles the next one). A card the table
entered as "a card" may be named (``card``); the cost and each capital come from the catalogue
or the group's edition, else the move types them (``cost``, ``capital``). Where two cards could
drop into the gap, ``drop`` says which (§4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import N_, ChoiceField, IntField, ListField, ObjectField, Term
from ..referee import Draft, MoveRule
from . import arguments as a
from . import names
from . import printed as t
from . import pyramid as pyr
from .edition import MAX_PRINTED
from .knowledge import locate, value_for_use
from .state import (CAPITAL_REUSED, CARD_ALREADY_USED, NOT_IN_BASE, REVEALED, UNDERPAID,
                    UNKNOWN, MoveKind, Phase, Use, fail)
from .zones import play, played_index, pyramid_card, receive

PAYMENT = ObjectField("payment", N_("Payment"), (
    a.card("card", N_("Card")),
    IntField("capital", N_("Capital printed on it"), max=MAX_PRINTED, optional=True),
    a.played(),
))

ARGS = (
    ChoiceField("slot", N_("Card bought"), a.SLOT_CHOICES + (
        (REVEALED, N_("The card Brain Hook turned up")),)),
    a.card("card", N_("Which card it is")),
    a.slot("drop", N_("The card that drops into the gap"), optional=True),
    IntField("cost", N_("Cost printed on it"), max=MAX_PRINTED, optional=True),
    ListField("pay", N_("Payment"), PAYMENT, default=(), item_label=N_("Card %(n)d")),
)


def check(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    """Refuse anything but a base card, or the card Brain Hook turned up while it waits."""
    slot = args["slot"]
    from_brain_hook = state["phase"] == Phase.BRAIN_HOOK
    if from_brain_hook != (slot == REVEALED):
        if from_brain_hook:
            raise fail("valley.finish_brain_hook",
                       N_("First buy or sacrifice the card Brain Hook turned up."), "move.slot")
        raise fail(NOT_IN_BASE, N_("Only a card Brain Hook turned up can be bought this way."),
                   "move.slot")
    if not from_brain_hook and slot not in pyr.BASE:
        raise fail(NOT_IN_BASE, N_("Only the three cards of the base can be bought; %(slot)s "
                                   "is not in the base."), "move.slot", slot=slot)


def change(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """Pay and put the card onto the buyer's discard pile; a base card leaves the pyramid,
    which crumbles and counts as changed (§5 step 3); Brain Hook's card does not."""
    from_brain_hook = d["phase"] == Phase.BRAIN_HOOK
    if from_brain_hook:
        card = d["revealed"]
        named = args["card"]
        if named is not None and named != card:
            if card != UNKNOWN:
                raise fail("valley.wrong_card", N_("The revealed card is “%(title)s”."),
                           "move.card", title=names.term(card))
            locate(d, named, "move.card")
            card = named
    else:
        card = pyramid_card(d, args, "move")
    cost = value_for_use(d, "cost", card, args["cost"], "move.cost")
    if from_brain_hook:
        cost = max(0, cost - t.BRAIN_HOOK_DISCOUNT)     # SEED l.259; floor 0 (§16 #6)
    capital = _pay(d, seat, args["pay"])
    if capital < cost:
        raise fail(UNDERPAID, N_("The cards put down give %(capital)d coins; the card costs "
                                 "%(cost)d."), "move.pay", capital=capital, cost=cost)
    if from_brain_hook:
        d.state["revealed"] = None
        d.state["phase"] = Phase.PLAY.value
    else:
        d.state["pyramid"] = pyr.remove(d["pyramid"], args["slot"], args["drop"], "move.drop")
        d.state["changed"] = True
    receive(d, seat, card)


def _pay(d: Draft, seat: int, pay: list[dict[str, Any]]) -> int:
    """Play the cards paying for one purchase and give their capital (§5.1): each a hand
    card played now; a card already played cannot pay again (VK_CAPITAL_REUSED,
    VK_CARD_ALREADY_USED)."""
    total = 0
    for index, item in enumerate(pay):
        field = f"move.pay.{index}"
        if item["played"] is not None:
            entry = d["played"][played_index(d["played"], item["played"], f"pay.{index}.played")]
            if entry["use"] == Use.CAPITAL and not entry["out"]:
                raise fail(CAPITAL_REUSED, N_("This card's capital already paid for a "
                                              "purchase; it cannot pay for another."), field)
            raise fail(CARD_ALREADY_USED, N_("This card was already played this turn."),
                       field)
        card = item["card"]
        if card is None:
            raise a.BadArgument(f"pay.{index}.card")
        multiplier = play(d, seat, card, Use.CAPITAL, field)
        total += multiplier * value_for_use(d, "capital", card, item["capital"],
                                            f"{field}.capital")
    return total


RULE = MoveRule(MoveKind.BUY, Term(N_("buy a card")), frozenset({Phase.PLAY, Phase.BRAIN_HOOK}),
                args=ARGS, check=check, change=change,
                hint=N_("Buy a card of the pyramid's base, or the card Brain Hook turned up, "
                        "paying with hand cards played for their capital."))
