"""Valley of the Kings: the free seal (spec §5.3), declared once.

``{"type": "seal", "card": "shabti"}``: once a turn the active player may put a card from
their hand face up into their tomb (master embalmers may not, §12.1). Sealing is not playing a
card (§6): it does not close the previous turn's correction window. A card the catalogue
cannot place needs its ``set``, a unique its printed ``vp`` (§2.7). Seals made by actions are
written by the action (:mod:`.action`); :func:`.zones.entomb` puts every card into a tomb.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import N_, Term
from ..referee import Draft, MoveRule
from . import arguments as a
from .pools import Solo
from .state import FREE_SEAL_LIMIT, FREE_SEALS_PER_TURN, MoveKind, Phase, fail
from .zones import already_played, entomb, from_hand, release

ARGS = (
    a.card("card", N_("Card sealed")),
    a.played(),
    *a.printed_fields(),
)


def check(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    """Refuse a card already played, a second free seal in a turn, and any for master
    embalmers (§12.1)."""
    if args["played"] is None and args["card"] is None:
        raise a.BadArgument("card")
    already_played(state["played"], args["played"])
    if state["solo"] == Solo.MASTER:
        raise fail(FREE_SEAL_LIMIT, N_("Master embalmers have no free seal: only card actions "
                                       "seal."), "move.type")
    if state["free_seals"] >= FREE_SEALS_PER_TURN:
        raise fail(FREE_SEAL_LIMIT, N_("The free seal was already used this turn."),
                   "move.type")


def change(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """Move the card from the hand face up into the tomb."""
    card = args["card"]
    from_hand(d, seat, card, "move.card")
    release(d, seat, card, "move.card")
    entomb(d, seat, card, args, "move.card")
    d.state["free_seals"] = d["free_seals"] + 1


RULE = MoveRule(MoveKind.SEAL, Term(N_("seal a card")), frozenset({Phase.PLAY}),
                args=ARGS, check=check, change=change,
                hint=N_("Once a turn, put a card from your hand face up into your tomb."))
